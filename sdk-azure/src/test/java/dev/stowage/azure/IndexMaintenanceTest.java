package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableServiceClient;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Index entities: order, paging in both directions, and fault injection between the write steps (a
 * hook throws after a step, as a crash would) proving index queries never return a stale or miss a
 * current item, and that read repair deletes garbage entries. On a table of the default spec, whose
 * entries have no reverse row (descending pages read the forward rows); {@link
 * IndexMaintenanceWithReverseRowsTest} runs the same on a table that keeps them.
 */
class IndexMaintenanceTest {
  static final KeySchema SCHEMA = ByAItems.SCHEMA;
  static final IndexSpec BY_A = ByAItems.BY_A;
  static final AtomicReference<WriteStep> CRASH_AFTER = new AtomicReference<>();
  static TableServiceClient service;
  static AzureTablesDriver driver;
  TableLayout table;

  @BeforeAll
  static void start() {
    service = AzuriteClients.fastRetrying().buildClient();
    driver =
        new AzureTablesDriver(
            service,
            step -> {
              if (step == CRASH_AFTER.get()) {
                throw new SimulatedCrash(step);
              }
            },
            new dev.stowage.azure.internal.TransactionMeter(),
            dev.stowage.azure.internal.Segments.PLAN_ROWS,
            CLOCK);
  }

  /** Read repair's clock, which tests move past the grace of entries whose write may land. */
  static final dev.stowage.testkit.MutableClock CLOCK =
      new dev.stowage.testkit.MutableClock(java.time.Instant.now());

  /**
   * Moves read repair's clock past the grace it gives entries whose item is still the version their
   * write replaced (that write may be between its steps): from then on they are garbage.
   */
  static void afterTheGrace() {
    CLOCK.advance(dev.stowage.azure.internal.Queries.REPAIR_GRACE.plusMinutes(1));
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  @BeforeEach
  void freshTable() {
    CLOCK.set(java.time.Instant.now());
    CRASH_AFTER.set(null);
    table = newLayout();
    driver.ensureTable(table);
  }

  /** A fresh layout of the table under test. */
  TableLayout newLayout() {
    return Layouts.layout("ix", SCHEMA, BY_A);
  }

  /** True if the table under test keeps a reverse row per entry. */
  boolean reverseRows() {
    return false;
  }

  static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(WriteStep step) {
      super("simulated crash after " + step);
    }
  }

  static Item item(String pk, long sk, String a, String b, String payload) {
    return ByAItems.item(pk, sk, a, b, payload);
  }

  static KeyValue bin(String s) {
    return ByAItems.bin(s);
  }

  List<String> queryAll(String a, KeyRange range, boolean descending, int pageSize) {
    List<String> out = new ArrayList<>();
    Position start = null;
    while (true) {
      QueryResult r =
          driver.query(
              table, new DriverQuery("byA", bin(a), range, descending, pageSize, start, true));
      for (StoredItem s : r.items()) {
        out.add(
            s.item().getString("b")
                + "/"
                + s.item().getString("pk")
                + "/"
                + s.item().getString("payload"));
      }
      if (!r.more() || r.items().isEmpty()) {
        return out;
      }
      Item last = r.items().get(r.items().size() - 1).item();
      start =
          new Position(
              SCHEMA.keyOf(last), last.get("stowage:ix:byA:s") instanceof KeyValue k ? k : null);
    }
  }

  /**
   * The entries in the index table, counted by their forward rows; checks that every entry has its
   * reverse row on a table that keeps them, and that there are none on others.
   */
  int indexRows() {
    List<String> rows =
        service.getTableClient(TableNames.indexTable(table.ref())).listEntities().stream()
            .map(e -> e.getRowKey())
            .toList();
    long forward = rows.stream().filter(k -> k.startsWith("k")).count();
    long reverse = rows.stream().filter(k -> k.startsWith("r")).count();
    assertThat(forward + reverse).as("forward and reverse rows only").isEqualTo(rows.size());
    assertThat(reverse).as("reverse rows").isEqualTo(reverseRows() ? forward : 0);
    return (int) forward;
  }

