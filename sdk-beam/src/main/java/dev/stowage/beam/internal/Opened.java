package dev.stowage.beam.internal;

import dev.stowage.beam.StoreSpec;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;

/**
 * A store opened from its {@link StoreSpec} by one DoFn instance, closed in its teardown.
 *
 * @param driver the driver
 * @param blobs the blob store, or null
 * @param spec what it was opened from
 */
public record Opened(StorageDriver driver, BlobStore blobs, StoreSpec spec)
    implements AutoCloseable {

  /** Opens the driver and blob store; if the blob store fails to open, the driver is closed. */
  public static Opened open(StoreSpec spec) {
    StorageDriver driver = spec.driver().open();
    try {
      BlobStore blobs = spec.blobs() == null ? null : spec.blobs().open();
      return new Opened(driver, blobs, spec);
    } catch (RuntimeException e) {
      driver.close();
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      if (blobs != null) {
        blobs.close();
      }
    } finally {
      driver.close();
    }
  }
}
