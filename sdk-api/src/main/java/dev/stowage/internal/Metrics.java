package dev.stowage.internal;

import dev.stowage.ThrottledException;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counters the core keeps per store (requests, throttled requests, compare-and-set retries) and per
 * table (overflow blobs, compression). Exported through {@link dev.stowage.StowageMetrics}.
 * Thread-safe.
 */
public final class Metrics {
  private final Map<TableRef, TableCounters> tables = new ConcurrentHashMap<>();
  private final List<Consumer<TableCounters>> tableListeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<OperationCounters>> operationListeners = new CopyOnWriteArrayList<>();
  private final List<java.util.function.BiConsumer<TableCounters, String>> capacityListeners =
      new CopyOnWriteArrayList<>();

  // Counted on every request: see OwnedAdder.
  final OwnedAdder reads = new OwnedAdder();
  final OwnedAdder writes = new OwnedAdder();
  final OwnedAdder queries = new OwnedAdder();
  final LongAdder throttled = new LongAdder();
  final LongAdder casRetries = new LongAdder();
  final LongAdder releaseFailures = new LongAdder();
  final LongAdder requestIdsForgotten = new LongAdder();
  final LongAdder staleIndexHits = new LongAdder();
  final LongAdder retries = new LongAdder();
  private final LongAdder[] throttledByReason = adders(ThrottledException.Reason.values().length);

  static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  void throttled(ThrottledException e) {
    throttled.increment();
    throttledByReason[e.reason().ordinal()].increment();
  }

  /** Requests the backend throttled for {@code reason}. */
  public long throttledRequests(ThrottledException.Reason reason) {
    return throttledByReason[reason.ordinal()].sum();
  }

  /** Attempts the retry policy repeated after a retryable failure. */
  public long retries() {
    return retries.sum();
  }

  /** Single-item and batch reads issued to the driver. */
  public long reads() {
    return reads.sum();
  }

  /** Writes issued to the driver. */
  public long writes() {
    return writes.sum();
  }

  /** Query and scan pages requested from the driver. */
  public long queries() {
    return queries.sum();
  }

  /** Requests the backend throttled. */
  public long throttledRequests() {
    return throttled.sum();
  }

  /**
   * Old overflow blobs that could not be deleted after a committed write (left for the sweeper).
   */
  public long releaseFailures() {
    return releaseFailures.sum();
  }

  /**
   * Idempotent writes that made an item forget its oldest request id (its idempotency window was
   * full): a retry of that request would be applied again.
   */
  public long requestIdsForgotten() {
    return requestIdsForgotten.sum();
  }

  /**
   * Index query hits left out because the item's attributes no longer give the values the query
   * asked for (another tool changed them without updating Stowage's index values).
   */
  public long staleIndexHits() {
    return staleIndexHits.sum();
  }

  /** Compare-and-set loops that had to re-read because of a concurrent write. */
  public long casRetries() {
    return casRetries.sum();
  }

  /**
   * The counters of one table, created on first use; listeners added with {@link #onTable} hear of
   * it once.
   */
  public TableCounters table(TableRef table) {
    TableCounters c = tables.get(table);
    if (c != null) {
      return c;
    }
    TableCounters created = new TableCounters(table, this);
    c = tables.putIfAbsent(table, created);
    if (c != null) {
      return c;
    }
    for (Consumer<TableCounters> l : tableListeners) {
      l.accept(created);
    }
    return created;
  }

  /** The tables with counters so far. */
  public List<TableCounters> tables() {
    return List.copyOf(tables.values());
  }

  /**
   * Calls {@code listener} for every table with counters, now and when one is added (for exporters
   * that register meters per table). A table added concurrently may be reported twice.
   */
  public void onTable(Consumer<TableCounters> listener) {
    tableListeners.add(listener);
    tables.values().forEach(listener);
  }

  /**
   * Calls {@code listener} for every operation counter that has counted a request, now and when one
   * counts its first (for exporters that register meters only for what is used).
   */
  public void onOperation(Consumer<OperationCounters> listener) {
    operationListeners.add(listener);
    for (TableCounters t : tables.values()) {
      for (OperationCounters o : t.operations()) {
        if (o.used()) {
          listener.accept(o);
        }
      }
    }
  }

  /** Calls {@code listener} for every (table, index) with capacity counters, now and when added. */
  public void onCapacity(java.util.function.BiConsumer<TableCounters, String> listener) {
    capacityListeners.add(listener);
    for (TableCounters t : tables.values()) {
      t.capacity().keySet().forEach(i -> listener.accept(t, i));
    }
  }

  void firstUse(OperationCounters o) {
    for (Consumer<OperationCounters> l : operationListeners) {
      l.accept(o);
    }
  }

  /**
   * Counters of one table: overflow blobs written and read with their bytes, and the bytes of the
   * values of compressed attributes before and after the codec. Thread-safe.
   */
  public static final class TableCounters {
    private final TableRef table;
    private final LongAdder overflowBlobsWritten = new LongAdder();
    private final LongAdder overflowBytesWritten = new LongAdder();
    private final LongAdder overflowBlobsRead = new LongAdder();
    private final LongAdder overflowBytesRead = new LongAdder();
    private final LongAdder compressedValues = new LongAdder();
    private final LongAdder bytesBeforeCompression = new LongAdder();
    private final LongAdder bytesAfterCompression = new LongAdder();
    private final OperationCounters[] operations = new OperationCounters[Op.ALL.length];
    private final Map<String, OperationCounters> indexQueries = new ConcurrentHashMap<>();
    private final LongAdder retries = new LongAdder();
    private final LongAdder[] throttledByReason = adders(ThrottledException.Reason.values().length);
    private final Map<String, DoubleAdder[]> capacity = new ConcurrentHashMap<>();
    private volatile AdaptiveRateLimiter limiter;
    private final Metrics owner;

