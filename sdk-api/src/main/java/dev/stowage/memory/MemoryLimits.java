package dev.stowage.memory;

import dev.stowage.spi.DriverLimits;

/**
 * Limit presets for the in-memory driver, so application tests can mimic the backend they will run
 * on (and see overflow and batching happen exactly where the cloud would need them).
 */
public final class MemoryLimits {
  private MemoryLimits() {}

  /**
   * DynamoDB: 400 KB items, 1020-byte indexed values, batches of 25 writes / 100 reads, 100-item
   * transactions.
   */
  public static DriverLimits dynamoDb() {
    return new DriverLimits(
        400 * 1024,
        400 * 1024,
        Integer.MAX_VALUE,
        1024 - DriverLimits.INDEX_VALUE_OVERHEAD,
        2048,
        1024,
        100,
        25,
        100,
        MemorySizeModel.utf8());
  }

  /** Cloud Datastore: ~1 MiB entities, 1496-byte indexed values, batches of 500 / 1000. */
  public static DriverLimits datastore() {
    return new DriverLimits(
        1_048_000,
        1_048_000,
        20_000,
        1500 - DriverLimits.INDEX_VALUE_OVERHEAD,
        700,
        700,
        1000,
        500,
        500,
        MemorySizeModel.utf8());
  }

  /** Azure Table Storage: 1 MiB entities, 64 KiB per property, 255 properties, batches of 100. */
  public static DriverLimits azure() {
    return new DriverLimits(
        1_000_000,
        64 * 1024,
        252,
        1024 - DriverLimits.INDEX_VALUE_OVERHEAD,
        400,
        400,
        100,
        100,
        100,
        MemorySizeModel.utf16());
  }
}
