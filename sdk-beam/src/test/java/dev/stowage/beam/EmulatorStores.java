package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.overflow.BlobStore;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import java.util.List;

/**
 * The stores of the cross-backend pipeline tests, on the emulators sdk-test starts in this JVM:
 * DynamoDB Local + S3Proxy, Datastore (Firestore emulator in Datastore mode) + GCS (the
 * google-cloud-nio fake), Azurite tables + blobs. Workers open them from {@link StoreSpec}s, which
 * reach the emulators through {@link Emulators#shared()}: every runner the tests use (DirectRunner,
 * Flink's embedded MiniCluster, Spark's local master) runs its workers in the test JVM. Shared by
 * the runner tests of sdk-beam-flink-tests and sdk-beam-spark-tests (sdk-beam's test jar).
 */
final class EmulatorStores {
  private static String s3Bucket;

  private EmulatorStores() {}

  /**
   * Starts the emulators now rather than in the first worker that needs one, so a slow start (a
   * loaded machine) does not count against a pipeline step; forgets earlier fault injection.
   */
  static synchronized void start() {
    Emulators.shared().dynamoDb();
    Emulators.shared().datastore();
    Emulators.shared().azurite();
    Emulators.shared().gcs();
    if (s3Bucket == null) {
      s3Bucket = Emulators.shared().s3().newBucket();
    }
    SharedStores.reset();
  }

  static StorageDriver dynamo() {
    return DynamoDbDriver.create(Emulators.shared().dynamoDb().client());
  }

  static BlobStore s3() {
    return S3BlobStore.builder()
        .client(Emulators.shared().s3().client())
        .bucket(s3Bucket)
        .prefix("ov/")
        .build();
  }

  static StorageDriver datastore() {
    return DatastoreDriver.builder()
        .projectId("test")
        .emulatorHost(Emulators.shared().datastore().hostPort())
        .build();
  }

  static BlobStore gcs() {
    return GcsBlobStore.of(Emulators.shared().gcs(), "beam-gcs", "ov/");
  }

  static StorageDriver azure() {
    return AzureTablesDriver.fromConnectionString(Emulators.shared().azurite().connectionString());
  }

  static BlobStore azureBlobs() {
    return AzureBlobStore.fromConnectionString(
        Emulators.shared().azurite().connectionString(), "beam-overflow", "ov/");
  }

  /** DynamoDB Local + S3Proxy; batch writes counted (and failed on request) as "dynamodb". */
  static StoreSpec dynamoSpec(String namespace) {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("dynamodb", dynamo(), true), EmulatorStores::s3, namespace);
  }

  /** Datastore emulator + the GCS fake; batch writes counted (and failed) as "datastore". */
  static StoreSpec datastoreSpec() {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("datastore", datastore(), true),
        EmulatorStores::gcs,
        "prod");
  }

  /** Azurite tables + blobs; batch writes counted (and failed) as "azure". */
  static StoreSpec azureSpec() {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("azure", azure(), true),
        EmulatorStores::azureBlobs,
        "prod");
  }

  /** The ledger table on {@code store}, opened with the keys, for checking a copy. */
  static Table table(StoreSpec store) {
    return Stowage.builder(store.driver().open())
        .blobStore(store.blobs().open())
        .codecs(Ledger.codecs())
        .namespace(store.namespace())
        .build()
        .table(Ledger.SPEC);
  }

  /** Writes {@code items} of the ledger to DynamoDB Local + S3Proxy in namespace "prod". */
  static void writeSource(List<dev.stowage.item.Item> items) {
    Table source =
        Stowage.builder(dynamo())
            .blobStore(s3())
            .codecs(Ledger.codecs())
            .namespace("prod")
            .build()
            .ensureTable(Ledger.SPEC);
    Ledger.write(source, items);
  }

  /**
   * Runs one copy-and-verify hop on the runner {@code pipelineArgs} name (the DirectRunner when
   * empty), prints its time and checks the pipeline's own verification: every one of {@code items}
   * copied and verified, nothing missing, extra or different.
   */
  static StowageMigrationPipeline.Result hop(
      String name,
      StoreSpec from,
      StoreSpec to,
      int items,
      int segments,
      int pageSize,
      String... pipelineArgs) {
    long t = System.nanoTime();
    StowageMigrationPipeline.Options.Builder options =
        StowageMigrationPipeline.Options.builder(from, to, Ledger.SPEC)
            .segments(segments)
            .pageSize(pageSize);
    if (pipelineArgs.length > 0) {
      options.pipelineArgs(pipelineArgs);
    }
    StowageMigrationPipeline.Result r = StowageMigrationPipeline.run(options.build());
    long ms = (System.nanoTime() - t) / 1_000_000;
    System.out.printf(
        "beam pipeline %s: %,d items copied and verified (%,d index entries), %,d blobs, in %,d ms"
            + " (%,d items/s, %d segments)%n",
        name,
        r.copiedItems(),
        r.verifiedIndexEntries(),
        r.copiedBlobs(),
        ms,
        r.copiedItems() * 1000L / Math.max(1, ms),
        segments);
    assertThat(r.ok()).as(name + ": " + r).isTrue();
    assertThat(r.sourceItems()).as(name + ": " + r).isEqualTo(items);
    assertThat(r.verifiedItems()).as(name + ": " + r).isEqualTo(items);
    return r;
  }
}
