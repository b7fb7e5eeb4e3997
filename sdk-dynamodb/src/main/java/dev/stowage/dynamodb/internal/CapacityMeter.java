package dev.stowage.dynamodb.internal;

import dev.stowage.spi.CapacityListener;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Decides what each request asks DynamoDB for ({@code ReturnConsumedCapacity}), accumulates the
 * units DynamoDB reports per physical table when the driver keeps totals, and passes each request's
 * units to the store's {@link CapacityListener} under the logical table and, when DynamoDB broke
 * them out, each index by its Stowage name. Thread-safe.
 *
 * <p>A request asks for nothing unless something uses the answer: the driver's own totals ({@link
 * #CapacityMeter(boolean) totals}) or a listener. It asks for {@code TOTAL}, and for {@code
 * INDEXES}, the per-index breakdown, only for a table with indexes while a listener is set.
 */
public final class CapacityMeter {
  /** What a request did, for the listener's read/write/delete split. */
  public enum Kind {
    READ,
    WRITE,
    DELETE
  }

  private final Map<String, DoubleAdder[]> perTable = new ConcurrentHashMap<>();
  private final Map<String, Known> known = new ConcurrentHashMap<>();
  private final boolean totals;
  private volatile CapacityListener listener = CapacityListener.NONE;
  private volatile boolean listening;

  /**
   * @param totals whether to ask every request for its consumed capacity and keep totals per
   *     physical table ({@link #of}, {@link #all}); without it, requests ask only while a listener
   *     is set
   */
  public CapacityMeter(boolean totals) {
    this.totals = totals;
  }

  /** Whether this meter keeps totals per table. */
  public boolean keepsTotals() {
    return totals;
  }

  /** A physical table: its logical reference and its indexes' physical to Stowage names. */
  private record Known(TableRef ref, Map<String, String> indexes) {}

  /** Where each request's units go from now on. */
  public void listener(CapacityListener l) {
    this.listener = l == null ? CapacityListener.NONE : l;
    this.listening = l != null && l != CapacityListener.NONE;
  }

  /**
   * What to ask DynamoDB for on a request to {@code physical}: null (nothing) when neither totals
   * nor a listener use the answer; otherwise learns the logical table behind it (a lookup once
   * known) and returns {@code TOTAL}, or {@code INDEXES} for a listened-to table with indexes.
   */
  public ReturnConsumedCapacity learn(TableLayout table, String physical) {
    if (!listening) {
      return totals ? ReturnConsumedCapacity.TOTAL : null;
    }
    Known k = known.get(physical);
    if (k == null || !k.ref().equals(table.ref())) {
      Map<String, String> ix = new HashMap<>();
      for (IndexLayout i : table.indexes()) {
        ix.put(i.isNative() ? i.nativeName() : TableNames.indexName(i.name()), i.name());
      }
      k = new Known(table.ref(), Map.copyOf(ix));
      known.put(physical, k);
    }
    return k.indexes().isEmpty() ? ReturnConsumedCapacity.TOTAL : ReturnConsumedCapacity.INDEXES;
  }

  /** Records what a read ({@code write=false}) or write call consumed. */
  public void record(ConsumedCapacity c, boolean write) {
    record(c, write ? Kind.WRITE : Kind.READ);
  }

  /** Records what a call of {@code kind} consumed. */
  public void record(ConsumedCapacity c, Kind kind) {
    if (c == null || c.tableName() == null || c.capacityUnits() == null) {
      return;
    }
    if (totals) {
      DoubleAdder[] a =
          perTable.computeIfAbsent(
              c.tableName(), t -> new DoubleAdder[] {new DoubleAdder(), new DoubleAdder()});
      a[kind == Kind.READ ? 0 : 1].add(c.capacityUnits());
    }
    if (!listening) {
      return;
    }
    Known k = known.get(c.tableName());
    if (k == null) {
      return;
    }
    report(k.ref(), "", c.capacityUnits(), c.readCapacityUnits(), c.writeCapacityUnits(), kind);
    if (c.hasGlobalSecondaryIndexes()) {
      c.globalSecondaryIndexes().forEach((name, cap) -> index(k, name, cap, kind));
    }
    if (c.hasLocalSecondaryIndexes()) {
      c.localSecondaryIndexes().forEach((name, cap) -> index(k, name, cap, kind));
    }
  }

  private void index(Known k, String physicalIndex, Capacity cap, Kind kind) {
    String name = k.indexes().getOrDefault(physicalIndex, physicalIndex);
    report(
        k.ref(),
        name,
        cap.capacityUnits(),
        cap.readCapacityUnits(),
        cap.writeCapacityUnits(),
        kind);
  }

  private void report(
      TableRef ref, String index, Double total, Double read, Double write, Kind kind) {
    double r = read == null ? 0 : read;
    double w = write == null ? 0 : write;
    if (read == null && write == null && total != null) {
      // DynamoDB Local and TOTAL responses give the sum only: it is all of the call's kind.
      if (kind == Kind.READ) {
        r = total;
      } else {
        w = total;
      }
    }
    try {
      if (kind == Kind.DELETE) {
        listener.consumed(ref, index, r, 0, w);
      } else {
        listener.consumed(ref, index, r, w, 0);
      }
    } catch (RuntimeException ignored) {
      // Metrics never fail a request.
    }
  }

  /** Records several entries (batch and transaction calls report one per table). */
  public void recordAll(List<ConsumedCapacity> cs, boolean write) {
    if (cs != null) {
      cs.forEach(c -> record(c, write));
    }
  }

  /** Read and write units consumed so far on a physical table: {@code [read, write]}. */
  public double[] of(String table) {
    DoubleAdder[] a = perTable.get(table);
    return a == null ? new double[2] : new double[] {a[0].sum(), a[1].sum()};
  }

  /** All tables seen so far, by physical name. */
  public Map<String, double[]> all() {
    Map<String, double[]> out = new TreeMap<>();
    perTable.forEach((t, a) -> out.put(t, new double[] {a[0].sum(), a[1].sum()}));
    return out;
  }
}
