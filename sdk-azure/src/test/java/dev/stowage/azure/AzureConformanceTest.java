package dev.stowage.azure;

import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;

/**
 * The whole conformance kit against Azurite: the Azure Tables driver with the Azure Blob store as
 * overflow target. Azurite runs as one child process per test JVM (sdk-test's {@link
 * dev.stowage.test.Azurite}).
 *
 * <p>Azurite answers a request in tens of milliseconds on a busy two-core machine, so the heavy
 * contracts run at their floors ({@link Scale}); every contract still runs.
 */
class AzureConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    String conn = Emulators.shared().azurite().connectionString();
    AzureTablesDriver driver = AzureTablesDriver.fromConnectionString(conn);
    AzureBlobStore blobs = AzureBlobStore.fromConnectionString(conn, "conformance", "kit/");
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
      public Scale scale() {
        return Scale.full()
            .withRoundTripSamples(50)
            .withRaceThreads(8)
            .withCounter(4, 50)
            .withPaging(1_000, 300)
            .withDeleteItems(1_000)
            .withBatchItems(1_100);
      }

      @Override
      public void close() {
        driver.close();
        blobs.close();
      }
    };
  }
}
