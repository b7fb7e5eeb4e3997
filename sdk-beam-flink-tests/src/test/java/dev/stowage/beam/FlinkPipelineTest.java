package dev.stowage.beam;

import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration pipeline on Beam's FlinkRunner, in an embedded Flink MiniCluster ({@code
 * --flinkMaster=[local]}) in this JVM, across the three emulators, with a failed batch write that
 * Flink recovers from by restarting the failed tasks ({@code --numberOfExecutionRetries}, which
 * Beam applies to Flink's DataStream API only: {@code --useDataStreamForBatch=true}). The last hop
 * runs through the command line's entry point with {@code --runner=flink}, as {@code stowage
 * migrate --runner flink} does.
 */
class FlinkPipelineTest {
  static final int ITEMS = Integer.getInteger("stowage.beam.items", 300);
  static final int SEGMENTS = Integer.getInteger("stowage.beam.segments", 4);

  @BeforeAll
  static void emulators() {
    EmulatorStores.start();
  }

  @AfterAll
  static void noFlinkLeft() throws InterruptedException {
    SharedStores.reset();
    RetriedBundleHops.printThreads("after the Flink pipelines");
    // The MiniCluster of each pipeline is shut down when its job ends. Flink's one JVM-wide timer
    // for future time-outs (FlinkCompletableFutureDelayScheduler, an idle daemon) is not a cluster.
    RetriedBundleHops.assertNoThreadsLeft(
        Pattern.compile(
            "(?i)^(?!FlinkCompletableFutureDelayScheduler).*(flink|pekko|mini-cluster|jobmanager"
                + "|taskexecutor|resourcemanager|BLOB Server|blocking-shuffle)"),
        30);
  }

  @Test
  void crossBackendMigrationWithARetriedBundle() {
    RetriedBundleHops.run(
        "flink",
        ITEMS,
        SEGMENTS,
        50,
        "--runner=FlinkRunner",
        "--flinkMaster=[local]",
        "--parallelism=2",
        "--useDataStreamForBatch=true",
        "--numberOfExecutionRetries=" + Integer.getInteger("stowage.beam.retries", 2),
        "--executionRetryDelay=100");
  }
}
