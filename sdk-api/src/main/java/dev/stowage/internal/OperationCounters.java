package dev.stowage.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.ThrottledException;

/**
 * Counters of one operation on one table (and index): requests by outcome, items and bytes, and the
 * time spent. Striped ({@link java.util.concurrent.atomic.LongAdder}) so concurrent requests do not
 * contend, and without atomic instructions for the thread that uses them first ({@link
 * OwnedAdder}); recording allocates nothing. Thread-safe.
 */
public final class OperationCounters {
  private final Metrics.TableCounters table;
  private final Op op;
  private final String index;
  private volatile boolean used;
  final OwnedAdder requests = new OwnedAdder();
  final OwnedAdder throttled = new OwnedAdder();
  final OwnedAdder conflicts = new OwnedAdder();
  final OwnedAdder conditionFailures = new OwnedAdder();
  final OwnedAdder errors = new OwnedAdder();
  final OwnedAdder itemsRead = new OwnedAdder();
  final OwnedAdder itemsWritten = new OwnedAdder();
  final OwnedAdder bytesRead = new OwnedAdder();
  final OwnedAdder bytesWritten = new OwnedAdder();
  final OwnedAdder nanos = new OwnedAdder();

  OperationCounters(Metrics.TableCounters table, Op op, String index) {
    this.table = table;
    this.op = op;
    this.index = index;
  }

  /** The table's counters. */
  public Metrics.TableCounters table() {
    return table;
  }

  /** True once a request was counted. */
  boolean used() {
    return used;
  }

  private void use() {
    if (!used) {
      synchronized (this) {
        if (used) {
          return;
        }
        used = true;
      }
      table.firstUse(this);
    }
  }

  /** The operation. */
  public Op op() {
    return op;
  }

  /** The index a query went to, or "" for the table. */
  public String index() {
    return index;
  }

  /** Records a request that succeeded. */
  void succeeded(long nanos, long itemsRead, long itemsWritten, long bytesRead, long bytesWritten) {
    use();
    requests.increment();
    this.nanos.add(nanos);
    if (itemsRead != 0) {
      this.itemsRead.add(itemsRead);
    }
    if (itemsWritten != 0) {
      this.itemsWritten.add(itemsWritten);
    }
    if (bytesRead != 0) {
      this.bytesRead.add(bytesRead);
    }
    if (bytesWritten != 0) {
      this.bytesWritten.add(bytesWritten);
    }
  }

  /** Records a request that failed with {@code error}. */
  void failed(long nanos, Throwable error) {
    use();
    requests.increment();
    this.nanos.add(nanos);
    if (error instanceof ThrottledException) {
      throttled.increment();
    } else if (error instanceof ConflictException) {
      conflicts.increment();
    } else if (error instanceof ConditionFailedException) {
      conditionFailures.increment();
    } else {
      errors.increment();
    }
  }

  public long requests() {
    return requests.sum();
  }

  public long throttled() {
    return throttled.sum();
  }

  public long conflicts() {
    return conflicts.sum();
  }

  public long conditionFailures() {
    return conditionFailures.sum();
  }

  public long errors() {
    return errors.sum();
  }

  public long itemsRead() {
    return itemsRead.sum();
  }

  public long itemsWritten() {
    return itemsWritten.sum();
  }

  public long bytesRead() {
    return bytesRead.sum();
  }

  public long bytesWritten() {
    return bytesWritten.sum();
  }

  /** Total time spent in requests, in nanoseconds. */
  public long nanos() {
    return nanos.sum();
  }
}
