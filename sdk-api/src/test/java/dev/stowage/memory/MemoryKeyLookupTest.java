package dev.stowage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The memory table finds a stored key's item by a hash lookup and keeps the same items in key order
 * for queries; a write of a stored key replaces the item its slot holds. These tests check that the
 * two always agree: keys equal in key order are the same key to the lookup, an overwrite leaves one
 * item in every view, a delete leaves none (and a re-created key is a new item everywhere), index
 * entries follow the slot's item, and readers never see a gap while an item is overwritten.
 */
class MemoryKeyLookupTest {
  private static final KeySchema KEYS =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);

  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();
  private final Table table =
      store.ensureTable(
          TableSpec.builder("lookups", KEYS)
              .index(IndexSpec.of("byGroup", List.of("group"), List.of("score")))
              .build());

  @AfterEach
  void close() {
    store.close();
  }

  private static Item item(BigDecimal sk, String group, long score, String note) {
    return Item.builder()
        .put("pk", "p")
        .put("sk", sk)
        .put("group", group)
        .put("score", score)
        .put("note", note)
        .build();
  }

  private List<String> notesByGroup(String group) {
    return table
        .query(Query.index("byGroup").partition(AttributeValue.of(group)).limit(100).build())
        .items()
        .stream()
        .map(i -> i.getString("note"))
        .toList();
  }

  private List<String> notesInPartition() {
    return table.query(Query.partition("p").limit(100).build()).items().stream()
        .map(i -> i.getString("note"))
        .toList();
  }

  @Test
  void numbersEqualInKeyOrderAreOneKeyToTheLookup() {
    table.put(item(new BigDecimal("10"), "g", 1, "first"));
    // 1E+1 and 10.00 are the number 10: the same key for the lookup as for the ordered map.
    table.put(item(new BigDecimal("1E+1"), "g", 1, "second"));
    assertThat(
            table.get(Key.of(AttributeValue.of("p"), AttributeValue.of(new BigDecimal("10.00")))))
        .hasValueSatisfying(i -> assertThat(i.getString("note")).isEqualTo("second"));
    assertThat(notesInPartition()).containsExactly("second");
    assertThat(table.scan(Scan.all()).items()).hasSize(1);
    assertThat(notesByGroup("g")).containsExactly("second");
    table.delete(Key.of("p", 10));
    assertThat(table.get(Key.of("p", 10))).isEmpty();
    assertThat(notesInPartition()).isEmpty();
    assertThat(notesByGroup("g")).isEmpty();
  }

  @Test
  void aKeyCreatedAgainAfterItsDeleteIsANewItemInEveryView() {
    table.put(item(BigDecimal.ONE, "a", 5, "old"));
    table.put(item(BigDecimal.valueOf(2), "a", 7, "other"));
    table.delete(Key.of("p", 1));
    table.put(item(BigDecimal.ONE, "b", 3, "new"));
    assertThat(table.get(Key.of("p", 1)))
        .hasValueSatisfying(i -> assertThat(i.getString("note")).isEqualTo("new"));
    assertThat(notesInPartition()).containsExactly("new", "other");
    assertThat(notesByGroup("a")).containsExactly("other");
    assertThat(notesByGroup("b")).containsExactly("new");
  }

  @Test
  void anOverwriteMovesTheIndexEntryOnlyWhenAnIndexedValueChanges() {
    for (int i = 0; i < 5; i++) {
      table.put(item(BigDecimal.valueOf(i), "g", 10 * i, "v0-" + i));
    }
    // Same indexed values: the entry stays and shows the new item.
    table.put(item(BigDecimal.valueOf(2), "g", 20, "v1-2"));
    assertThat(notesByGroup("g")).containsExactly("v0-0", "v0-1", "v1-2", "v0-3", "v0-4");
    // A new score moves it within the group; a new group moves it to another partition.
    table.put(item(BigDecimal.valueOf(2), "g", 45, "v2-2"));
    assertThat(notesByGroup("g")).containsExactly("v0-0", "v0-1", "v0-3", "v0-4", "v2-2");
    table.put(item(BigDecimal.valueOf(2), "h", 45, "v3-2"));
    assertThat(notesByGroup("g")).containsExactly("v0-0", "v0-1", "v0-3", "v0-4");
    assertThat(notesByGroup("h")).containsExactly("v3-2");
    // Losing an indexed attribute takes it out of the index; the item stays in its partition.
    table.put(Item.builder().put("pk", "p").put("sk", 2).put("note", "v4-2").build());
    assertThat(notesByGroup("h")).isEmpty();
    assertThat(notesInPartition()).containsExactly("v0-0", "v0-1", "v4-2", "v0-3", "v0-4");
    assertThat(
            table
                .query(
                    Query.index("byGroup")
                        .partition(AttributeValue.of("g"))
                        .sort(SortCondition.ge(AttributeValue.of(25)))
                        .limit(10)
                        .build())
                .items()
                .stream()
                .map(i -> i.getString("note")))
        .containsExactly("v0-3", "v0-4");
  }

  @Test
  void theDriverAnswersTheReplacedVersionAndANewTokenPerWrite() {
    MemoryDriver driver = MemoryDriver.create();
    TableLayout layout = new TableLayout(new TableRef("", "raw"), KEYS, List.of());
    driver.ensureTable(layout);
    Item first = Item.builder().put("pk", "p").put("sk", 1).put("v", "a").build();
    Item second = Item.builder().put("pk", "p").put("sk", 1).put("v", "b").build();
    WriteResult created = driver.put(layout, first, Expectation.ANY, true);
    assertThat(created.previous()).isEmpty();
    WriteResult replaced = driver.put(layout, second, Expectation.ANY, true);
    assertThat(replaced.previous()).contains(new StoredItem(first, created.token()));
    assertThat(replaced.token()).isNotEqualTo(created.token());
    assertThat(driver.get(layout, Key.of("p", 1), true))
        .contains(new StoredItem(second, replaced.token()));
    // A compare-and-set against the replaced token fails; against the current one it lands.
    Item third = Item.builder().put("pk", "p").put("sk", 1).put("v", "c").build();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> driver.put(layout, third, Expectation.token(created.token()), false))
        .isInstanceOf(dev.stowage.ConditionFailedException.class);
    driver.put(layout, third, Expectation.token(replaced.token()), false);
    driver.delete(layout, Key.of("p", 1), Expectation.ANY, false);
    assertThat(driver.get(layout, Key.of("p", 1), true)).isEmpty();
    assertThat(driver.put(layout, first, Expectation.ABSENT, true).previous()).isEmpty();
    driver.close();
  }

  @Test
  void readersNeverSeeAGapWhileAnItemIsOverwritten() throws Exception {
    table.put(item(BigDecimal.ONE, "g", 1, "0"));
    table.put(item(BigDecimal.valueOf(2), "g", 2, "other"));
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<Integer>> readers = new ArrayList<>();
      readers.add(
          pool.submit(
              () -> {
                int reads = 0;
                long last = -1;
                while (!done.get() || reads == 0) {
                  Item got = table.get(Key.of("p", 1)).orElseThrow();
                  long version = Long.parseLong(got.getString("note"));
                  // One reader's successive reads never go back to an older version.
                  assertThat(version).isGreaterThanOrEqualTo(last);
                  last = version;
                  reads++;
                }
                return reads;
              }));
      readers.add(
          pool.submit(
              () -> {
                int reads = 0;
                while (!done.get() || reads == 0) {
                  assertThat(notesInPartition()).hasSize(2);
                  reads++;
                }
                return reads;
              }));
      for (int v = 1; v <= 20_000; v++) {
        // The score moves every other write, so index entries move while readers read.
        table.put(item(BigDecimal.ONE, "g", v % 2 == 0 ? 1 : 3, Long.toString(v)));
      }
      done.set(true);
      for (Future<Integer> r : readers) {
        assertThat(r.get(30, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
    assertThat(table.get(Key.of("p", 1)))
        .hasValueSatisfying(i -> assertThat(i.getString("note")).isEqualTo("20000"));
    assertThat(notesByGroup("g")).containsExactly("20000", "other");
  }

  /**
   * A key that is created and deleted over and over, read by one reader taking turns with a get, a
   * query of its key and a query of an index it is in: the reader's successive reads follow the
   * key's history (absent, version 1, absent, version 2, …) and never go back. A delete or a create
   * shows in every view at one point, so a version a read saw gone never shows again, and a version
   * seen is never followed by an absent key and then the same version.
   */
  @Test
  void aCreateOrDeleteShowsInGetsAndQueriesAtOnePoint() throws Exception {
    MemoryDriver driver = MemoryDriver.create();
    TableLayout layout = taggedLayout("history");
    driver.ensureTable(layout);
    // Neighbours make the partition's ordered map deep, as in a table of some size.
    for (int i = 0; i < 20_000; i++) {
      driver.put(
          layout,
          Item.builder().put("pk", "p").put("sk", 2 + i).put("v", 0).build(),
          Expectation.ANY,
          false);
    }
    Key key = Key.of("p", 1);
    dev.stowage.spi.DriverQuery exactlyTheKey =
        new dev.stowage.spi.DriverQuery(
            null,
            AttributeValue.of("p"),
            new dev.stowage.spi.KeyRange(
                AttributeValue.of(1), true, AttributeValue.of(1), true, null),
            false,
            10,
            null,
            true,
            null);
    dev.stowage.spi.DriverQuery byTag =
        new dev.stowage.spi.DriverQuery(
            "byTag",
            AttributeValue.of("t"),
            dev.stowage.spi.KeyRange.ALL,
            false,
            10,
            null,
            true,
            null);
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> reader =
          pool.submit(
              () -> {
                long highest = 0;
                boolean goneSince = false;
                for (long reads = 0; !done.get() || reads < 1000; reads++) {
                  Long seen;
                  int turn = (int) (reads % 3);
                  if (turn == 0) {
                    seen =
                        driver.get(layout, key, true).map(s -> s.item().getLong("v")).orElse(null);
                  } else {
                    List<StoredItem> q =
                        driver.query(layout, turn == 1 ? exactlyTheKey : byTag).items();
                    seen = q.isEmpty() ? null : q.get(0).item().getLong("v");
                  }
                  String view = turn == 0 ? "get" : turn == 1 ? "query" : "index query";
                  if (seen == null) {
                    goneSince = highest > 0;
                  } else if (seen < highest || seen == highest && goneSince) {
                    return view
                        + " read version "
                        + seen
                        + " after version "
                        + highest
                        + (goneSince ? " and then no item" : "");
                  } else if (seen > highest) {
                    highest = seen;
                    goneSince = false;
                  }
                }
                return null;
              });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      for (long v = 1; System.nanoTime() < deadline && !reader.isDone(); v++) {
        driver.put(
            layout,
            Item.builder().put("pk", "p").put("sk", 1).put("v", v).put("tag", "t").build(),
            Expectation.ANY,
            false);
        driver.delete(layout, key, Expectation.ANY, false);
      }
      done.set(true);
      assertThat(reader.get(30, TimeUnit.SECONDS)).isNull();
    } finally {
      done.set(true);
      pool.shutdownNow();
      driver.close();
    }
  }

  /**
   * An item moving between two index partitions with every write, read by one reader: a get, then a
   * query of the index partition the get found it in, then a get again. Should the query miss the
   * item while both gets read the same version, that version was in that partition all along and
   * the index did not show it: an overwrite's new index entry is in place before the item moves
   * into the slot.
   */
  @Test
  void anItemAGetFindsIsInTheIndexPartitionItsValuesGive() throws Exception {
    MemoryDriver driver = MemoryDriver.create();
    TableLayout layout = taggedLayout("moves");
    driver.ensureTable(layout);
    Key key = Key.of("p", 1);
    java.util.function.LongFunction<Item> version =
        v -> Item.builder().put("pk", "p").put("sk", 1).put("v", v).put("tag", "t" + v % 2).build();
    driver.put(layout, version.apply(0), Expectation.ANY, false);
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> reader =
          pool.submit(
              () -> {
                for (long reads = 0; !done.get() || reads < 1000; reads++) {
                  Item before = driver.get(layout, key, true).orElseThrow().item();
                  String tag = before.getString("tag");
                  List<StoredItem> inTag =
                      driver
                          .query(
                              layout,
                              new dev.stowage.spi.DriverQuery(
                                  "byTag",
                                  AttributeValue.of(tag),
                                  dev.stowage.spi.KeyRange.ALL,
                                  false,
                                  10,
                                  null,
                                  true,
                                  null))
                          .items();
                  Item after = driver.get(layout, key, true).orElseThrow().item();
                  if (inTag.isEmpty() && before.getLong("v") == after.getLong("v")) {
                    return "version " + before.getLong("v") + " missing from " + tag;
                  }
                }
                return null;
              });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      for (long v = 1; System.nanoTime() < deadline && !reader.isDone(); v++) {
        driver.put(layout, version.apply(v), Expectation.ANY, false);
      }
      done.set(true);
      assertThat(reader.get(30, TimeUnit.SECONDS)).isNull();
    } finally {
      done.set(true);
      pool.shutdownNow();
      driver.close();
    }
  }

  /**
   * An overwrite that moves an item within an index partition enters its new entry before it leaves
   * the old one (so a reader never misses an item that stays in the partition), and a query that
   * walks past both meanwhile meets the item's slot twice: it returns the item once.
   */
  @Test
  void anIndexPageHoldsAnItemOnceWhileAnOverwriteMovesIt() throws Exception {
    for (int i = 0; i < 20; i++) {
      table.put(item(BigDecimal.valueOf(100 + i), "g", 2, "still " + i));
    }
    table.put(item(BigDecimal.ONE, "g", 1, "moving"));
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> reader =
          pool.submit(
              () -> {
                for (long reads = 0; !done.get() || reads < 1000; reads++) {
                  List<String> notes = notesByGroup("g");
                  if (notes.size() != new java.util.HashSet<>(notes).size()) {
                    return "a page with an item twice: " + notes;
                  }
                }
                return null;
              });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      for (long v = 0; System.nanoTime() < deadline && !reader.isDone(); v++) {
        table.put(item(BigDecimal.ONE, "g", v % 2 == 0 ? 3 : 1, "moving"));
      }
      done.set(true);
      assertThat(reader.get(30, TimeUnit.SECONDS)).isNull();
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
  }

  /**
   * A table dropped and created again under the same name starts a new history: a token read from
   * the dropped table's item is not the token of an item written into the new one, so a
   * compare-and-set made with it fails instead of overwriting an item its writer never read.
   */
  @Test
  void aTokenOfADroppedTableMatchesNoItemOfTheTableCreatedInItsPlace() {
    aTokenFromBeforeMatchesNoItemWrittenAfter((driver, layout) -> driver.dropTable(layout.ref()));
  }

  /**
   * Closing the driver removes every table, as dropping each would: a test fixture that closes it
   * and creates its tables again must not see a compare-and-set with a token from before succeed.
   */
  @Test
  void aTokenFromBeforeCloseMatchesNoItemWrittenAfter() {
    aTokenFromBeforeMatchesNoItemWrittenAfter((driver, layout) -> driver.close());
  }

  private static void aTokenFromBeforeMatchesNoItemWrittenAfter(
      java.util.function.BiConsumer<MemoryDriver, TableLayout> removeTheTable) {
    MemoryDriver driver = MemoryDriver.create();
    TableLayout layout = new TableLayout(new TableRef("", "again"), KEYS, List.of());
    driver.ensureTable(layout);
    Item first = Item.builder().put("pk", "p").put("sk", 1).put("v", "old").build();
    String oldToken = driver.put(layout, first, Expectation.ANY, false).token();
    removeTheTable.accept(driver, layout);
    driver.ensureTable(layout);
    Item second = Item.builder().put("pk", "p").put("sk", 1).put("v", "new").build();
    String newToken = driver.put(layout, second, Expectation.ANY, false).token();
    assertThat(newToken).isNotEqualTo(oldToken);
    Item third = Item.builder().put("pk", "p").put("sk", 1).put("v", "lost update").build();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> driver.put(layout, third, Expectation.token(oldToken), false))
        .isInstanceOf(dev.stowage.ConditionFailedException.class);
    assertThat(driver.get(layout, Key.of("p", 1), true)).contains(new StoredItem(second, newToken));
    driver.close();
  }

  @Test
  void equalKeysHashAlike() {
    Key a = Key.of(AttributeValue.of("p"), AttributeValue.of(new BigDecimal("1E+1")));
    Key b = Key.of("p", 10);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hashCode()).isEqualTo(a.hashCode());
    assertThat(Key.of("p")).isEqualTo(Key.of("p")).hasSameHashCodeAs(Key.of("p"));
    assertThat(Key.of("p")).isNotEqualTo(Key.of("p", "q"));
    assertThat(Key.of("p", "q").hashCode())
        .isEqualTo(java.util.Objects.hash(a.partition(), AttributeValue.of("q")));
  }

  /** A table of {@code KEYS} with one index, {@code byTag}, on its string attribute "tag". */
  private static TableLayout taggedLayout(String table) {
    return new TableLayout(
        new TableRef("", table),
        KEYS,
        List.of(
            new dev.stowage.spi.IndexLayout(
                "byTag",
                "tag",
                null,
                IndexSpec.Projection.ALL,
                "byTag",
                AttributeType.STRING,
                null)));
  }
}
