package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.DeleteJob;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Overflow: items of any size round trip through every read path with the driver's real blob store,
 * indexed values stay within the backend's limits, and no blob outlives its item.
 */
abstract class OverflowContracts extends Contract {
  private Set<String> blobsBefore;
  private CountingBlobStore counting;
  private Stowage big;

  @BeforeEach
  final void snapshotBlobs() {
    blobsBefore = blobKeys();
    counting = new CountingBlobStore(kit().fixture().blobStore());
    big = kit().storeBuilder(kit().freshNamespace()).blobStore(counting).build();
  }

  private Set<String> blobKeys() {
    try (Stream<BlobStore.BlobInfo> s = kit().fixture().blobStore().list("")) {
      return s.map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
    }
  }

  /** Blobs written since the test started that still exist. */
  private Set<String> newBlobs() {
    Set<String> now = new HashSet<>(blobKeys());
    now.removeAll(blobsBefore);
    return now;
  }

  private static TableSpec spec() {
    return TableSpec.builder(
            "overflow", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .index("byTag", List.of("tag"), List.of("s"))
        .build();
  }

  /**
   * An item of at least {@code bytes} payload bytes, split into attributes of at most {@code
   * chunk}.
   */
  static Item bigItem(String p, long s, long bytes, long chunk, long seed) {
    Random random = new Random(seed);
    Item.Builder b = Item.builder().put("p", p).put("s", s).put("tag", "t").put("small", "keep me");
    long left = bytes;
    int i = 0;
    while (left > 0) {
      int n = (int) Math.min(left, chunk);
      if (i % 2 == 0) {
        byte[] data = new byte[n];
        random.nextBytes(data);
        b.put("bin" + i, data);
      } else {
        b.put("text" + i, "é".repeat(n / 2) + "x".repeat(n % 2));
      }
      left -= n;
      i++;
    }
    return b.build();
  }

  @Test
  void itemsAtOneTwoAndAHundredTimesTheItemLimitRoundTripThroughEveryReadPath() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    List<Item> items = new ArrayList<>();
    for (int factor : new int[] {1, 2, 100}) {
      long chunk = factor == 1 ? max : Math.max(max / 2, 1024);
      Item item = bigItem("big", factor, factor * max, chunk, factor);
      t.put(item);
      items.add(item);
      Key key = Key.of("big", factor);
      assertThat(t.get(key, ReadOptions.CONSISTENT)).as("get at %dx", factor).contains(item);
    }
    Map<Key, Item> got =
        t.batchGet(items.stream().map(i -> t.spec().keySchema().keyOf(i)).toList());
    assertThat(got.values()).containsExactlyInAnyOrderElementsOf(items);
    assertThat(t.queryAll(Query.partition("big").limit(2).build()).toList())
        .containsExactlyElementsOf(items);
    assertThat(t.queryAll(Query.index("byTag").partition(str("t")).build()).toList())
        .containsExactlyElementsOf(items);
    assertThat(Helpers.scanAll(t)).containsExactlyInAnyOrderElementsOf(items);
    assertThat(newBlobs()).as("the large items overflowed").isNotEmpty();

    int opens = counting.opens.get();
    assertThat(t.get(Key.of("big", 100), new ReadOptions(Set.of("small", "tag"), true)))
        .contains(items.get(2).project(Set.of("p", "s", "small", "tag")));
    assertThat(counting.opens.get())
        .as("a projection of inline attributes reads no blob")
        .isEqualTo(opens);
  }

  @Test
  void anItemWithThreeHundredAttributesRoundTrips() {
    Table t = table(big, spec());
    Item.Builder b = Item.builder().put("p", "wide").put("s", 1);
    for (int i = 0; i < 300; i++) {
      b.put(String.format("attribute%03d", i), "value " + i);
    }
    Item wide = b.build();
    t.put(wide);
    assertThat(t.get(Key.of("wide", 1), ReadOptions.CONSISTENT)).contains(wide);
    assertThat(t.queryAll(Query.partition("wide").build()).toList()).containsExactly(wide);
    t.delete(Key.of("wide", 1));
    assertThat(newBlobs()).isEmpty();
  }

