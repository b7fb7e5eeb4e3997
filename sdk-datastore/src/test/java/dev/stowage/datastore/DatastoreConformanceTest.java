package dev.stowage.datastore;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;

/**
 * The whole conformance kit against the Firestore emulator in Datastore mode (shared by the test
 * JVM and stopped at its exit), with the GCS blob store on {@code LocalStorageHelper}.
 *
 * <p>The emulator runs every transaction with pessimistic locks and answers a query in tens of
 * milliseconds on a shared two-core machine, so the heavy contracts run at the kit's floors.
 */
class DatastoreConformanceTest extends ConformanceKit {

  @Override
  protected DriverFixture createFixture() {
    return DriverFixture.of(
        DatastoreDriver.of(Emulators.shared().datastore().client()),
        GcsBlobStore.of(LocalStorageHelper.getOptions().getService(), "overflow", "conformance"),
        new Scale(50, 8, 4, 50, 1_000, 300, 1_000, 1_100),
        null);
  }
}
