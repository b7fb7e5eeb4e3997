package dev.stowage.azure;

import static dev.stowage.azure.ByAItems.bin;
import static dev.stowage.azure.ByAItems.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Page boundaries at and inside runs of cut key parts (entries whose RowKeys hold the same cut
 * prefix of long keys, ordered after reading), on tables with and without reverse rows, both ways:
 * every entry once, in order, every page but the last full and the last one saying that nothing
 * follows, so that paging until no more is reported never ends on an empty page. Item queries on
 * tables with and without mirror rows are held to the same rule.
 */
class PagingAtRunsTest {
  static final KeySchema SCHEMA = ByAItems.SCHEMA;
  static final IndexSpec BY_A = ByAItems.BY_A;

  /** Keys this long are cut in an index entry's RowKey; they differ only past the cut. */
  static final String LONG_Q = "q".repeat(370) + "-";

  static final String LONG_R = "r".repeat(370) + "-";
  static final int RUN = 6;
  static final AtomicBoolean CRASH_AFTER_ENTRIES = new AtomicBoolean();
  static final AtomicInteger REQUESTS = new AtomicInteger();
  static TableServiceClient service;
  static AzureTablesDriver driver;

  @BeforeAll
  static void start() {
    HttpPipelinePolicy counter =
        new HttpPipelinePolicy() {
          @Override
          public Mono<HttpResponse> process(
              HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            REQUESTS.incrementAndGet();
            return next.process();
          }
        };
    service = AzuriteClients.fastRetrying().addPolicy(counter).buildClient();
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

  static TableLayout layout(boolean declared) {
    TableLayout l = Layouts.layout("runs", SCHEMA, BY_A);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, declared);
  }

  static KeyValue num(long n) {
    return AttributeValue.of(n);
  }

