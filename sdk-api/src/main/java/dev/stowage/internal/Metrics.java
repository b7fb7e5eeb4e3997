package dev.stowage.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the core keeps per store: requests, throttled requests, bytes written and read,
 * overflowed items. Exported through {@link dev.stowage.StowageMetrics}. Thread-safe.
 */
public final class Metrics {
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
}
