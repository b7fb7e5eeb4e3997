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
  CONSISTENT_INDEX_QUERIES
}
