package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The migration pipeline and StowageIO on the DirectRunner over memory drivers shared by name:
 * copies with compressed, encrypted and overflowed items and an index, verified by the pipeline
 * and, with the keys, by the test; a run that fails part-way and is run again; a run repeated.
 */
class MemoryMigrationPipelineTest {
  static final int ITEMS = 1_200;

  @BeforeEach
  void fresh() {
    SharedStores.reset();
  }

  @AfterEach
  void clean() {
    SharedStores.reset();
  }

  static Stowage stowage(String name, String namespace) {
    return Stowage.builder(new SharedStores.Unclosed(name, SharedStores.driver(name), false))
        .blobStore(SharedStores.blobs(name))
        .codecs(Ledger.codecs())
        .namespace(namespace)
        .build();
  }

  static List<Item> fillSource() {
    List<Item> items = Ledger.items(ITEMS);
    Ledger.write(stowage("src", "prod").ensureTable(Ledger.SPEC), items);
    return items;
  }

  static StowageMigrationPipeline.Options options(int segments) {
    return StowageMigrationPipeline.Options.builder(
            SharedStores.spec("src", "prod"), SharedStores.spec("dst", "staging"), Ledger.SPEC)
        .segments(segments)
        .pageSize(100)
        .build();
  }

  @Test
  void copiesEveryItemBlobAndIndexEntryAndVerifiesThem() {
    List<Item> items = fillSource();
    StowageMigrationPipeline.Result r = StowageMigrationPipeline.run(options(7));

    assertThat(r.ok()).as(r.toString()).isTrue();
    assertThat(r.sourceItems()).isEqualTo(ITEMS);
    assertThat(r.copiedItems()).isEqualTo(ITEMS);
    assertThat(r.targetItems()).isEqualTo(ITEMS);
    assertThat(r.verifiedItems()).isEqualTo(ITEMS);
    long attachments = items.stream().filter(i -> i.has("attachment")).count();
    assertThat(r.copiedBlobs()).isEqualTo(attachments);
    long indexed = items.stream().filter(i -> i.has("day")).count();
    assertThat(r.verifiedIndexEntries()).isEqualTo(indexed);
    Ledger.assertHoldsExactly(stowage("dst", "staging").table(Ledger.SPEC), items);
    assertThat(SharedStores.blobs("dst").list("").count()).isEqualTo(attachments);
  }

  @Test
  void verificationFindsWhatTheTargetLacksOrAltered() {
    List<Item> items = fillSource();
    assertThat(StowageMigrationPipeline.run(options(4)).ok()).isTrue();
    Table target = stowage("dst", "staging").table(Ledger.SPEC);
    target.delete(Ledger.SPEC.keySchema().keyOf(items.get(10)));
    target.put(items.get(11).toBuilder().put("memo", "altered").build());
    target.put(items.get(0).toBuilder().put("seq", 999_999).build());

    StowageMigrationPipeline.Result r =
        StowageMigrationPipeline.run(
            StowageMigrationPipeline.Options.builder(
                    SharedStores.spec("src", "prod"),
                    SharedStores.spec("dst", "staging"),
                    Ledger.SPEC)
                .segments(4)
                .pageSize(100)
                .build());
    // The re-run copies everything again, so the deleted and altered items are repaired; only the
    // item written to the target alone remains, as an extra item and an extra index entry.
    assertThat(r.extraItems()).isEqualTo(1);
    assertThat(r.missingItems()).isZero();
    assertThat(r.differentItems()).isZero();
    assertThat(r.extraIndexEntries()).isEqualTo(items.get(0).has("day") ? 1 : 0);
    assertThat(r.ok()).isFalse();
  }

  @Test
  void verificationAloneReportsMissingAndDifferentItemsAndIndexEntries() {
    List<Item> items = fillSource();
    assertThat(StowageMigrationPipeline.run(options(4)).ok()).isTrue();
    Table target = stowage("dst", "staging").table(Ledger.SPEC);
    target.delete(Ledger.SPEC.keySchema().keyOf(items.get(10)));
    target.put(items.get(11).toBuilder().put("memo", "altered").build());
    assertThat(items.get(10).has("day")).isTrue();

    StowageMigrationPipeline.Result r =
        StowageMigrationPipeline.run(
            StowageMigrationPipeline.Options.builder(
                    SharedStores.spec("src", "prod"),
                    SharedStores.spec("dst", "staging"),
                    Ledger.SPEC)
                .segments(4)
                .pageSize(100)
                .copy(false)
                .build());
    assertThat(r.copiedItems()).isZero();
    assertThat(r.missingItems()).isEqualTo(1);
    assertThat(r.differentItems()).isEqualTo(1);
    assertThat(r.extraItems()).isZero();
    assertThat(r.missingIndexEntries()).isEqualTo(1);
    assertThat(r.verifiedItems()).isEqualTo(ITEMS - 2);
    assertThat(r.ok()).isFalse();
  }

