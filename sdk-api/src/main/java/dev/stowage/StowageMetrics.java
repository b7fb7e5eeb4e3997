package dev.stowage;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of a store's counters (shared by all namespace views of one {@link Stowage}): requests
 * for the whole store, overflow and compression per table. Immutable. {@code
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
 * @param tables the tables this store opened, each with its overflow and compression counters,
 *     ordered by namespace and name
 */
public record StowageMetrics(
    long reads,
    long writes,
    long queries,
    long throttled,
    long casRetries,
    long requestIdsForgotten,
    long staleIndexHits,
    List<TableMetrics> tables) {

  /** Copies {@code tables} and orders them by namespace and name. */
  public StowageMetrics {
    tables =
        tables.stream()
            .sorted(
                Comparator.comparing(TableMetrics::namespace).thenComparing(TableMetrics::table))
            .toList();
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
      long bytesAfterCompression) {

    /** Checks the names. */
    public TableMetrics {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(table, "table");
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
}
