package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The cross-backend migration on a runner that retries failed bundles: DynamoDB Local + S3Proxy →
 * Datastore + GCS → Azurite tables + blobs → DynamoDB Local + S3Proxy in another namespace. One of
 * the first hop's batch writes to Datastore fails (a worker crashing mid-copy, after earlier
 * batches were written); the runner runs the failed work again and the pipeline completes in one
 * run. Each hop is verified by the pipeline (items and index entries) and then, with the keys, by
 * {@link Ledger#assertHoldsExactly}. Used by the Flink and Spark runner tests (sdk-beam's test
 * jar).
 */
final class RetriedBundleHops {
  private RetriedBundleHops() {}

  /**
   * Runs the three hops with {@code pipelineArgs} (the runner and its options); the last one
   * through {@link StowageMigrationPipeline#runFromCommandLine}, the entry point of {@code stowage
   * migrate --runner}, with the runner by its short name {@code runner} ({@code --runner=flink}).
   *
   * @param items items in the table (one in {@link Ledger#ATTACHMENT_EVERY} with a 500 KB
   *     overflowed attachment)
   * @param pageSize items per page read and per write batch: small enough that the first hop makes
   *     several batch writes, so the failing one is not the first
   */
  static void run(String runner, int items, int segments, int pageSize, String... pipelineArgs) {
    List<Item> table = Ledger.items(items);
    long attachments = table.stream().filter(i -> i.has("attachment")).count();
    long indexed = table.stream().filter(i -> i.has("day")).count();
    EmulatorStores.writeSource(table);
    StoreSpec dynamo = EmulatorStores.dynamoSpec("prod");

    // 1. DynamoDB → Datastore: the third batch write fails once; the runner retries its bundle.
    SharedStores.failAfter("datastore", 2, 1);
    StowageMigrationPipeline.Result first =
        EmulatorStores.hop(
            "DynamoDB -> Datastore (a failed batch write retried)",
            dynamo,
            EmulatorStores.datastoreSpec(),
            items,
            segments,
            pageSize,
            pipelineArgs);
    assertThat(SharedStores.failedWrites("datastore")).as("failed batch writes").isEqualTo(1);
    assertThat(first.copiedBlobs()).isGreaterThanOrEqualTo(attachments);
    assertThat(first.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(EmulatorStores.datastoreSpec()), table);

    // 2. Datastore → Azure Tables + Blob.
    StowageMigrationPipeline.Result second =
        EmulatorStores.hop(
            "Datastore -> Azure",
            EmulatorStores.datastoreSpec(),
            EmulatorStores.azureSpec(),
            items,
            segments,
            pageSize,
            pipelineArgs);
    assertThat(second.copiedItems()).isEqualTo(items);
    assertThat(second.copiedBlobs()).isEqualTo(attachments);
    assertThat(second.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(EmulatorStores.azureSpec()), table);

    // 3. Azure → DynamoDB, another namespace, as `stowage migrate --runner <runner>` runs it.
    List<String> args = new java.util.ArrayList<>();
    for (String a : pipelineArgs) {
      args.add(a.startsWith("--runner=") ? "--runner=" + runner : a);
    }
    Map<String, Object> request = new java.util.HashMap<>();
    request.put("sourceDriver", (Opener<StorageDriver>) () -> azureDriver());
    request.put("sourceBlobs", (Opener<BlobStore>) EmulatorStores::azureBlobs);
    request.put("sourceNamespace", "prod");
    request.put("targetDriver", (Opener<StorageDriver>) () -> dynamoDriver());
    request.put("targetBlobs", (Opener<BlobStore>) EmulatorStores::s3);
    request.put("targetNamespace", "back");
    request.put("spec", Ledger.SPEC);
    request.put("segments", segments);
    request.put("pageSize", pageSize);
    request.put("args", args);
    long t = System.nanoTime();
    Map<String, Long> third = StowageMigrationPipeline.runFromCommandLine(request);
    System.out.printf(
        "beam pipeline Azure -> DynamoDB (--runner=%s, the command line's entry point): %s in %,d"
            + " ms%n",
        runner, third, (System.nanoTime() - t) / 1_000_000);
    assertThat(third.get("ok")).as(third.toString()).isEqualTo(1L);
    assertThat(third.get("copiedItems")).isEqualTo((long) items);
    assertThat(third.get("verifiedItems")).isEqualTo((long) items);
    assertThat(third.get("verifiedIndexEntries")).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(EmulatorStores.dynamoSpec("back")), table);
  }

  /** A serialisable supplier, as the command line passes its store openers. */
  interface Opener<T> extends Supplier<T>, Serializable {}

  private static StorageDriver azureDriver() {
    return new SharedStores.Unclosed("azure", EmulatorStores.azure(), true);
  }

  private static StorageDriver dynamoDriver() {
    return new SharedStores.Unclosed("dynamodb", EmulatorStores.dynamo(), true);
  }

  /**
   * Fails if threads whose names match {@code names} are still alive {@code seconds} after a
   * runner's pipelines ended: a runner must not leave its cluster running in the test JVM.
   */
  static void assertNoThreadsLeft(Pattern names, int seconds) throws InterruptedException {
    TreeSet<String> left = new TreeSet<>();
    for (int i = 0; i <= seconds * 10; i++) {
      left.clear();
      for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
        if (t.getKey().isAlive() && names.matcher(t.getKey().getName()).find()) {
          left.add(t.getKey().getName());
        }
      }
      if (left.isEmpty()) {
        return;
      }
      Thread.sleep(100);
    }
    assertThat(left).as("threads of the runner still alive after its pipelines ended").isEmpty();
  }

  /** Prints every live thread's name (to find a runner's threads). */
  static void printThreads(String when) {
    TreeSet<String> all = new TreeSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      all.add(t.getName() + (t.isDaemon() ? " (daemon)" : ""));
    }
    System.out.println("threads " + when + ": " + all);
  }
}