  @Test
  void indexedValuesOverTheBackendLimitAreRejectedAndValuesUnderItAreStored() {
    Table t = table(big, spec());
    long limit = driver().limits().maxIndexedValueBytes();
    Item over =
        Item.builder().put("p", "ix").put("s", 1).put("tag", "x".repeat((int) limit + 1)).build();
    assertThatThrownBy(() -> t.put(over)).isInstanceOf(ItemTooLargeException.class);
    assertThat(t.get(Key.of("ix", 1), ReadOptions.CONSISTENT)).isEmpty();
    String underTag = "u".repeat((int) (limit * 3 / 4));
    Item under = Item.builder().put("p", "ix").put("s", 2).put("tag", underTag).build();
    t.put(under);
    assertThat(t.get(Key.of("ix", 2), ReadOptions.CONSISTENT)).contains(under);
    assertThat(t.queryAll(Query.index("byTag").partition(str(underTag)).build()).toList())
        .containsExactly(under);
    assertThat(newBlobs()).isEmpty();
  }

  @Test
  void indexedValuesAtTheLimitAreStoredWithoutOverflowing() {
    Table t = table(big, spec());
    int limit = (int) driver().limits().maxIndexedValueBytes();
    long max = driver().limits().maxItemBytes();
    String tag = "é".repeat(limit / 2) + "x".repeat(limit % 2);
    Item atLimit = bigItem("ixl", 1, 2 * max, max / 2, 5).toBuilder().put("tag", tag).build();
    t.put(atLimit);
    assertThat(newBlobs()).as("the item overflowed").hasSize(1);
    assertThat(t.get(Key.of("ixl", 1), ReadOptions.CONSISTENT)).contains(atLimit);
    assertThat(t.queryAll(Query.index("byTag").partition(str(tag)).build()).toList())
        .containsExactly(atLimit);
    Item over = atLimit.toBuilder().put("s", 2).put("tag", tag + "y").build();
    assertThatThrownBy(() -> t.put(over)).isInstanceOf(ItemTooLargeException.class);
    t.delete(Key.of("ixl", 1));
    assertThat(newBlobs()).as("nothing is left of either").isEmpty();
  }

