package dev.stowage.internal;

import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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

  final LongAdder reads = new LongAdder();
  final LongAdder writes = new LongAdder();
  final LongAdder queries = new LongAdder();
  final LongAdder throttled = new LongAdder();
  final LongAdder casRetries = new LongAdder();
  final LongAdder releaseFailures = new LongAdder();
  final LongAdder requestIdsForgotten = new LongAdder();
  final LongAdder staleIndexHits = new LongAdder();

  void throttled() {
    throttled.increment();
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
    TableCounters created = new TableCounters(table);
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

    TableCounters(TableRef table) {
      this.table = table;
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