  @Test
  void entriesOrderBySortThenPrimaryKeyInBothDirections() {
    driver.put(table, item("p2", 1, "x", "m", "v"), Expectation.ANY, false);
    driver.put(table, item("p1", 1, "x", "m", "v"), Expectation.ANY, false);
    driver.put(table, item("p3", 1, "x", "a", "v"), Expectation.ANY, false);
    driver.put(table, item("p4", 1, "x", "z", "v"), Expectation.ANY, false);
    driver.put(table, item("p5", 1, "y", "m", "v"), Expectation.ANY, false);
    List<String> asc = List.of("a/p3/v", "m/p1/v", "m/p2/v", "z/p4/v");
    assertThat(queryAll("x", KeyRange.ALL, false, 1)).containsExactlyElementsOf(asc);
    assertThat(queryAll("x", KeyRange.ALL, true, 3))
        .containsExactly("z/p4/v", "m/p2/v", "m/p1/v", "a/p3/v");
    KeyRange mOnly = new KeyRange(bin("m"), true, bin("m"), true, null);
    assertThat(queryAll("x", mOnly, true, 1)).containsExactly("m/p2/v", "m/p1/v");
    KeyRange afterM = new KeyRange(bin("m"), false, null, false, null);
    assertThat(queryAll("x", afterM, false, 5)).containsExactly("z/p4/v");
    KeyRange beforeM = new KeyRange(null, false, bin("m"), false, null);
    assertThat(queryAll("x", beforeM, true, 5)).containsExactly("a/p3/v");
  }

