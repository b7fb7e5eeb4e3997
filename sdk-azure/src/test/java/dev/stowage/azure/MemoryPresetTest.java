package dev.stowage.azure;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.testkit.LimitPresets;
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
      LimitPresets.assertMatches(MemoryLimits.azure(), MemoryLimits.azureCapabilities(), driver);
    }
  }
}
