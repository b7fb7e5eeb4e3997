package dev.stowage.cli.internal;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StorageDriver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens drivers and blob stores named by URI. In-memory stores live for the process and are shared
 * by name, so several commands run in one JVM (tests, the tour) see the same data.
 */
public final class Backends {
  private static final Map<String, MemoryDriver> MEMORY = new ConcurrentHashMap<>();

  private Backends() {}

  /**
   * Opens the driver a store URI names. The caller closes it.
   *
   * @throws CliException for an unknown scheme or bad parameters
   */
  public static StorageDriver driver(StoreLocation loc) {
    switch (loc.scheme()) {
      case "memory":
        loc.allowOnly("store", "limits", "namespace");
        String name = loc.param("store", "default");
        DriverLimits limits = memoryLimits(loc.param("limits", "dynamodb"));
        MemoryDriver d =
            MEMORY.computeIfAbsent(
                name + "|" + loc.param("limits", "dynamodb"),
                k -> MemoryDriver.builder().limits(limits).build());
        return new CountingDriver(d, false);
      default:
        return CloudBackends.driver(loc);
    }
  }

  /**
   * Opens the blob store a blob URI names. The caller closes it.
   *
   * @throws CliException for an unknown scheme or bad parameters
   */
  public static BlobStore blobStore(StoreLocation loc) {
    return CloudBackends.blobStore(loc);
  }

  /** Forgets every in-memory store (tests). */
  public static void resetMemory() {
    MEMORY.clear();
    CloudBackends.resetMemory();
  }

  private static DriverLimits memoryLimits(String preset) {
    return switch (preset) {
      case "dynamodb" -> MemoryLimits.dynamoDb();
      case "datastore" -> MemoryLimits.datastore();
      case "azure" -> MemoryLimits.azure();
      default ->
          throw new CliException(
              "memory store limits '" + preset + "' unknown; use dynamodb, datastore or azure");
    };
  }
}
