package dev.stowage.beam;

import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration pipeline on Beam's SparkRunner, on a local Spark master ({@code local[2,3]}: two
 * executor threads in this JVM, a failed task tried up to 3 times) across the three emulators, with
 * a failed batch write that Spark recovers from by running the failed task again. The last hop runs
 * through the command line's entry point with {@code --runner=spark}, as {@code stowage migrate
 * --runner spark} does.
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
    // Each pipeline's SparkContext is stopped when it ends (its RPC event loops wind down within
    // seconds).
    RetriedBundleHops.assertNoThreadsLeft(
        Pattern.compile(
            "(?i)spark|dispatcher-event-loop|executor task launch|rpc-(boss|client|server)"
                + "|files-client|shuffle-|block-manager|heartbeat|task-result-getter"
                + "|context cleaner"),
        30);
  }

  @Test
  void crossBackendMigrationWithARetriedBundle() {
    RetriedBundleHops.run(
        "spark",
        ITEMS,
        SEGMENTS,
        50,
        "--runner=SparkRunner",
        "--sparkMaster=local[2," + Integer.getInteger("stowage.beam.attempts", 3) + "]");
  }
}
