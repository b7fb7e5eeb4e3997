package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The migration pipeline on the DirectRunner across the three emulators: DynamoDB Local + S3Proxy →
 * Datastore (Firestore emulator in Datastore mode) + GCS (the google-cloud-nio fake) → Azurite
 * tables + blobs → DynamoDB Local + S3Proxy in another namespace, with compressed, encrypted and
 * overflowed items and an index. The first hop's target fails after some batch writes (a worker
 * dies mid-copy) and the pipeline is run again; every hop is verified by the pipeline (items and
 * index entries) and then, with the keys, by the test. Workers open their stores from {@link
 * StoreSpec}s; the emulators come from sdk-test.
 */
class CrossBackendPipelineTest {
  /** {@code -Dstowage.beam.items=50000} for a larger run. */
  static final int ITEMS = Integer.getInteger("stowage.beam.items", 1_500);

  static final int SEGMENTS = Integer.getInteger("stowage.beam.segments", 8);
  static String s3Bucket;

  @BeforeAll
  static void emulators() {
    // Started here rather than by the first worker that needs one, so a slow start (a loaded
    // machine) does not count against a pipeline step.
    Emulators.shared().dynamoDb();
    Emulators.shared().datastore();
    Emulators.shared().azurite();
    Emulators.shared().gcs();
    s3Bucket = Emulators.shared().s3().newBucket();
    SharedStores.reset();
  }

  @AfterAll
  static void clean() {
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

  static StoreSpec dynamoSpec(String namespace) {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("dynamodb", dynamo(), true),
        CrossBackendPipelineTest::s3,
        namespace);
  }

  static StoreSpec datastoreSpec() {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("datastore", datastore(), true),
        CrossBackendPipelineTest::gcs,
        "prod");
  }

  static StoreSpec azureSpec() {
    return StoreSpec.of(
        () -> new SharedStores.Unclosed("azure", azure(), true),
        CrossBackendPipelineTest::azureBlobs,
        "prod");
  }

  static Table table(StoreSpec store) {
    return Stowage.builder(store.driver().open())
        .blobStore(store.blobs().open())
        .codecs(Ledger.codecs())
        .namespace(store.namespace())
        .build()
        .table(Ledger.SPEC);
  }

  static StowageMigrationPipeline.Result hop(String name, StoreSpec from, StoreSpec to) {
    long t = System.nanoTime();
    StowageMigrationPipeline.Result r =
        StowageMigrationPipeline.run(
            StowageMigrationPipeline.Options.builder(from, to, Ledger.SPEC)
                .segments(SEGMENTS)
                .pageSize(500)
                .build());
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
        SEGMENTS);
    assertThat(r.ok()).as(name + ": " + r).isTrue();
    assertThat(r.verifiedItems()).isEqualTo(ITEMS);
    return r;
  }

  @Test
  void dynamoToDatastoreToAzureToDynamoWithAFailedRunCompletedByARerun() {
    List<Item> items = Ledger.items(ITEMS);
    long attachments = items.stream().filter(i -> i.has("attachment")).count();
    long indexed = items.stream().filter(i -> i.has("day")).count();
    StoreSpec dynamo = dynamoSpec("prod");
    Table source =
        Stowage.builder(dynamo())
            .blobStore(s3())
            .codecs(Ledger.codecs())
            .namespace("prod")
            .build()
            .ensureTable(Ledger.SPEC);
    Ledger.write(source, items);

    // 1. DynamoDB → Datastore; the target dies after 2 batch writes (of up to 500 items, a
    // Datastore commit), the pipeline is run again.
    SharedStores.failAfter("datastore", 2);
    assertThatThrownBy(
            () ->
                StowageMigrationPipeline.run(
                    StowageMigrationPipeline.Options.builder(dynamo, datastoreSpec(), Ledger.SPEC)
                        .segments(SEGMENTS)
                        .verify(false)
                        .build()))
        .hasStackTraceContaining("simulated worker crash writing to datastore");
    assertThat(SharedStores.BATCH_WRITES.get("datastore").get()).isEqualTo(2);
    SharedStores.WRITES_BEFORE_FAILURE.clear();
    StowageMigrationPipeline.Result first = hop("DynamoDB -> Datastore", dynamo, datastoreSpec());
    assertThat(first.copiedBlobs()).isEqualTo(attachments);
    assertThat(first.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(table(datastoreSpec()), items);

    // 2. Datastore → Azure Tables + Blob.
    StowageMigrationPipeline.Result second =
        hop("Datastore -> Azure", datastoreSpec(), azureSpec());
    assertThat(second.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(table(azureSpec()), items);

    // 3. Azure → DynamoDB, another namespace.
    StoreSpec back = dynamoSpec("back");
    StowageMigrationPipeline.Result third = hop("Azure -> DynamoDB", azureSpec(), back);
    assertThat(third.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(table(back), items);
  }
}
