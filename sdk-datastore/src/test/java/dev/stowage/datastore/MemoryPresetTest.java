package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.spi.DriverLimits;
import java.util.List;
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
    assertThat(numbers(MemoryLimits.datastore())).isEqualTo(numbers(driver.limits()));
    assertThat(MemoryLimits.datastoreCapabilities()).isEqualTo(driver.capabilities());
  }

  /** Every limit but the size model, which the memory driver approximates. */
  static List<Long> numbers(DriverLimits l) {
    return List.of(
        l.maxItemBytes(),
        l.maxAttributeBytes(),
        (long) l.maxAttributes(),
        (long) l.maxIndexedValueBytes(),
        (long) l.maxPartitionKeyBytes(),
        (long) l.maxSortKeyBytes(),
        (long) l.maxBatchGet(),
        (long) l.maxBatchWrite(),
        (long) l.maxTransactionItems());
  }
}