  @Test
  void anOverflowedAttributeNestedToTheLimitRoundTripsAndADeeperOneIsRefused() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    byte[] noise = new byte[(int) (max + max / 2)];
    new Random(7).nextBytes(noise);
    AttributeValue deep =
        Helpers.nestedLists(
            AttributeValue.MAX_NESTING - 1,
            AttributeValue.map(
                Map.of("bytes", AttributeValue.of(noise), "set", Helpers.decimalSet())));
    Item item =
        Item.builder()
            .put("p", "deep")
            .put("s", 1)
            .put("tag", "t")
            .put("small", "keep me")
            .put("deep", deep)
            .build();
    t.put(item);
    assertThat(newBlobs()).as("the deep attribute overflowed").hasSize(1);
    assertThat(t.get(Key.of("deep", 1), ReadOptions.CONSISTENT)).contains(item);
    assertThat(t.queryAll(Query.index("byTag").partition(str("t")).build()).toList())
        .containsExactly(item);
    Item tooDeep = item.toBuilder().put("s", 2).put("deep", AttributeValue.list(deep)).build();
    assertThatThrownBy(() -> t.put(tooDeep))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'deep'");
    assertThat(newBlobs()).as("a refused item leaves no blob").hasSize(1);
    t.delete(Key.of("deep", 1));
    assertThat(newBlobs()).isEmpty();
  }

  @Test
  void noBlobOutlivesItsItemAfterOverwritesUpdatesAndDeletes() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    Key key = Key.of("life", 1);
    t.put(bigItem("life", 1, 2 * max, max, 1));
    assertThat(newBlobs()).hasSize(1);
    Item second = bigItem("life", 1, 2 * max, max, 2);
    t.put(second);
    assertThat(newBlobs()).as("the replaced item's blob is gone").hasSize(1);
    Item updated = t.update(key, Update.builder().set("small", "changed").build());
    assertThat(updated).isEqualTo(second.toBuilder().put("small", "changed").build());
    assertThat(t.get(key, ReadOptions.CONSISTENT)).contains(updated);
    assertThat(newBlobs()).hasSize(1);
    t.put(Item.builder().put("p", "life").put("s", 1).put("small", "tiny now").build());
    assertThat(newBlobs()).as("overwritten by a small item").isEmpty();
    t.put(bigItem("life", 1, 2 * max, max, 3));
    t.delete(key);
    assertThat(newBlobs()).as("deleted").isEmpty();

    List<Item> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(bigItem("batch", i, 2 * max, max, 10 + i));
    }
    t.batchPut(batch);
    assertThat(newBlobs()).hasSize(5);
    t.batchDelete(batch.stream().map(i -> t.spec().keySchema().keyOf(i)).toList());
    assertThat(newBlobs()).as("batch deleted").isEmpty();
  }

  @Test
  void aDeleteJobRemovesTheBlobsOfWhatItDeletes() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    List<Item> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(bigItem("job", i, 2 * max, max, 30 + i));
    }
    t.batchPut(batch);
    t.put(bigItem("other", 1, 2 * max, max, 40));
    assertThat(newBlobs()).hasSize(6);
    DeleteJob.Progress done =
        t.deleteWhere(
                Query.partition("job").limit(2).build(), new DeleteJob.Options(0, 2, false, null))
            .run();
    assertThat(done.deleted()).isEqualTo(5);
    assertThat(newBlobs()).as("only the blob of the item the job did not match is left").hasSize(1);
    assertThat(done.blobsDeleted()).as("the job reports the blobs it deleted").isEqualTo(5);
    assertThat(t.get(Key.of("other", 1), ReadOptions.CONSISTENT)).isPresent();
  }

  @Test
  void transientBlobStoreErrorsAreRetriedOnEveryBlobCall() {
    // Every other blob call fails before or after its effect, every other read breaks part-way,
    // every other listing fails after one entry: the store's retry policy absorbs all of it.
    FlakyBlobStore flaky = new FlakyBlobStore(kit().fixture().blobStore());
    String ns = kit().freshNamespace();
    MutableClock clock =
        new MutableClock(java.time.Instant.now().plus(java.time.Duration.ofDays(1)));
    Stowage s =
        kit()
            .storeBuilder(ns)
            .blobStore(flaky)
            .clock(clock)
            .retryPolicy(
                new RetryPolicy(
                    8, java.time.Duration.ofMillis(2), java.time.Duration.ofMillis(100)))
            .build();
    Table t = table(s, spec());
    long max = driver().limits().maxItemBytes();
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Item item = bigItem("flaky", i, 2 * max, max, 60 + i);
      t.put(item);
      items.add(item);
    }
    for (Item item : items) {
      assertThat(t.get(t.spec().keySchema().keyOf(item), ReadOptions.CONSISTENT)).contains(item);
    }
    assertThat(t.queryAll(Query.partition("flaky").build()).toList())
        .containsExactlyElementsOf(items);
    Item replaced = bigItem("flaky", 0, 2 * max, max, 70);
    t.put(replaced);
    t.delete(Key.of("flaky", 1));
    assertThat(newBlobs()).as("one blob per remaining item").hasSize(2);
    kit()
        .fixture()
        .blobStore()
        .put(OverflowSweeper.prefixOf(new TableRef(ns, spec().name())) + "orphan", new byte[] {1});
    OverflowSweeper.Report swept = t.sweepOverflow(java.time.Duration.ofHours(1), false);
    assertThat(swept.listed()).as("each blob listed once").isEqualTo(3);
    assertThat(swept.deleted()).isEqualTo(1);
    assertThat(t.get(Key.of("flaky", 0), ReadOptions.CONSISTENT)).contains(replaced);
    assertThat(flaky.failures()).as("failures were injected").isGreaterThan(10);
    s.dropTable(spec().name());
    assertThat(newBlobs()).as("dropped with the table").isEmpty();
  }

  @Test
  void droppingATableRemovesItsBlobs() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    t.put(bigItem("drop", 1, 2 * max, max, 20));
    t.put(bigItem("drop", 2, 2 * max, max, 21));
    assertThat(newBlobs()).hasSize(2);
    big.dropTable("overflow");
    assertThat(newBlobs()).as("dropped with the table").isEmpty();
  }

  @Test
  void theSweeperDeletesOnlyUnreferencedBlobs() {
    String ns = kit().freshNamespace();
    // The sweep's grace period is measured on the store's clock: a day ahead, every blob is old.
    MutableClock clock =
        new MutableClock(java.time.Instant.now().plus(java.time.Duration.ofDays(1)));
    Stowage swept = kit().storeBuilder(ns).clock(clock).build();
    Table t = table(swept, spec());
    long max = driver().limits().maxItemBytes();
    Item live = bigItem("live", 1, 2 * max, max, 50);
    t.put(live);
    String orphan =
        OverflowSweeper.prefixOf(new TableRef(ns, spec().name())) + "orphan-written-by-hand";
    kit().fixture().blobStore().put(orphan, new byte[] {1, 2, 3});

    OverflowSweeper.Report dry = t.sweepOverflow(java.time.Duration.ofHours(1), true);
    assertThat(dry.referenced()).as("the live item's blob").isEqualTo(1);
    assertThat(dry.orphaned()).isEqualTo(1);
    assertThat(dry.deleted()).isZero();
    assertThat(kit().fixture().blobStore().get(orphan)).isPresent();

    OverflowSweeper.Report real = t.sweepOverflow(java.time.Duration.ofHours(1), false);
    assertThat(real.orphaned()).isEqualTo(1);
    assertThat(real.deleted()).isEqualTo(1);
    assertThat(kit().fixture().blobStore().get(orphan)).isEmpty();
    assertThat(t.get(Key.of("live", 1), ReadOptions.CONSISTENT)).contains(live);
  }

  @Test
  void concurrentOverwritesAndReadsNeverSeeAMissingBlobOrAMix() {
    Table t = table(big, spec());
    long max = driver().limits().maxItemBytes();
    int versions = 12;
    List<Item> written = new ArrayList<>();
    for (int v = 0; v < versions; v++) {
      written.add(bigItem("hot", 1, 2 * max, max, 100 + v).toBuilder().put("version", v).build());
    }
    t.put(written.get(0));
    java.util.concurrent.atomic.AtomicBoolean writing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    // The writer starts once both readers are reading, so reads and overwrites really overlap.
    java.util.concurrent.CountDownLatch readersStarted = new java.util.concurrent.CountDownLatch(2);
    List<java.util.concurrent.Callable<Integer>> tasks = new ArrayList<>();
    tasks.add(
        () -> {
          try {
            readersStarted.await(30, java.util.concurrent.TimeUnit.SECONDS);
            for (int v = 1; v < versions; v++) {
              t.put(written.get(v));
            }
            return versions - 1;
          } finally {
            writing.set(false);
          }
        });
    for (int r = 0; r < 2; r++) {
      tasks.add(
          () -> {
            int reads = 0;
            do {
              Item got = t.get(Key.of("hot", 1), ReadOptions.CONSISTENT).orElse(null);
              assertThat(got)
                  .as("an overwritten item never disappears (read %d)", reads)
                  .isNotNull();
              int v = (int) got.getLong("version");
              assertThat(got).as("read of version %d is whole", v).isEqualTo(written.get(v));
              reads++;
              if (reads == 1) {
                readersStarted.countDown();
              }
            } while (writing.get() || reads < 3);
            return reads;
          });
    }
    Helpers.runConcurrently(tasks);
    assertThat(t.get(Key.of("hot", 1), ReadOptions.CONSISTENT)).contains(written.get(versions - 1));
    assertThat(newBlobs()).as("only the last version's blob is left").hasSize(1);
  }
}
