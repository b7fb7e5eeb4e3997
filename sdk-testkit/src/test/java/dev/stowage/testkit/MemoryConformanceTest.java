package dev.stowage.testkit;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;

/** The in-memory reference driver passes the whole conformance kit at full scale. */
class MemoryConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    StorageDriver driver = MemoryDriver.create();
    BlobStore blobs = new InMemoryBlobStore();
    return new DriverFixture() {
      @Override
      public StorageDriver driver() {
        return driver;
      }

      @Override
      public BlobStore blobStore() {
        return blobs;
      }

      @Override
      public void close() {
        driver.close();
        blobs.close();
      }
    };
  }
}
