package dev.stowage.local;

import dev.stowage.overflow.FileBlobStore;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;
import java.nio.file.Path;

/**
 * The local store passes the whole conformance kit at full scale, on a file in a temporary
 * directory with its file blob store beside it.
 */
class LocalConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    Path file = TempStores.directory().resolve("kit.db");
    return DriverFixture.of(
        LocalDriver.open(file),
        new FileBlobStore(LocalDriver.blobDirectory(file)),
        Scale.full(),
        null);
  }
}
