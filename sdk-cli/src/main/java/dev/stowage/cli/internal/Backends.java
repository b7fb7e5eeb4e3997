package dev.stowage.cli.internal;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.migrate.CountingBlobStore;
import dev.stowage.migrate.CountingDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StorageDriver;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens drivers and blob stores named by URI. In-memory stores live for the process and are shared
 * by name, so several commands run in one JVM (tests, the tour) see the same data.
 */
public final class Backends {
  private static final Map<String, MemoryDriver> MEMORY = new ConcurrentHashMap<>();
  private static final Map<String, MemoryBlobStore> MEMORY_BLOBS = new ConcurrentHashMap<>();

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
    switch (loc.scheme()) {
      case "memory":
        loc.allowOnly();
        return new CountingBlobStore(
            MEMORY_BLOBS.computeIfAbsent(
                loc.authority().isEmpty() ? "default" : loc.authority(),
                k -> new MemoryBlobStore()),
            false);
      case "file":
        loc.allowOnly();
        if (loc.path().isEmpty()) {
          throw new CliException("file blob store needs a directory: file:///path/to/blobs");
        }
        return new FileBlobStore(Path.of(loc.path()));
      default:
        return CloudBackends.blobStore(loc);
    }
  }

  /**
   * The blob store a store gets when none is named: the in-memory store of the same name for {@code
   * memory://} stores, none otherwise (oversized items then fail).
   */
  public static StoreLocation defaultBlobs(StoreLocation store) {
    return store.scheme().equals("memory")
        ? StoreLocation.parse("memory://" + store.param("store", "default"))
        : null;
  }

  /** Forgets every in-memory store (tests). */
  public static void resetMemory() {
    MEMORY.clear();
    MEMORY_BLOBS.clear();
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