    TableCounters(TableRef table, Metrics owner) {
      this.table = table;
      this.owner = owner;
      for (Op op : Op.ALL) {
        operations[op.ordinal()] = new OperationCounters(this, op, "");
      }
    }

    void firstUse(OperationCounters o) {
      owner.firstUse(o);
    }

    /** The counters of {@code op} on the table itself. */
    public OperationCounters operation(Op op) {
      return operations[op.ordinal()];
    }

    /** The counters of queries on {@code index} ("" or null: the table), created on first use. */
    public OperationCounters query(String index) {
      if (index == null || index.isEmpty()) {
        return operations[Op.QUERY.ordinal()];
      }
      OperationCounters c = indexQueries.get(index);
      return c != null
          ? c
          : indexQueries.computeIfAbsent(index, i -> new OperationCounters(this, Op.QUERY, i));
    }

    /** Every operation's counters, the table's in operation order, then each index's queries. */
    public List<OperationCounters> operations() {
      List<OperationCounters> out = new ArrayList<>(List.of(operations));
      indexQueries.values().stream()
          .sorted(java.util.Comparator.comparing(OperationCounters::index))
          .forEach(out::add);
      return out;
    }

    /** A retryable failure on this table was retried. */
    void retried() {
      retries.increment();
    }

    /** Attempts repeated after a retryable failure. */
    public long retries() {
      return retries.sum();
    }

    void throttled(ThrottledException e) {
      throttledByReason[e.reason().ordinal()].increment();
    }

    /** Requests on this table throttled for {@code reason}. */
    public long throttled(ThrottledException.Reason reason) {
      return throttledByReason[reason.ordinal()].sum();
    }

    /**
     * Billable units a request consumed ({@link dev.stowage.spi.CapacityListener}): {@code index}
     * "" for the whole request, an index name for that index's part of it.
     */
    public void consumed(String index, double read, double write, double delete) {
      DoubleAdder[] a = capacity.get(index);
      if (a == null) {
        a =
            capacity.computeIfAbsent(
                index,
                i -> new DoubleAdder[] {new DoubleAdder(), new DoubleAdder(), new DoubleAdder()});
      }
      if (read != 0) {
        a[0].add(read);
      }
      if (write != 0) {
        a[1].add(write);
      }
      if (delete != 0) {
        a[2].add(delete);
      }
    }

    /** Billable units consumed so far on {@code index}: {@code [read, write, delete]}. */
    public double[] capacity(String index) {
      DoubleAdder[] a = capacity.get(index);
      return a == null ? new double[3] : new double[] {a[0].sum(), a[1].sum(), a[2].sum()};
    }

    /**
     * Billable units consumed so far, by index ("" for the table as a whole): {@code [read, write,
     * delete]}, ordered by index name.
     */
    public Map<String, double[]> capacity() {
      Map<String, double[]> out = new java.util.TreeMap<>();
      capacity.forEach((i, a) -> out.put(i, new double[] {a[0].sum(), a[1].sum(), a[2].sum()}));
      return out;
    }

    /** The table's adaptive rate limiter, or null when rate limiting is off. */
    public AdaptiveRateLimiter limiter() {
      return limiter;
    }

    /** Gives the table an adaptive rate limiter, unless it has one. */
    synchronized void ensureLimiter() {
      if (limiter == null) {
        limiter = new AdaptiveRateLimiter();
      }
    }

    /** The namespace and table. */
    public TableRef table() {
      return table;
    }

    /** An overflow blob of {@code bytes} was written. */
    public void overflowWritten(long bytes) {
      overflowBlobsWritten.increment();
      overflowBytesWritten.add(bytes);
    }

    /** An overflow blob of {@code bytes} was read whole and verified. */
    public void overflowRead(long bytes) {
      overflowBlobsRead.increment();
      overflowBytesRead.add(bytes);
    }

    /**
     * A value of a compressed attribute was encoded for a write: {@code before} bytes serialised,
     * {@code after} bytes as stored.
     */
    public void compressed(long before, long after) {
      compressedValues.increment();
      bytesBeforeCompression.add(before);
      bytesAfterCompression.add(after);
    }

    /** Overflow blobs written. */
    public long overflowBlobsWritten() {
      return overflowBlobsWritten.sum();
    }

    /** Bytes of the overflow blobs written. */
    public long overflowBytesWritten() {
      return overflowBytesWritten.sum();
    }

    /** Overflow blobs read. */
    public long overflowBlobsRead() {
      return overflowBlobsRead.sum();
    }

    /** Bytes of the overflow blobs read. */
    public long overflowBytesRead() {
      return overflowBytesRead.sum();
    }

    /** Values of compressed attributes encoded. */
    public long compressedValues() {
      return compressedValues.sum();
    }

    /** Their serialised bytes. */
    public long bytesBeforeCompression() {
      return bytesBeforeCompression.sum();
    }

    /** Their bytes as stored. */
    public long bytesAfterCompression() {
      return bytesAfterCompression.sum();
    }
  }
}
