package dev.stowage.local;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;
import java.nio.file.Path;

/**
 * The local store under the Datastore preset passes the whole kit: 1 MiB items, 1500-byte index
 * values (long forms beyond), Datastore's batch sizes and capabilities.
 */
class LocalDatastorePresetConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    Path file = TempStores.directory().resolve("datastore.db");
    return DriverFixture.of(
        LocalDriver.builder(file)
            .limits(MemoryLimits.datastore())
            .capabilities(MemoryLimits.datastoreCapabilities())
            .build(),
        new FileBlobStore(LocalDriver.blobDirectory(file)),
        Scale.full(),
        null);
  }
}
