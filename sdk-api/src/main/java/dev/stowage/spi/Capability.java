package dev.stowage.spi;

/** Optional driver abilities the core may use. Absent ones are handled above the SPI or refused. */
public enum Capability {
  /** {@link StorageDriver#transactWrite} works for items of one partition of one table. */
  TRANSACTIONS,
  /** Transactions may span partitions and tables. */
  CROSS_PARTITION_TRANSACTIONS,
  /** {@link StorageDriver#updateNative} applies conditional updates atomically server-side. */
  NATIVE_UPDATES,
  /** Index queries can be strongly consistent. */
  CONSISTENT_INDEX_QUERIES,
  /**
   * The backend's own secondary indexes can serve as Stowage indexes ({@link
   * dev.stowage.IndexSpec#nativeIndex}; see {@link IndexLayout}). A driver without it refuses a
   * layout with a native index in {@link StorageDriver#ensureTable} and {@link
   * StorageDriver#openTable} with {@link dev.stowage.UnsupportedCapabilityException}.
   */
  NATIVE_INDEXES,
  /**
   * {@link StorageDriver#segments} and {@link StorageDriver#scanSegment} divide a table or an index
   * into segments read in parallel, each resumable from its own checkpoint.
   */
  SEGMENTED_SCANS
}
