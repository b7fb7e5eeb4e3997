package dev.stowage.beam;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration pipeline on Beam's SparkRunner, on a local Spark master ({@code local[2,3]}: two
 * executor threads in this JVM, a failed task tried up to 3 times) across the three emulators, with
 * a failed batch write that Spark recovers from by running the failed task again.
 */
class SparkPipelineTest {
  static final int ITEMS = Integer.getInteger("stowage.beam.items", 300);
  static final int SEGMENTS = Integer.getInteger("stowage.beam.segments", 4);

  @BeforeAll
  static void emulators() {
    EmulatorStores.start();
  }

  @AfterAll
  static void noSparkLeft() throws InterruptedException {
    SharedStores.reset();
    RetriedBundleHops.printThreads("after the Spark pipelines");
  }

  @Test
  void crossBackendMigrationWithARetriedBundle() {
    RetriedBundleHops.run(
        ITEMS,
        SEGMENTS,
        50,
        "--runner=SparkRunner",
        "--sparkMaster=local[2," + Integer.getInteger("stowage.beam.attempts", 3) + "]");
  }
}
