package dev.stowage;

import java.time.Duration;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of a store's counters (shared by all namespace views of one {@link Stowage}): requests
 * for the whole store; per table its requests by operation and index, the billable units the
 * backend reports, throttling by reason, retries, overflow and compression. Immutable. {@code
 * dev.stowage.micrometer.MicrometerMetrics.bind} registers them with Micrometer.
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
 * @param tables the tables this store opened, each with its counters, ordered by namespace and name
 * @param retries attempts the retry policy repeated after a retryable failure (throttling,
 *     unavailability, contention), and batches resent for their unprocessed entries
 * @param throttledByReason {@code throttled} by {@link ThrottledException#reason()}, every reason
 *     present (zero when none)
 */
public record StowageMetrics(
    long reads,
    long writes,
    long queries,
    long throttled,
    long casRetries,
    long requestIdsForgotten,
    long staleIndexHits,
    List<TableMetrics> tables,
    long retries,
    Map<ThrottledException.Reason, Long> throttledByReason) {

  /** Copies {@code tables} and orders them by namespace and name; copies the reasons. */
  public StowageMetrics {
    tables =
        tables.stream()
            .sorted(
                Comparator.comparing(TableMetrics::namespace).thenComparing(TableMetrics::table))
            .toList();
    throttledByReason = byReason(throttledByReason);
  }

  static Map<ThrottledException.Reason, Long> byReason(Map<ThrottledException.Reason, Long> in) {
    EnumMap<ThrottledException.Reason, Long> out = new EnumMap<>(ThrottledException.Reason.class);
    for (ThrottledException.Reason r : ThrottledException.Reason.values()) {
      out.put(r, in == null ? 0L : in.getOrDefault(r, 0L));
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** Metrics without retries or throttling reasons. */
  public StowageMetrics(
      long reads,
      long writes,
      long queries,
      long throttled,
      long casRetries,
      long requestIdsForgotten,
      long staleIndexHits,
      List<TableMetrics> tables) {
    this(
        reads,
        writes,
        queries,
        throttled,
        casRetries,
        requestIdsForgotten,
        staleIndexHits,
        tables,
        0,
        Map.of());
  }

  /** Metrics without per-table counters. */
  public StowageMetrics(
      long reads,
      long writes,
      long queries,
      long throttled,
      long casRetries,
      long requestIdsForgotten,
      long staleIndexHits) {
    this(
        reads,
        writes,
        queries,
        throttled,
        casRetries,
        requestIdsForgotten,
        staleIndexHits,
        List.of());
  }

  /** Metrics without stale index hits (0) or per-table counters. */
  public StowageMetrics(
      long reads,
      long writes,
      long queries,
      long throttled,
      long casRetries,
      long requestIdsForgotten) {
    this(reads, writes, queries, throttled, casRetries, requestIdsForgotten, 0);
  }

  /**
   * The counters of one table.
   *
   * @param namespace the namespace ({@code ""} for the root)
   * @param table the table's name
   * @return its counters, or empty if this store has not opened it
   */
  public Optional<TableMetrics> table(String namespace, String table) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    return tables.stream()
        .filter(t -> t.namespace().equals(namespace) && t.table().equals(table))
        .findFirst();
  }

  /**
   * Overflow and compression counters of one table.
   *
   * <p>Overflow: items too large for the backend keep a pointer and move their largest attributes
   * into one blob in the blob store, written before the item; a read that needs a moved attribute
   * reads the blob whole and checks its digest. Blobs written count once each however many attempts
   * the put took, including blobs of writes that then failed (their blobs are deleted).
   *
   * <p>Compression: every value written to an attribute whose {@link AttributePolicy} compresses,
   * counted when it is encoded (a write retried after losing a race encodes again). Before is the
   * value's serialisation, the bytes zstd starts from; after is the value as stored: the envelope
   * (header, compressed bytes, checksum, or the ciphertext of an attribute that is also encrypted),
   * or the serialisation again when compression did not make it smaller or the value was under the
   * size threshold.
   *
   * @param namespace the namespace ({@code ""} for the root)
   * @param table the table's name
   * @param overflowBlobsWritten overflow blobs written
   * @param overflowBytesWritten their bytes
   * @param overflowBlobsRead overflow blobs read (whole and verified)
   * @param overflowBytesRead their bytes
   * @param compressedValues values of compressed attributes encoded
   * @param bytesBeforeCompression their serialised bytes
   * @param bytesAfterCompression their bytes as stored
   * @param operations the table's requests to the backend by operation and index, in operation
   *     order then by index (empty when the store was built without table metrics)
   * @param capacity billable units consumed, the table as a whole first (index "") then each index
   *     the backend broke out; empty until the backend reported any, and always empty unless the
   *     store counts capacity ({@code Stowage.Builder.capacityMetrics}, or usage tracking)
   * @param retries attempts repeated on this table after a retryable failure, and batches resent
   *     for their unprocessed entries
   * @param throttledByReason this table's throttled requests by reason, every reason present
   * @param rateLimit the adaptive rate limiter's current rate in requests per second; infinity
   *     while it does not limit (rate limiting off, or no throttle yet)
   */
  public record TableMetrics(
      String namespace,
      String table,
      long overflowBlobsWritten,
      long overflowBytesWritten,
      long overflowBlobsRead,
      long overflowBytesRead,
      long compressedValues,
      long bytesBeforeCompression,
      long bytesAfterCompression,
      List<OperationMetrics> operations,
      List<CapacityMetrics> capacity,
      long retries,
      Map<ThrottledException.Reason, Long> throttledByReason,
      double rateLimit) {

    /** Checks the names, copies the lists. */
    public TableMetrics {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(table, "table");
      operations = List.copyOf(operations);
      capacity = List.copyOf(capacity);
      throttledByReason = byReason(throttledByReason);
    }

    /** Overflow and compression counters only. */
    public TableMetrics(
        String namespace,
        String table,
        long overflowBlobsWritten,
        long overflowBytesWritten,
        long overflowBlobsRead,
        long overflowBytesRead,
        long compressedValues,
        long bytesBeforeCompression,
        long bytesAfterCompression) {
      this(
          namespace,
          table,
          overflowBlobsWritten,
          overflowBytesWritten,
          overflowBlobsRead,
          overflowBytesRead,
          compressedValues,
          bytesBeforeCompression,
          bytesAfterCompression,
          List.of(),
          List.of(),
          0,
          Map.of(),
          Double.POSITIVE_INFINITY);
    }

    /**
     * The counters of one operation.
     *
     * @param operation the driver operation ({@code get}, {@code put}, {@code query}, …)
     * @param index for queries, the index ("" for the table)
     * @return its counters, or empty if there were none
     */
    public Optional<OperationMetrics> operation(String operation, String index) {
      return operations.stream()
          .filter(o -> o.operation().equals(operation) && o.index().equals(index))
          .findFirst();
    }

    /** The operation's counters on the table itself (not an index); zeros if none. */
    public OperationMetrics operation(String operation) {
      return operation(operation, "")
          .orElse(new OperationMetrics(operation, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, Duration.ZERO));
    }

    /** Requests of every operation and index. */
    public long requests() {
      return operations.stream().mapToLong(OperationMetrics::requests).sum();
    }

    /** Throttled requests of every operation and index. */
    public long throttled() {
      return operations.stream().mapToLong(OperationMetrics::throttled).sum();
    }

    /**
     * Billable units of the table as a whole (index ""), zeros if the backend reported none or the
     * store does not count capacity ({@code Stowage.Builder.capacityMetrics}).
     */
    public CapacityMetrics totalCapacity() {
      return capacity.stream()
          .filter(c -> c.index().isEmpty())
          .findFirst()
          .orElse(new CapacityMetrics("", 0, 0, 0));
    }

    /**
     * The compression ratio of the table's compressed attributes: {@code bytesBeforeCompression /
     * bytesAfterCompression}, for example 4.0 when values take a quarter of their size as stored.
     *
     * @return the ratio, or {@code NaN} if no value of a compressed attribute has been written
     */
    public double compressionRatio() {
      return bytesAfterCompression == 0
          ? Double.NaN
          : (double) bytesBeforeCompression / bytesAfterCompression;
    }
  }

  /**
   * One operation's requests on one table (and index) to the backend. Each attempt counts: a call
   * the core retried shows as several requests. Failures count in {@code requests} and in exactly
   * one of {@code throttled}, {@code conflicts}, {@code conditionFailures}, {@code errors}.
   *
   * @param operation the driver operation: {@code get}, {@code batchGet}, {@code put}, {@code
   *     delete}, {@code batchWrite}, {@code query}, {@code scan}, {@code transactWrite} (counted on
   *     the transaction's first table), {@code updateNative}
   * @param index for queries, the index queried; "" for the table
   * @param requests requests sent
   * @param throttled of them, throttled ({@link ThrottledException})
   * @param conflicts failed for contention with concurrent writes ({@link ConflictException})
   * @param conditionFailures refused because a condition or expectation failed
   * @param errors failed otherwise (unavailable, invalid, …)
   * @param itemsRead items returned (a get's item, query and scan pages, previous items asked for)
   * @param itemsWritten items put, deleted or updated (a batch's processed entries)
   * @param bytesRead bytes of the items returned, as the backend's size model counts them
   * @param bytesWritten bytes of the items put or updated (for an update the backend applied
   *     without sending the item back, as it does a typed put's: the key and the values it writes)
   * @param totalLatency time spent in these requests, summed
   */
  public record OperationMetrics(
      String operation,
      String index,
      long requests,
      long throttled,
      long conflicts,
      long conditionFailures,
      long errors,
      long itemsRead,
      long itemsWritten,
      long bytesRead,
      long bytesWritten,
      Duration totalLatency) {
    /** Checks the names. */
    public OperationMetrics {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(index, "index");
      Objects.requireNonNull(totalLatency, "totalLatency");
    }

    /** The mean latency, or zero without requests. */
    public Duration meanLatency() {
      return requests == 0 ? Duration.ZERO : totalLatency.dividedBy(requests);
    }
  }

  /**
   * Billable units a table consumed under its backend's pricing model, so backends compare; counted
   * when the store is built with {@code Stowage.Builder.capacityMetrics(true)} or usage tracking:
   *
   * <ul>
   *   <li>DynamoDB: the consumed capacity DynamoDB itself returns ({@code ReturnConsumedCapacity}),
   *       read and write capacity units (request units on on-demand tables); deletes' write units
   *       in {@code deleteUnits}; per GSI when the table has indexes (index = the Stowage index
   *       name);
   *   <li>Datastore (Firestore in Datastore mode): entity reads (one per entity returned, at least
   *       one per query), entity writes and entity deletes, each entity Stowage writes or deletes
   *       counting once (its index entries are not billed as operations);
   *   <li>Azure Table Storage: storage transactions, one per REST request: a batch (entity group
   *       transaction) is one, each query page is one; reads in {@code readUnits}, writes in {@code
   *       writeUnits}, deletes in {@code deleteUnits}.
   * </ul>
   *
   * @param index "" for the table as a whole (its indexes included), or an index's part of it
   * @param readUnits units billed at the read price
   * @param writeUnits units billed at the write price
   * @param deleteUnits units of deletes (Datastore bills them at their own price; DynamoDB and
   *     Azure at the write price)
   */
  public record CapacityMetrics(
      String index, double readUnits, double writeUnits, double deleteUnits) {
    /** Checks the index name. */
    public CapacityMetrics {
      Objects.requireNonNull(index, "index");
    }
  }
}
