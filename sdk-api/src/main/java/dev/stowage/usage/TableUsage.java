package dev.stowage.usage;

import java.util.Objects;

/**
 * What one table used since tracking started: the requests Stowage sent to the backend for it,
 * items and bytes, DynamoDB-style capacity units, throttles, and its overflow blobs. Immutable.
 *
 * <p>Capacity units follow DynamoDB's documented rules whatever the backend, so tables on different
 * clouds compare: a write costs {@code ceil(bytes / 1 KB)} write units per item (at least 1), and
 * as much again for each index the item is written to (assuming indexes project all attributes); a
 * transactional write twice that. A strongly consistent read costs {@code ceil(bytes / 4 KB)} read
 * units per item (at least 1, also for a key not found), an eventually consistent read half; a
 * query or scan page costs the units of its items' total size, at least 1. Datastore's entity
 * operations and Azure's storage transactions are counted separately ({@link #itemsRead}, {@link
 * #itemsWritten}, {@link #itemsDeleted}, {@link #requests}) so the {@code dev.stowage.cost} models
 * can price each backend by its own rules.
 *
 * @param namespace the namespace ({@code ""} for the root)
 * @param table the table
 * @param reads single-item and batch read requests
 * @param writes put, delete, batch write, update and transaction requests
 * @param queries query pages requested
 * @param scans scan pages requested
 * @param emptyPages query and scan pages that returned no item (Datastore bills each as one read)
 * @param itemsRead items returned by reads, queries and scans
 * @param itemsWritten items put or updated
 * @param itemsDeleted items deleted
 * @param bytesRead bytes of the items returned
 * @param bytesWritten bytes of the items written
 * @param readUnits DynamoDB read capacity units the reads would consume
 * @param writeUnits DynamoDB write capacity units the writes would consume
 * @param throttled requests the backend throttled
 * @param blobPuts overflow blobs written
 * @param blobBytesWritten their bytes
 * @param blobGets overflow blobs opened for reading
 * @param blobBytesRead bytes read from them
 * @param blobOther other blob requests (deletes, lists)
 * @param peakReadUnitsPerSecond the busiest minute of the last hour in read units per second,
 *     counting what throttled requests asked for too (demand, not consumed capacity)
 * @param peakWriteUnitsPerSecond the same for write units
 * @param reportedReadUnits units the backend itself reported for this table (the table as a whole,
 *     its indexes included) at its read price since tracking started: DynamoDB's consumed read
 *     capacity, Datastore's entity reads, Azure's read transactions; 0 when it reports none (the
 *     memory driver) — see {@link #hasReportedUnits}
 * @param reportedWriteUnits the same at the write price: DynamoDB's consumed write capacity of puts
 *     and updates, Datastore's entity writes, Azure's write transactions
 * @param reportedDeleteUnits the same for deletes: DynamoDB's write capacity of deletes,
 *     Datastore's entity deletes (billed at their own price), Azure's delete transactions
 */
public record TableUsage(
    String namespace,
    String table,
    long reads,
    long writes,
    long queries,
    long scans,
    long emptyPages,
    long itemsRead,
    long itemsWritten,
    long itemsDeleted,
    long bytesRead,
    long bytesWritten,
    double readUnits,
    long writeUnits,
    long throttled,
    long blobPuts,
    long blobBytesWritten,
    long blobGets,
    long blobBytesRead,
    long blobOther,
    double peakReadUnitsPerSecond,
    double peakWriteUnitsPerSecond,
    double reportedReadUnits,
    double reportedWriteUnits,
    double reportedDeleteUnits) {

  /** Checks the names. */
  public TableUsage {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
  }

  /** Usage without units reported by the backend (all 0). */
  public TableUsage(
      String namespace,
      String table,
      long reads,
      long writes,
      long queries,
      long scans,
      long emptyPages,
      long itemsRead,
      long itemsWritten,
      long itemsDeleted,
      long bytesRead,
      long bytesWritten,
      double readUnits,
      long writeUnits,
      long throttled,
      long blobPuts,
      long blobBytesWritten,
      long blobGets,
      long blobBytesRead,
      long blobOther,
      double peakReadUnitsPerSecond,
      double peakWriteUnitsPerSecond) {
    this(
        namespace,
        table,
        reads,
        writes,
        queries,
        scans,
        emptyPages,
        itemsRead,
        itemsWritten,
        itemsDeleted,
        bytesRead,
        bytesWritten,
        readUnits,
        writeUnits,
        throttled,
        blobPuts,
        blobBytesWritten,
        blobGets,
        blobBytesRead,
        blobOther,
        peakReadUnitsPerSecond,
        peakWriteUnitsPerSecond,
        0,
        0,
        0);
  }

  /**
   * True if the backend reported billable units for this table ({@link #reportedReadUnits} and the
   * others), so a cost can be computed from what it will bill rather than from Stowage's estimate.
   */
  public boolean hasReportedUnits() {
    return reportedReadUnits > 0 || reportedWriteUnits > 0 || reportedDeleteUnits > 0;
  }

  /** Requests sent to the backend for this table (each an Azure storage transaction). */
  public long requests() {
    return reads + writes + queries + scans;
  }
}
