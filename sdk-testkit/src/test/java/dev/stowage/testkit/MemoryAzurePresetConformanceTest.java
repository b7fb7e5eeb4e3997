package dev.stowage.testkit;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.MemoryBlobStore;

/**
 * The in-memory driver under the Azure preset passes the whole kit: its limits put the long forms
 * of index values to work where the default (DynamoDB) limits store most values as they are.
 */
class MemoryAzurePresetConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    return DriverFixture.of(
        MemoryDriver.builder()
            .limits(MemoryLimits.azure())
            .capabilities(MemoryLimits.azureCapabilities())
            .build(),
        new MemoryBlobStore(),
        Scale.full(),
        null);
  }
}
