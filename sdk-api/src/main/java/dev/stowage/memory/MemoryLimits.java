package dev.stowage.memory;

import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverLimits;
import java.util.Set;

/**
 * Limit and capability presets for the in-memory driver, so application tests can mimic the backend
 * they will run on: each preset reports exactly the numeric limits and the capabilities of that
 * backend's driver (the driver modules' tests compare them), so keys, indexed values, batches and
 * transactions are refused in a unit test where production would refuse them. Item sizes are
 * counted with a simple model (UTF-8, or UTF-16 for Azure) instead of each backend's exact
 * accounting, so overflow may start a little earlier or later than on the cloud.
 *
 * <pre>{@code
 * MemoryDriver azureLike = MemoryDriver.builder()
 *     .limits(MemoryLimits.azure())
 *     .capabilities(MemoryLimits.azureCapabilities())
 *     .build();
 * }</pre>
 */
public final class MemoryLimits {
  private MemoryLimits() {}

  /**
   * DynamoDB: 400 KB items, 2048-byte indexed values (index values of more than 1024 bytes in long
   * form), batches of 25 writes / 100 reads, 100-item transactions.
   */
  public static DriverLimits dynamoDb() {
    return new DriverLimits(
        400 * 1024,
        400 * 1024,
        Integer.MAX_VALUE,
        DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
        1024,
        2048,
        1024,
        100,
        25,
        100,
        MemorySizeModel.utf8());
  }

  /** The DynamoDB driver's capabilities: transactions across partitions and tables, updates. */
  public static Set<Capability> dynamoDbCapabilities() {
    return Set.of(
        Capability.TRANSACTIONS,
        Capability.CROSS_PARTITION_TRANSACTIONS,
        Capability.NATIVE_UPDATES,
        Capability.NATIVE_INDEXES,
        Capability.SEGMENTED_SCANS);
  }

  /**
   * Cloud Datastore: 1 MiB entities (1,048,572 bytes), 2048-byte indexed values (index values of
   * more than 1500 bytes in long form), 600-byte partition and 438-byte sort keys (they share one
   * key name), batches of 1000 reads / 500 writes.
   */
  public static DriverLimits datastore() {
    return new DriverLimits(
        1_048_572,
        1_048_487,
        20_000,
        DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
        1500,
        600,
        438,
        1000,
        500,
        500,
        MemorySizeModel.utf8());
  }

  /** The Datastore driver's capabilities: transactions across entity groups, strong queries. */
  public static Set<Capability> datastoreCapabilities() {
    return Set.of(
        Capability.TRANSACTIONS,
        Capability.CROSS_PARTITION_TRANSACTIONS,
        Capability.CONSISTENT_INDEX_QUERIES,
        Capability.NATIVE_INDEXES,
        Capability.SEGMENTED_SCANS);
  }

  /**
   * Azure Table Storage: 1 MiB entities, 64 KiB per property, 252 properties (255 less the system
   * ones), 383-byte partition and 382-byte sort keys, 2048-byte indexed values (index values of
   * more than 255 bytes in long form), batches of 100, 50-item transactions (each item may need a
   * second action).
   */
  public static DriverLimits azure() {
    return new DriverLimits(
        1024 * 1024,
        64 * 1024,
        252,
        DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
        255,
        383,
        382,
        100,
        100,
        50,
        MemorySizeModel.utf16());
  }

  /** The Azure driver's capabilities: single-partition transactions, consistent index queries. */
  public static Set<Capability> azureCapabilities() {
    return Set.of(
        Capability.TRANSACTIONS, Capability.CONSISTENT_INDEX_QUERIES, Capability.SEGMENTED_SCANS);
  }
}
