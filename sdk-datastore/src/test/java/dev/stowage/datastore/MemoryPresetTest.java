package dev.stowage.datastore;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.testkit.LimitPresets;
import org.junit.jupiter.api.Test;

/** The in-memory Datastore preset refuses exactly what the driver refuses. */
class MemoryPresetTest {
  @Test
  void thePresetHasTheDriversLimitsAndCapabilities() {
    DatastoreDriver driver =
        DatastoreDriver.of(
            DatastoreOptions.newBuilder()
                .setProjectId("preset")
                .setHost("localhost:9")
                .setCredentials(NoCredentials.getInstance())
                .build()
                .getService());
    LimitPresets.assertMatches(
        MemoryLimits.datastore(), MemoryLimits.datastoreCapabilities(), driver);
  }
}