  @Test
  void aRunThatFailsPartWayIsCompletedByRunningItAgain() {
    List<Item> items = fillSource();
    // The target fails after 9 batch writes (of 25 items each on the memory driver's DynamoDB
    // limits): a worker dies with part of the items written.
    SharedStores.failAfter("dst", 9);
    assertThatThrownBy(() -> StowageMigrationPipeline.run(options(5)))
        .hasStackTraceContaining("simulated worker crash writing to dst");
    int written = SharedStores.BATCH_WRITES.get("dst").get();
    assertThat(written).isEqualTo(9);
    SharedStores.WRITES_BEFORE_FAILURE.clear();

    StowageMigrationPipeline.Result r = StowageMigrationPipeline.run(options(5));
    assertThat(r.ok()).as(r.toString()).isTrue();
    assertThat(r.verifiedItems()).isEqualTo(ITEMS);
    Ledger.assertHoldsExactly(stowage("dst", "staging").table(Ledger.SPEC), items);
    assertThat(SharedStores.blobs("dst").list("").count())
        .isEqualTo(items.stream().filter(i -> i.has("attachment")).count());
  }

  @Test
  void runningTwiceWritesTheSameStoredForms() {
    List<Item> items = fillSource();
    assertThat(StowageMigrationPipeline.run(options(3)).ok()).isTrue();
    StowageMigrationPipeline.Result again = StowageMigrationPipeline.run(options(11));
    assertThat(again.ok()).as(again.toString()).isTrue();
    assertThat(again.copiedItems()).isEqualTo(ITEMS);
    Ledger.assertHoldsExactly(stowage("dst", "staging").table(Ledger.SPEC), items);
  }

  /** What a pipeline emitted, gathered in this JVM (the DirectRunner runs here). */
  static final java.util.Queue<Item> EMITTED = new java.util.concurrent.ConcurrentLinkedQueue<>();

  static final class Gather extends org.apache.beam.sdk.transforms.DoFn<Item, Void> {
    @ProcessElement
    public void process(@Element Item item) {
      EMITTED.add(item);
    }
  }

  @Test
  void readStoredEmitsEveryItemOnceInStoredForm() {
    List<Item> items = fillSource();
    EMITTED.clear();
    Pipeline p = Pipeline.create();
    p.apply(
            StowageIO.readStored(SharedStores.spec("src", "prod"), Ledger.SPEC)
                .withSegments(16)
                .withPageSize(50))
        .apply(org.apache.beam.sdk.transforms.ParDo.of(new Gather()));
    p.run().waitUntilFinish();

    assertThat(EMITTED).hasSize(ITEMS);
    java.util.Set<dev.stowage.item.Key> keys = new java.util.HashSet<>();
    for (Item i : EMITTED) {
      assertThat(keys.add(Ledger.SPEC.keySchema().keyOf(i))).isTrue();
      // Encrypted attributes stay ciphertext: stored forms, read without keys.
      assertThat(i.find("iban").orElseThrow())
          .isInstanceOf(dev.stowage.item.AttributeValue.BinaryValue.class);
    }
    assertThat(keys)
        .containsExactlyInAnyOrderElementsOf(
            items.stream().map(i -> Ledger.SPEC.keySchema().keyOf(i)).toList());
  }

  @Test
  void readItemsDecodesWithTheKeys() {
    List<Item> items = fillSource();
    EMITTED.clear();
    Pipeline p = Pipeline.create();
    p.apply(
            StowageIO.readItems(() -> stowage("src", "prod"), Ledger.SPEC)
                .withSegments(5)
                .withPageSize(70))
        .apply(org.apache.beam.sdk.transforms.ParDo.of(new Gather()));
    p.run().waitUntilFinish();
    assertThat(EMITTED).containsExactlyInAnyOrderElementsOf(items);
  }

  @Test
  void optionsRefuseOutOfRangeSegmentsAndPages() {
    var b =
        StowageMigrationPipeline.Options.builder(
            SharedStores.spec("src", ""), SharedStores.spec("dst", ""), Ledger.SPEC);
    assertThatThrownBy(() -> b.segments(0)).hasMessageContaining("segments must be 1 to");
    assertThatThrownBy(() -> b.segments(ScanSegment.MAX_TOTAL + 1))
        .hasMessageContaining("segments must be 1 to");
    assertThatThrownBy(() -> b.pageSize(10_001)).hasMessageContaining("page size");
  }
}
