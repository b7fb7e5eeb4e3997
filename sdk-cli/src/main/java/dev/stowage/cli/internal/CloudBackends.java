package dev.stowage.cli.internal;

import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;

/** Drivers and blob stores of the cloud backends, by URI scheme. */
final class CloudBackends {
  private CloudBackends() {}

  static StorageDriver driver(StoreLocation loc) {
    throw new CliException(
        "unknown store scheme '"
            + loc.scheme()
            + "://' in "
            + loc.redacted()
            + "; known: memory://");
  }

  static BlobStore blobStore(StoreLocation loc) {
    throw new CliException(
        "unknown blob store scheme '" + loc.scheme() + "://' in " + loc.redacted());
  }

  static void resetMemory() {}
}
