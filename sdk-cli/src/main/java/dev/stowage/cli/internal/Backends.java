package dev.stowage.cli.internal;

import dev.stowage.local.LocalDriver;
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
 * by name, so several commands run in one JVM (tests, the tour) see the same data. Local stores
 * ({@code local://}) are SQLite files, by default {@code <stowage home>/default.db}: what one
 * command writes, the next one reads.
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
      case "local":
        loc.allowOnly("store", "file", "limits", "namespace");
        return LocalDriver.builder(localFile(loc))
            .limits(memoryLimits(loc.param("limits", "dynamodb")))
            .build();
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
   * memory://} stores, the directory beside the file for {@code local://} stores ({@code
   * default.db} → {@code default.blobs}), none otherwise (oversized items then fail).
   */
  public static StoreLocation defaultBlobs(StoreLocation store) {
    return switch (store.scheme()) {
      case "memory" -> StoreLocation.parse("memory://" + store.param("store", "default"));
      case "local" ->
          StoreLocation.parse(LocalDriver.blobDirectory(localFile(store)).toUri().toString());
      default -> null;
    };
  }

  /** The default store: tables of the local store {@code <stowage home>/default.db}. */
  public static String defaultStore(String table) {
    return "local://" + table;
  }

  /**
   * The file of a {@code local://} store: {@code file=PATH}, else {@code <stowage home>/NAME.db}
   * for {@code store=NAME} (default {@code default}).
   */
  public static Path localFile(StoreLocation loc) {
    String file = loc.params().get("file");
    String store = loc.params().get("store");
    if (file != null) {
      if (store != null) {
        throw new CliException(loc.redacted() + ": give either file= or store=, not both");
      }
      if (file.isEmpty()) {
        throw new CliException(loc.redacted() + ": file= needs a path");
      }
      return Path.of(file);
    }
    String name = store == null ? "default" : store;
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")) {
      throw new CliException(
          "local store name '"
              + name
              + "' must be 1 to 64 letters, digits, '_', '.' or '-' (or give file=PATH)");
    }
    return StowageHome.get().resolve(name + ".db");
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
              "limits '" + preset + "' unknown: give limits=dynamodb, datastore or azure");
    };
  }
}
