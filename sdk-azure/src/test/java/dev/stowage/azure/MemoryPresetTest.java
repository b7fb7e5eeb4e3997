package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.spi.DriverLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory Azure preset refuses exactly what the driver refuses. */
class MemoryPresetTest {
  private static final String NOWHERE =
      "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
          + "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"
          + "TableEndpoint=http://127.0.0.1:9/devstoreaccount1;";

  @Test
  void thePresetHasTheDriversLimitsAndCapabilities() {
    try (AzureTablesDriver driver = AzureTablesDriver.fromConnectionString(NOWHERE)) {
      assertThat(numbers(MemoryLimits.azure())).isEqualTo(numbers(driver.limits()));
      assertThat(MemoryLimits.azureCapabilities()).isEqualTo(driver.capabilities());
    }
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
