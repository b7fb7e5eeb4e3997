package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StorageDriver;
import java.util.List;
import java.util.Set;

/**
 * Checks that an in-memory preset ({@link dev.stowage.memory.MemoryLimits}) refuses exactly what a
 * real driver refuses, so an application's unit test on the preset fails where production would.
 */
public final class LimitPresets {
  private LimitPresets() {}

  /**
   * Asserts that {@code preset} has every numeric limit of {@code driver} and {@code capabilities}
   * are its capabilities. The size model is not compared: the memory driver approximates it.
   */
  public static void assertMatches(
      DriverLimits preset, Set<Capability> capabilities, StorageDriver driver) {
    assertThat(numbers(preset)).as("numeric limits").isEqualTo(numbers(driver.limits()));
    assertThat(capabilities).as("capabilities").isEqualTo(driver.capabilities());
  }

  private static List<Long> numbers(DriverLimits l) {
    return List.of(
        l.maxItemBytes(),
        l.maxAttributeBytes(),
        (long) l.maxAttributes(),
        l.maxIndexedValueBytes(),
        l.maxIndexTupleBytes(),
        (long) l.maxPartitionKeyBytes(),
        (long) l.maxSortKeyBytes(),
        (long) l.maxBatchGet(),
        (long) l.maxBatchWrite(),
        (long) l.maxTransactionItems());
  }
}