  /**
   * A run of {@code n} entries at index sort value {@code b}, written in shuffled key order, with
   * sort key values from {@code sk} on (keys are unique across the table's shapes).
   */
  static List<Item> run(String prefix, int n, String a, String b, long sk) {
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(item(prefix + (i * 5 % n), sk + i, a, b));
    }
    return out;
  }

  /**
   * The index partitions of the tests, each a shape of entries around runs: a run alone, a run at
   * the bottom or the top of its partition, a run between others (with short keys at its own sort
   * value, which come before it), and two adjacent runs at one sort value.
   */
  static Map<String, List<Item>> shapes() {
    Map<String, List<Item>> shapes = new LinkedHashMap<>();
    shapes.put("solo", run(LONG_Q, RUN, "solo", "b5", 100));
    List<Item> bottom = new ArrayList<>(run(LONG_Q, RUN, "bottom", "b5", 200));
    bottom.add(item("p1", 200, "bottom", "b7"));
    bottom.add(item("p2", 200, "bottom", "b8"));
    shapes.put("bottom", bottom);
    List<Item> top = new ArrayList<>(run(LONG_Q, RUN, "top", "b5", 300));
    top.add(item("p1", 300, "top", "b2"));
    top.add(item("p2", 300, "top", "b3"));
    shapes.put("top", top);
    List<Item> mid = new ArrayList<>(run(LONG_Q, RUN, "mid", "b5", 400));
    mid.add(item("p1", 400, "mid", "b3"));
    mid.add(item("p1", 401, "mid", "b5"));
    mid.add(item("p2", 400, "mid", "b5"));
    mid.add(item("p3", 400, "mid", "b7"));
    shapes.put("mid", mid);
    List<Item> pair = new ArrayList<>(run(LONG_Q, 4, "pair", "b5", 500));
    pair.addAll(run(LONG_R, 3, "pair", "b5", 500));
    shapes.put("pair", pair);
    return shapes;
  }

  static final List<KeyRange> RANGES =
      List.of(
          KeyRange.ALL,
          new KeyRange(bin("b5"), true, bin("b5"), true, null),
          new KeyRange(null, false, bin("b5"), true, null),
          new KeyRange(bin("b5"), true, null, false, null),
          new KeyRange(bin("b3"), false, bin("b7"), false, null),
          new KeyRange(null, false, bin("b5"), false, null),
          new KeyRange(bin("b5"), false, null, false, null));

  /** What a query of {@code a} over {@code range} must return, in ascending order. */
  static List<Key> expected(List<Item> items, KeyRange range) {
    return items.stream()
        .filter(i -> range.contains(bin(i.getString("b"))))
        .sorted(
            Comparator.comparing((Item i) -> i.getString("b")).thenComparing(i -> SCHEMA.keyOf(i)))
        .map(SCHEMA::keyOf)
        .toList();
  }

  static void putAll(TableLayout table, List<Item> items) {
    List<WriteOp> ops = new ArrayList<>();
    for (Item i : items) {
      ops.add(new WriteOp.Put(table.keySchema().keyOf(i), i));
    }
    assertThat(driver.batchWrite(table, ops).unprocessed()).isEmpty();
  }

  /** One driver page of index partition {@code a} (null: the item partition "P"). */
  static QueryResult page(
      TableLayout table, String a, KeyRange range, boolean descending, int limit, Position start) {
    DriverQuery q =
        a == null
            ? new DriverQuery(null, AttributeValue.of("P"), range, descending, limit, start, true)
            : new DriverQuery("byA", bin(a), range, descending, limit, start, true);
    return driver.query(table, q);
  }

  static Position positionOf(StoredItem s, boolean index) {
    Item item = s.item();
    return new Position(
        SCHEMA.keyOf(item), index && item.get("stowage:ix:byA:s") instanceof KeyValue k ? k : null);
  }

  /**
   * Pages until a page says nothing more follows, checking each page as it comes: never more than
   * the limit, full whenever more is said to follow, and never empty after the first.
   */
  static List<Key> strictPages(
      TableLayout table, String a, KeyRange range, boolean descending, int limit, String what) {
    List<Key> out = new ArrayList<>();
    Position start = null;
    for (int n = 0; ; n++) {
      assertThat(n).as("%s: pages", what).isLessThan(100);
      QueryResult r = page(table, a, range, descending, limit, start);
      assertThat(r.items().size()).as("%s: page %d size", what, n).isLessThanOrEqualTo(limit);
      if (n > 0) {
        assertThat(r.items())
            .as("%s: page %d, after a page that said more follow", what, n)
            .isNotEmpty();
      }
      for (StoredItem s : r.items()) {
        out.add(SCHEMA.keyOf(s.item()));
      }
      if (!r.more()) {
        return out;
      }
      assertThat(r.items()).as("%s: page %d says more follow", what, n).hasSize(limit);
      start = positionOf(r.items().get(r.items().size() - 1), a != null);
    }
  }

  static List<Key> inOrder(List<Key> ascending, boolean descending) {
    List<Key> out = new ArrayList<>(ascending);
    if (descending) {
      Collections.reverse(out);
    }
    return out;
  }

  @Test
  void indexPagesAroundRunsSayMoreOnlyWhenMoreFollows() {
    TableLayout plain = layout(false);
    TableLayout declared = layout(true);
    Map<String, List<Item>> shapes = shapes();
    for (TableLayout t : List.of(plain, declared)) {
      driver.ensureTable(t);
      putAll(t, shapes.values().stream().flatMap(List::stream).toList());
    }
    List<TableEntity> plainRows = indexRows(plain);
    assertThat(plainRows).as("no reverse rows").noneMatch(e -> e.getRowKey().startsWith("r"));
    assertThat(plainRows)
        .as("the runs' entries hold their whole key in a property, their RowKeys a cut one")
        .filteredOn(e -> e.getProperty("_0_k") != null)
        .hasSize(4 * RUN + 4 + 3);
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, List<Item>> shape : shapes.entrySet()) {
      for (KeyRange range : RANGES) {
        List<Key> ascending = expected(shape.getValue(), range);
        for (boolean descending : new boolean[] {true, false}) {
          for (int limit = 1; limit <= RUN + 3; limit++) {
            for (TableLayout t : List.of(plain, declared)) {
              String what =
                  String.format(
                      "%s, %s, %s, limit %d, reverse rows %s",
                      shape.getKey(),
                      range,
                      descending ? "descending" : "ascending",
                      limit,
                      t == declared);
              try {
                assertThat(strictPages(t, shape.getKey(), range, descending, limit, what))
                    .as(what)
                    .isEqualTo(inOrder(ascending, descending));
              } catch (AssertionError e) {
                failures.add(e.getMessage().lines().findFirst().orElse(what));
              }
            }
          }
        }
      }
    }
    assertThat(failures).as("page shapes that break the rule").isEmpty();
  }

  @Test
  void itemPagesSayMoreOnlyWhenMoreFollows() {
    for (boolean declared : new boolean[] {false, true}) {
      TableLayout t = layout(declared);
      driver.ensureTable(t);
      List<Item> items = new ArrayList<>();
      for (int i = 1; i <= 7; i++) {
        items.add(item("P", i, "x", "b" + i));
      }
      putAll(t, items);
      List<KeyRange> ranges =
          List.of(
              KeyRange.ALL,
              new KeyRange(num(3), true, num(5), true, null),
              new KeyRange(null, false, num(4), true, null),
              new KeyRange(num(2), false, null, false, null),
              new KeyRange(num(8), true, null, false, null));
      for (KeyRange range : ranges) {
        List<Key> ascending =
            items.stream()
                .map(SCHEMA::keyOf)
                .filter(k -> range.contains(k.sortOrNull()))
                .sorted()
                .toList();
        for (boolean descending : new boolean[] {true, false}) {
          for (int limit = 1; limit <= 9; limit++) {
            String what =
                String.format(
                    "items, %s, %s, limit %d, mirror rows %s",
                    range, descending ? "descending" : "ascending", limit, declared);
            assertThat(strictPages(t, null, range, descending, limit, what))
                .as(what)
                .isEqualTo(inOrder(ascending, descending));
          }
        }
      }
    }
  }

  @Test
  void aDescendingPageThatEndsARunAtTheBottomCostsOneSmallReadToKnowItIsTheLast() {
    TableLayout plain = layout(false);
    driver.ensureTable(plain);
    putAll(plain, run(LONG_Q, RUN, "solo", "b5", 0));
    int limit = RUN / 2;
    QueryResult first = page(plain, "solo", KeyRange.ALL, true, limit, null);
    assertThat(first.items()).hasSize(limit);
    assertThat(first.more()).isTrue();
    Position inside = positionOf(first.items().get(limit - 1), true);
    int before = REQUESTS.get();
    QueryResult second = page(plain, "solo", KeyRange.ALL, true, limit, inside);
    int requests = REQUESTS.get() - before;
    assertThat(second.items()).hasSize(limit);
    assertThat(second.more()).as("nothing lies below the run").isFalse();
    // The rest of the run, one look below it, and the items' point reads.
    assertThat(requests).isEqualTo(1 + 1 + limit);
    // A first page outside any run: one read of the window and the items' point reads.
    putAll(plain, List.of(item("p1", 1, "solo", "b9"), item("p2", 1, "solo", "b8")));
    before = REQUESTS.get();
    QueryResult top = page(plain, "solo", KeyRange.ALL, true, 2, null);
    assertThat(REQUESTS.get() - before).isEqualTo(1 + 2);
    assertThat(top.more()).isTrue();
  }

  /**
   * Entries of items that never were (a put that crashed after writing them) inside a run: skipped
   * and deleted by the pages that meet them, whatever the page size, without losing or repeating an
   * entry. A page whose unread entries beyond it are all garbage may still say more follow (the
   * driver does not read items beyond a page); once repaired, pages keep the rule exactly.
   */
  @Test
  void garbageInsideARunIsSkippedAndDeletedOnPagesThatStartInIt() {
    for (int limit = 1; limit <= RUN + 4; limit++) {
      TableLayout plain = layout(false);
      driver.ensureTable(plain);
      List<Item> items = run(LONG_Q, RUN, "x", "b5", 0);
      putAll(plain, items);
      CRASH_AFTER_ENTRIES.set(true);
      try {
        for (int i = 0; i < 3; i++) {
          Item ghost = item(LONG_Q + (i * 2 + 1) + "g", i, "x", "b5");
          assertThatThrownBy(() -> driver.put(plain, ghost, Expectation.ANY, false))
              .hasMessageContaining("simulated crash");
        }
      } finally {
        CRASH_AFTER_ENTRIES.set(false);
      }
      List<TableEntity> rows = indexRows(plain);
      assertThat(rows).hasSize(RUN + 3);
      assertThat(rows.stream().map(PagingAtRunsTest::runOf))
          .as("one run: the garbage's RowKeys hold the same cut key part as the items'")
          .containsOnly(runOf(rows.get(0)));
      List<Key> descending = inOrder(expected(items, KeyRange.ALL), true);
      List<Key> out = new ArrayList<>();
      Position start = null;
      for (int n = 0; n < 100; n++) {
        QueryResult r = page(plain, "x", KeyRange.ALL, true, limit, start);
        r.items().forEach(s -> out.add(SCHEMA.keyOf(s.item())));
        if (!r.more() || r.items().isEmpty()) {
          break;
        }
        start = positionOf(r.items().get(r.items().size() - 1), true);
      }
      assertThat(out).as("limit %d", limit).isEqualTo(descending);
      assertThat(indexRows(plain)).as("read repair deleted the garbage").hasSize(RUN);
      assertThat(strictPages(plain, "x", KeyRange.ALL, true, limit, "repaired, limit " + limit))
          .isEqualTo(descending);
    }
  }

  static String runOf(TableEntity row) {
    return row.getRowKey().substring(0, row.getRowKey().lastIndexOf('!'));
  }

  /**
   * Through Stowage's own pages and cursors, on a table created without descendingQueries: every
   * page full but the last, which says nothing follows, whatever the page size.
   */
  @Test
  void cursorPagesOverARunEndWithoutAnEmptyPage() {
    try (Stowage store =
        Stowage.builder(AzureTablesDriver.of(service))
            .namespace(Layouts.freshName("runs").replace("-", ""))
            .build()) {
      Table table = store.ensureTable(TableSpec.builder("runs", SCHEMA).index(BY_A).build());
      List<Key> ascending = new ArrayList<>();
      for (int i = 0; i < RUN; i++) {
        String pk = LONG_Q + (i * 5 % RUN);
        table.put(Item.builder().put("pk", pk).put("sk", i).put("a", "x").put("b", "b5").build());
        ascending.add(Key.of(AttributeValue.of(pk), AttributeValue.of(i)));
      }
      Collections.sort(ascending);
      for (boolean descending : new boolean[] {true, false}) {
        for (int limit = 1; limit <= RUN + 1; limit++) {
          List<Key> out = new ArrayList<>();
          Page p =
              table.query(
                  Query.index("byA")
                      .partition(AttributeValue.of("x"))
                      .descending(descending)
                      .limit(limit)
                      .build());
          for (int n = 0; ; n++) {
            assertThat(n).isLessThan(100);
            if (n > 0) {
              assertThat(p.items()).as("limit %d, page %d", limit, n).isNotEmpty();
            }
            p.items().forEach(i -> out.add(SCHEMA.keyOf(i)));
            // Cursors are named by sort order: a descending query goes on before its page.
            if (!(descending ? p.hasBefore() : p.hasAfter())) {
              break;
            }
            assertThat(p.items()).hasSize(limit);
            p = table.page((descending ? p.before() : p.after()).orElseThrow());
          }
          assertThat(out).as("limit %d", limit).isEqualTo(inOrder(ascending, descending));
        }
      }
      store.dropTable("runs");
    }
  }

  static List<TableEntity> indexRows(TableLayout table) {
    return service.getTableClient(TableNames.indexTable(table.ref())).listEntities().stream()
        .toList();
  }
}
