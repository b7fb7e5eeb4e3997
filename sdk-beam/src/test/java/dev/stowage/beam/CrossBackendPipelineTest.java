package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.Item;
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
 * StoreSpec}s; the emulators come from sdk-test ({@link EmulatorStores}).
 */
class CrossBackendPipelineTest {
  /** {@code -Dstowage.beam.items=50000} for a larger run. */
  static final int ITEMS = Integer.getInteger("stowage.beam.items", 1_500);

  static final int SEGMENTS = Integer.getInteger("stowage.beam.segments", 8);

  @BeforeAll
  static void emulators() {
    EmulatorStores.start();
  }

  @AfterAll
  static void clean() {
    SharedStores.reset();
  }

  static StowageMigrationPipeline.Result hop(String name, StoreSpec from, StoreSpec to) {
    return EmulatorStores.hop(name, from, to, ITEMS, SEGMENTS, 500);
  }

  @Test
  void dynamoToDatastoreToAzureToDynamoWithAFailedRunCompletedByARerun() {
    List<Item> items = Ledger.items(ITEMS);
    long attachments = items.stream().filter(i -> i.has("attachment")).count();
    long indexed = items.stream().filter(i -> i.has("day")).count();
    StoreSpec dynamo = EmulatorStores.dynamoSpec("prod");
    EmulatorStores.writeSource(items);

    // 1. DynamoDB → Datastore; the target dies after 2 batch writes (of up to 500 items, a
    // Datastore commit), the pipeline is run again.
    SharedStores.failAfter("datastore", 2);
    assertThatThrownBy(
            () ->
                StowageMigrationPipeline.run(
                    StowageMigrationPipeline.Options.builder(
                            dynamo, EmulatorStores.datastoreSpec(), Ledger.SPEC)
                        .segments(SEGMENTS)
                        .verify(false)
                        .build()))
        .hasStackTraceContaining("simulated worker crash writing to datastore");
    assertThat(SharedStores.BATCH_WRITES.get("datastore").get()).isEqualTo(2);
    SharedStores.WRITES_BEFORE_FAILURE.clear();
    StowageMigrationPipeline.Result first =
        hop("DynamoDB -> Datastore", dynamo, EmulatorStores.datastoreSpec());
    assertThat(first.copiedBlobs()).isEqualTo(attachments);
    assertThat(first.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(EmulatorStores.datastoreSpec()), items);

    // 2. Datastore → Azure Tables + Blob.
    StowageMigrationPipeline.Result second =
        hop("Datastore -> Azure", EmulatorStores.datastoreSpec(), EmulatorStores.azureSpec());
    assertThat(second.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(EmulatorStores.azureSpec()), items);

    // 3. Azure → DynamoDB, another namespace.
    StoreSpec back = EmulatorStores.dynamoSpec("back");
    StowageMigrationPipeline.Result third =
        hop("Azure -> DynamoDB", EmulatorStores.azureSpec(), back);
    assertThat(third.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(EmulatorStores.table(back), items);
  }
}
