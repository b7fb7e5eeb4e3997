package dev.stowage;

/**
 * A snapshot of a store's request counters (shared by all namespace views of one {@link Stowage}).
 * Immutable. {@code dev.stowage.micrometer.MicrometerMetrics.bind} registers them with Micrometer.
 *
 * @param reads single-item and batch reads sent to the backend
 * @param writes writes sent to the backend (single, batch and transactional)
 * @param queries query and scan pages requested from the backend
 * @param throttled requests the backend throttled (each retried per the retry policy)
 * @param casRetries conditional writes re-read because a concurrent write won the race
 * @param requestIdsForgotten idempotent writes that made an item forget its oldest request id
 *     because the table's idempotency window was full (a retry of that request would be applied
 *     again): a count that keeps rising means the window is too small for the traffic
 * @param staleIndexHits index query hits left out because the item no longer matches the query:
 *     another tool changed an indexed attribute without updating Stowage's index values (see {@link
 *     Table#verifyIndexes}, which repairs them); a rising count means a table of the store holds
 *     stale index values
 */
public record StowageMetrics(
    long reads,
    long writes,
    long queries,
    long throttled,
    long casRetries,
    long requestIdsForgotten,
    long staleIndexHits) {

  /** Metrics without stale index hits (0). */
  public StowageMetrics(
      long reads,
      long writes,
      long queries,
      long throttled,
      long casRetries,
      long requestIdsForgotten) {
    this(reads, writes, queries, throttled, casRetries, requestIdsForgotten, 0);
  }
}
