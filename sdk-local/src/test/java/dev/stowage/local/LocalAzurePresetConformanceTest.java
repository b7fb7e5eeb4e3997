package dev.stowage.local;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;
import java.nio.file.Path;

/**
 * The local store under the Azure preset passes the whole kit: long forms of index values, a UTF-16
 * size model, 252 attributes and single-partition transactions (the kit records the cross-partition
 * contracts as unsupported, with the preset's reason).
 */
class LocalAzurePresetConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    Path file = TempStores.directory().resolve("azure.db");
    return DriverFixture.of(
        LocalDriver.builder(file)
            .limits(MemoryLimits.azure())
            .capabilities(MemoryLimits.azureCapabilities())
            .build(),
        new FileBlobStore(LocalDriver.blobDirectory(file)),
        Scale.full(),
        null);
  }
}