  @Test
  void updatesMoveEntriesAndDeletesRemoveThem() {
    driver.put(table, item("p1", 1, "x", "b", "v1"), Expectation.ANY, false);
    driver.put(table, item("p1", 1, "x", "c", "v2"), Expectation.ANY, false);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).containsExactly("c/p1/v2");
    assertThat(indexRows()).isEqualTo(1);
    driver.delete(
        table, Key.of(AttributeValue.of("p1"), AttributeValue.of(1)), Expectation.ANY, false);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).isEmpty();
    assertThat(indexRows()).isZero();
  }

  @Test
  void crashAfterNewEntriesKeepsTheOldVersionVisible() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.NEW_ENTRIES_WRITTEN);
    assertThatThrownBy(
            () -> driver.put(table, item("p1", 1, "x", "c", "new"), Expectation.ANY, false))
        .isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    assertThat(indexRows()).isEqualTo(2);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).containsExactly("b/p1/old");
    assertThat(queryAll("x", KeyRange.ALL, true, 10)).containsExactly("b/p1/old");
    assertThat(indexRows())
        .as("the crashed write's entry names the version still stored: skipped, not deleted yet")
        .isEqualTo(2);
    afterTheGrace();
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).containsExactly("b/p1/old");
    assertThat(indexRows()).isEqualTo(1);
  }

  @Test
  void crashAfterTheItemWriteNeverShowsTheStaleVersion() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    driver.put(table, item("p2", 1, "x", "b", "other"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.ITEM_WRITTEN);
    assertThatThrownBy(
            () -> driver.put(table, item("p1", 1, "x", "a", "new"), Expectation.ANY, false))
        .isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    assertThat(queryAll("x", KeyRange.ALL, true, 1)).containsExactly("b/p2/other", "a/p1/new");
    assertThat(queryAll("x", KeyRange.ALL, false, 1)).containsExactly("a/p1/new", "b/p2/other");
    assertThat(indexRows()).isEqualTo(2);
  }

  @Test
  void crashAfterADeleteNeverShowsTheDeletedItem() {
    driver.put(table, item("p1", 1, "x", "b", "v"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.ITEM_WRITTEN);
    Key key = Key.of(AttributeValue.of("p1"), AttributeValue.of(1));
    assertThatThrownBy(() -> driver.delete(table, key, Expectation.ANY, false))
        .isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).isEmpty();
    assertThat(indexRows())
        .as("the entry of the item's create, which is absent again: skipped, not deleted yet")
        .isEqualTo(1);
    afterTheGrace();
    assertThat(queryAll("x", KeyRange.ALL, true, 10)).isEmpty();
    assertThat(indexRows()).isZero();
  }

  @Test
  void itemsLeavingTheIndexDisappearFromIt() {
    driver.put(table, item("p1", 1, "x", "b", "v"), Expectation.ANY, false);
    Item without =
        StoredItems.of(Map.of("pk", AttributeValue.of("p1"), "sk", AttributeValue.of(1)));
    driver.put(table, without, Expectation.ANY, false);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).isEmpty();
    assertThat(indexRows()).isZero();
  }

  static WriteOp put(Item item) {
    return new WriteOp.Put(SCHEMA.keyOf(item), item);
  }

  static Key key(String pk, long sk) {
    return Key.of(AttributeValue.of(pk), AttributeValue.of(sk));
  }

  @Test
  void batchWritesMoveAddAndRemoveEntriesLikeSingleWrites() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    driver.put(table, item("p2", 1, "x", "c", "gone"), Expectation.ANY, false);
    List<WriteOp> batch = new ArrayList<>();
    batch.add(put(item("p1", 1, "x", "d", "moved")));
    batch.add(new WriteOp.Delete(key("p2", 1)));
    batch.add(new WriteOp.Delete(key("p9", 9)));
    for (int i = 0; i < 120; i++) {
      batch.add(put(item("p3", i, i % 2 == 0 ? "x" : "y", "e" + (100 + i), "n")));
    }
    assertThat(driver.batchWrite(table, batch).unprocessed()).isEmpty();
    List<String> x = queryAll("x", KeyRange.ALL, false, 1000);
    assertThat(x).hasSize(61).contains("d/p1/moved").doesNotContain("b/p1/old", "c/p2/gone");
    assertThat(queryAll("y", KeyRange.ALL, true, 7)).hasSize(60);
    assertThat(indexRows()).isEqualTo(121);
  }

  @Test
  void batchCrashAfterNewEntriesKeepsTheOldVersionsVisible() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.NEW_ENTRIES_WRITTEN);
    List<WriteOp> batch =
        List.of(put(item("p1", 1, "x", "c", "new")), put(item("p2", 1, "x", "a", "new")));
    assertThatThrownBy(() -> driver.batchWrite(table, batch)).isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    assertThat(indexRows()).isEqualTo(3);
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).containsExactly("b/p1/old");
    assertThat(queryAll("x", KeyRange.ALL, true, 10)).containsExactly("b/p1/old");
    assertThat(indexRows())
        .as("p1's new entry (its create could never land) deleted; p2's skipped, not deleted yet")
        .isEqualTo(2);
    afterTheGrace();
    assertThat(queryAll("x", KeyRange.ALL, false, 10)).containsExactly("b/p1/old");
    assertThat(indexRows()).isEqualTo(1);
  }

  @Test
  void batchCrashAfterTheItemWritesNeverShowsStaleOrDeletedVersions() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    driver.put(table, item("p2", 1, "x", "c", "deleted"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.ITEM_WRITTEN);
    List<WriteOp> batch =
        List.of(put(item("p1", 1, "x", "a", "new")), new WriteOp.Delete(key("p2", 1)));
    assertThatThrownBy(() -> driver.batchWrite(table, batch)).isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    assertThat(indexRows()).isEqualTo(3);
    assertThat(queryAll("x", KeyRange.ALL, true, 1)).containsExactly("a/p1/new");
    assertThat(queryAll("x", KeyRange.ALL, false, 1)).containsExactly("a/p1/new");
    assertThat(indexRows())
        .as("p1's old entry deleted; the deleted p2's, written by its create, not yet")
        .isEqualTo(2);
    afterTheGrace();
    assertThat(queryAll("x", KeyRange.ALL, false, 1)).containsExactly("a/p1/new");
    assertThat(indexRows()).isEqualTo(1);
  }

  @Test
  void batchOfPutsCrashAfterTheItemWritesNeverShowsReplacedVersions() {
    driver.put(table, item("p1", 1, "x", "b", "old"), Expectation.ANY, false);
    CRASH_AFTER.set(WriteStep.ITEM_WRITTEN);
    // p1 exists, so its create is refused and it is read and replaced; p2 is created.
    List<WriteOp> batch =
        List.of(put(item("p1", 1, "x", "a", "new")), put(item("p2", 1, "x", "c", "new")));
    assertThatThrownBy(() -> driver.batchWrite(table, batch)).isInstanceOf(SimulatedCrash.class);
    CRASH_AFTER.set(null);
    // p1's old entry, the entry its refused create wrote, the one it was replaced under; p2's.
    assertThat(indexRows()).isEqualTo(4);
    assertThat(queryAll("x", KeyRange.ALL, true, 1)).containsExactly("c/p2/new", "a/p1/new");
    assertThat(queryAll("x", KeyRange.ALL, false, 1)).containsExactly("a/p1/new", "c/p2/new");
    assertThat(indexRows()).isEqualTo(2);
  }
}
