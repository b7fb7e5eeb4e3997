package dev.stowage.azure;

import static dev.stowage.azure.ByAItems.bin;
import static dev.stowage.azure.ByAItems.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeType;
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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reverse index rows only on tables whose spec declares descending queries: the same descending
 * index pages either way (runs of cut key parts and garbage entries included), tables created
 * before the choice existed keeping their reverse rows whatever the spec says, and a table without
 * them refusing a spec that declares descending queries.
 */
class ReverseIndexRowsTest {
  static final KeySchema SCHEMA =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);
  static final KeySchema SINGLE = KeySchema.of("pk", AttributeType.STRING);
  static final IndexSpec BY_A = IndexSpec.of("byA", List.of("a"), List.of("b"));
  static final AtomicBoolean CRASH_AFTER_ENTRIES = new AtomicBoolean();
  static TableServiceClient service;
  static AzureTablesDriver driver;

  @BeforeAll
  static void start() {
    service = AzuriteClients.fastRetrying().buildClient();
    driver =
        new AzureTablesDriver(
            service,
            step -> {
              if (step == WriteStep.NEW_ENTRIES_WRITTEN && CRASH_AFTER_ENTRIES.get()) {
                throw new IllegalStateException("simulated crash after " + step);
              }
            },
            new dev.stowage.azure.internal.TransactionMeter(),
            dev.stowage.azure.internal.Segments.PLAN_ROWS,
            // Past the grace read repair gives entries whose write may be in flight: the
            // entries the simulated crashes leave are reclaimed by the first query meeting them.
            java.time.Clock.offset(
                java.time.Clock.systemUTC(),
                dev.stowage.azure.internal.Queries.REPAIR_GRACE.plusHours(1)));
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  static TableLayout layout(KeySchema schema, boolean declared) {
    TableLayout l = Layouts.layout("rev", schema, BY_A);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, declared);
  }

  static List<Key> queryAll(
      TableLayout table, String a, KeyRange range, boolean descending, int pageSize) {
    List<Key> out = new ArrayList<>();
    Position start = null;
    while (true) {
      QueryResult r =
          driver.query(
              table, new DriverQuery("byA", bin(a), range, descending, pageSize, start, true));
      for (StoredItem s : r.items()) {
        out.add(table.keySchema().keyOf(s.item()));
      }
      if (!r.more() || r.items().isEmpty()) {
        return out;
      }
      Item last = r.items().get(r.items().size() - 1).item();
      start =
          new Position(
              table.keySchema().keyOf(last),
              last.get("stowage:ix:byA:s") instanceof KeyValue k ? k : null);
    }
  }

  static List<TableEntity> indexRows(TableLayout table) {
    return service.getTableClient(TableNames.indexTable(table.ref())).listEntities().stream()
        .toList();
  }

  static long rowsStartingWith(TableLayout table, String prefix) {
    return indexRows(table).stream().filter(e -> e.getRowKey().startsWith(prefix)).count();
  }

  static void putAll(TableLayout table, List<Item> items) {
    List<WriteOp> ops = new ArrayList<>();
    for (Item i : items) {
      ops.add(new WriteOp.Put(table.keySchema().keyOf(i), i));
    }
    assertThat(driver.batchWrite(table, ops).unprocessed()).isEmpty();
  }

  @Test
  void descendingIndexPagesAreTheSameWithAndWithoutReverseRows() {
    TableLayout plain = layout(SCHEMA, false);
    TableLayout declared = layout(SCHEMA, true);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      // Sort values shared by several items, so the key orders entries of one value.
      items.add(item("p" + (i % 7), i, i % 3 == 0 ? "y" : "x", "b" + (i % 11)));
    }
    // A run: long keys equal in the part an entry's RowKey holds, at one sort value.
    String longPrefix = "q".repeat(370) + "-";
    for (int i = 0; i < 9; i++) {
      items.add(item(longPrefix + (i * 37 % 9), i, "x", "b5"));
    }
    for (TableLayout t : List.of(plain, declared)) {
      driver.ensureTable(t);
      putAll(t, items);
    }
    assertThat(rowsStartingWith(plain, "r")).as("no reverse rows").isZero();
    assertThat(rowsStartingWith(declared, "r")).isEqualTo(rowsStartingWith(declared, "k"));
    assertThat(indexRows(plain))
        .as("the run's entries hold the whole key in a property")
        .filteredOn(e -> e.getProperty("_0_k") != null)
        .hasSize(9);
    List<KeyRange> ranges =
        List.of(
            KeyRange.ALL,
            new KeyRange(bin("b2"), true, bin("b6"), false, null),
            new KeyRange(bin("b5"), true, bin("b5"), true, null),
            new KeyRange(null, false, bin("b5"), true, null),
            new KeyRange(bin("b5"), false, null, false, null));
    for (String a : List.of("x", "y", "nobody")) {
      for (KeyRange range : ranges) {
        List<Key> ascending = queryAll(plain, a, range, false, 1000);
        List<Key> reversed = new ArrayList<>(ascending);
        Collections.reverse(reversed);
        assertThat(queryAll(declared, a, range, false, 1000)).isEqualTo(ascending);
        for (int limit : new int[] {1, 2, 3, 7, 100}) {
          for (TableLayout t : List.of(plain, declared)) {
            assertThat(queryAll(t, a, range, true, limit))
                .as("%s, %s, limit %d, reverse rows %s", a, range, limit, t == declared)
                .isEqualTo(reversed);
          }
        }
      }
    }
    assertThat(queryAll(plain, "x", KeyRange.ALL, false, 1000)).hasSize(40 + 9);
  }

  @Test
  void garbageEntriesAboveThePageAreSkippedAndDeleted() {
    TableLayout plain = layout(SCHEMA, false);
    driver.ensureTable(plain);
    putAll(plain, List.of(item("p1", 1, "x", "b1"), item("p2", 1, "x", "b2")));
    // Puts that crash after their entries: entries of items that never were, above the others.
    CRASH_AFTER_ENTRIES.set(true);
    try {
      for (int i = 0; i < 12; i++) {
        Item ghost = item("g" + i, 1, "x", "z" + i);
        assertThatThrownBy(() -> driver.put(plain, ghost, Expectation.ANY, false))
            .hasMessageContaining("simulated crash");
      }
    } finally {
      CRASH_AFTER_ENTRIES.set(false);
    }
    assertThat(indexRows(plain)).hasSize(14);
    QueryResult page =
        driver.query(plain, new DriverQuery("byA", bin("x"), KeyRange.ALL, true, 1, null, true));
    assertThat(page.items()).hasSize(1);
    assertThat(page.items().get(0).item().getString("pk")).isEqualTo("p2");
    assertThat(page.more()).isTrue();
    assertThat(queryAll(plain, "x", KeyRange.ALL, true, 1))
        .containsExactly(
            Key.of(AttributeValue.of("p2"), AttributeValue.of(1)),
            Key.of(AttributeValue.of("p1"), AttributeValue.of(1)));
    assertThat(indexRows(plain)).as("read repair deleted the garbage").hasSize(2);
  }

  @Test
  void tablesCreatedBeforeTheChoiceKeepTheirReverseRows() {
    // The schema records earlier versions wrote for the default spec: with the mirror marker (the
    // version before this choice) and without (the version before mirror rows became a choice).
    for (String suffix : List.of(" mirrors=none", "")) {
      TableLayout table = layout(SCHEMA, false);
      driver.ensureTable(table);
      var data = service.getTableClient(TableNames.dataTable(table.ref()));
      String layout = (String) data.getEntity("meta", "schema").getProperty("layout");
      assertThat(layout).endsWith(" mirrors=none reverse=none");
      String base = layout.substring(0, layout.length() - " mirrors=none reverse=none".length());
      data.upsertEntity(new TableEntity("meta", "schema").addProperty("layout", base + suffix));
      // Another process opens it with the same (default) spec: the record decides.
      try (AzureTablesDriver other = AzureTablesDriver.of(service)) {
        other.openTable(table);
        for (int i = 0; i < 5; i++) {
          other.put(table, item("p" + i, 1, "x", "b" + i), Expectation.ANY, false);
        }
        other.put(table, item("p0", 1, "x", "b9"), Expectation.ANY, false);
        other.delete(
            table, Key.of(AttributeValue.of("p1"), AttributeValue.of(1)), Expectation.ANY, false);
        assertThat(rowsStartingWith(table, "k")).as(suffix).isEqualTo(4);
        assertThat(rowsStartingWith(table, "r")).as(suffix).isEqualTo(4);
        List<Key> ascending = new ArrayList<>();
        for (String pk : List.of("p2", "p3", "p4", "p0")) {
          ascending.add(Key.of(AttributeValue.of(pk), AttributeValue.of(1)));
        }
        List<Key> descending = new ArrayList<>(ascending);
        Collections.reverse(descending);
        assertThat(queryAll(table, "x", KeyRange.ALL, true, 3)).isEqualTo(descending);
        assertThat(queryAll(table, "x", KeyRange.ALL, false, 3)).isEqualTo(ascending);
        if (suffix.isEmpty()) {
          // Mirror rows and reverse rows: a spec declaring descending queries is accepted.
          other.openTable(
              new TableLayout(table.ref(), table.keySchema(), table.indexes(), null, true));
        }
      }
      // The driver that created the table learns the record again when it reopens it.
      driver.openTable(table);
      putAll(table, List.of(item("p7", 1, "x", "b7")));
      assertThat(rowsStartingWith(table, "r")).as(suffix).isEqualTo(5);
      assertThat(rowsStartingWith(table, "k")).as(suffix).isEqualTo(5);
    }
  }

  @Test
  void aTableWithoutReverseRowsRefusesASpecDeclaringDescendingQueries() {
    TableLayout table = layout(SINGLE, false);
    driver.ensureTable(table);
    driver.put(table, singleItem("a"), Expectation.ANY, false);
    TableLayout declared =
        new TableLayout(table.ref(), table.keySchema(), table.indexes(), null, true);
    try (AzureTablesDriver other = AzureTablesDriver.of(service)) {
      for (Runnable open :
          List.<Runnable>of(() -> other.openTable(declared), () -> other.ensureTable(declared))) {
        assertThatThrownBy(open::run)
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("keep no reverse rows")
            .hasMessageContaining("Descending index queries work on it without the declaration");
      }
      other.openTable(table);
      assertThat(other.get(table, Key.of(AttributeValue.of("a")), true)).isPresent();
    }
    assertThat(rowsStartingWith(table, "r")).isZero();
    assertThat(rowsStartingWith(table, "k")).isEqualTo(1);
  }

  static Item singleItem(String pk) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("pk", AttributeValue.of(pk));
    m.put("a", AttributeValue.of("x"));
    m.put("b", AttributeValue.of("y"));
    m.put("stowage:ix:byA:p", AttributeValue.of("x".getBytes(StandardCharsets.UTF_8)));
    m.put("stowage:ix:byA:s", AttributeValue.of("y".getBytes(StandardCharsets.UTF_8)));
    return StoredItems.of(m);
  }
}
