package dev.stowage.datastore.internal;

import dev.stowage.spi.CapacityListener;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;

/**
 * Counts the operations Firestore in Datastore mode bills for each request and reports them to the
 * store's {@link CapacityListener}: one entity read per entity looked up (found or not) and per
 * entity a query returns, at least one per query run; one entity write per entity put and one
 * entity delete per entity deleted, whatever index entries they change (index entries cost storage,
 * not operations). Thread-safe.
 */
public final class Billing {
  private volatile CapacityListener listener = CapacityListener.NONE;

  /** Where units go from now on. */
  public void listener(CapacityListener l) {
    this.listener = l == null ? CapacityListener.NONE : l;
  }

  /** {@code n} entities looked up. */
  public void reads(TableLayout table, int n) {
    report(table.ref(), "", n, 0, 0);
  }

  /**
   * A query (one run of it) on {@code index} ("" or null: the kind) returned {@code n} entities.
   */
  public void query(TableLayout table, String index, int n) {
    report(table.ref(), "", Math.max(1, n), 0, 0);
  }

  /** Entities read, written and deleted by one request. */
  public void ops(TableRef table, int reads, int writes, int deletes) {
    report(table, "", reads, writes, deletes);
  }

  private void report(TableRef table, String index, double r, double w, double d) {
    if (r == 0 && w == 0 && d == 0) {
      return;
    }
    try {
      listener.consumed(table, index, r, w, d);
    } catch (RuntimeException ignored) {
      // Metrics never fail a request.
    }
  }
}
