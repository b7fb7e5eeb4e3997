package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.TransactionMeter;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What paging a table scan, an ascending partition query and an ascending index query costs: the
 * entities Azurite returns to listings (counted in the client's pipeline, from the response bodies;
 * for an index query, the listings of the index table: its hits' items are read apart), for page
 * limits around Azure's 1,000-entity page. A driver page reads the entities it returns and at most
 * one more, its look-ahead to tell whether more follow, so paging reads each entity once plus one
 * per page; every item comes back exactly once, and a page says more follow only if an item does.
 */
@Isolated
class QueryPageReadsTest {
  static final KeySchema SCHEMA = ByAItems.SCHEMA;
  static final IndexSpec BY_A = ByAItems.BY_A;
  static final int ITEMS = 3000;

  static final ListingCounter COUNTER = new ListingCounter(true);
  static final AtomicInteger LISTINGS = COUNTER.listings;
  static final AtomicInteger ENTITIES = COUNTER.entities;
  static final AtomicInteger SHORT_PAGES = COUNTER.shortPages;

  static AzureTablesDriver driver;
  static TableLayout layout;
  static Stowage store;
  static Table table;

  static String b(int n) {
    return String.format("b%05d", n);
  }

  @BeforeAll
  static void start() {
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            .addPolicy(COUNTER)
            .buildClient();
    driver = new AzureTablesDriver(service, WriteStep.Hook.NONE, new TransactionMeter());
    layout = Layouts.layout("pagereads", SCHEMA, BY_A);
    driver.ensureTable(layout);
    List<WriteOp> ops = new ArrayList<>();
    for (int n = 0; n < ITEMS; n++) {
      Map<String, AttributeValue> m = new HashMap<>();
      m.put("pk", AttributeValue.of("P"));
      m.put("sk", AttributeValue.of(n));
      m.put("a", AttributeValue.of("x"));
      m.put("b", AttributeValue.of(b(n)));
      m.put("stowage:ix:byA:p", AttributeValue.of("x".getBytes(StandardCharsets.UTF_8)));
      m.put("stowage:ix:byA:s", AttributeValue.of(b(n).getBytes(StandardCharsets.UTF_8)));
      Item item = StoredItems.of(m);
      ops.add(new WriteOp.Put(SCHEMA.keyOf(item), item));
      if (ops.size() == 100) {
        assertThat(driver.batchWrite(layout, ops).unprocessed()).isEmpty();
        ops.clear();
      }
    }
    store =
        Stowage.builder(AzureTablesDriver.of(service))
            .namespace(Layouts.freshName("pagereads").replace("-", ""))
            .build();
    table = store.ensureTable(TableSpec.builder("feed", SCHEMA).index(BY_A).build());
    List<Item> items = new ArrayList<>();
    for (int n = 0; n < ITEMS; n++) {
      items.add(Item.builder().put("pk", "P").put("sk", n).put("a", "x").put("b", b(n)).build());
      if (items.size() == 100) {
        table.batchPut(items);
        items.clear();
      }
    }
  }

  @AfterAll
  static void stop() {
    store.close();
    driver.close();
  }

  enum Read {
    SCAN,
    QUERY,
    INDEX
  }

  /** One driver page of {@code read} with {@code limit}, after {@code start} (null: the first). */
  static QueryResult driverPage(Read read, int limit, StoredItem start) {
    Key after = start == null ? null : SCHEMA.keyOf(start.item());
    return switch (read) {
      case SCAN -> driver.scan(layout, new DriverScan(limit, after, true));
      case QUERY ->
          driver.query(
              layout,
              new DriverQuery(
                  null,
                  AttributeValue.of("P"),
                  KeyRange.ALL,
                  false,
                  limit,
                  after == null ? null : new Position(after, null),
                  true));
      case INDEX ->
          driver.query(
              layout,
              new DriverQuery(
                  "byA",
                  AttributeValue.of("x".getBytes(StandardCharsets.UTF_8)),
                  KeyRange.ALL,
                  false,
                  limit,
                  after == null
                      ? null
                      : new Position(after, (KeyValue) start.item().get("stowage:ix:byA:s")),
                  true));
    };
  }

  static List<Long> all() {
    List<Long> out = new ArrayList<>();
    for (long n = 0; n < ITEMS; n++) {
      out.add(n);
    }
    return out;
  }

  /**
   * Pages {@code read} through the driver in pages of {@code limit}: the first page reads at most
   * {@code limit + 1} entities, and all pages together the items once each plus one per page.
   */
  static void checkDriver(Read read, int limit) {
    int azurePage = SHORT_PAGES.get() > 0 ? SHORT_PAGES.get() : 1000;
    // An index page's hits are read from the item table (BatchReads); what is counted here is the
    // read of the index itself.
    COUNTER.onlyTable = read == Read.INDEX ? TableNames.indexTable(layout.ref()) : null;
    LISTINGS.set(0);
    ENTITIES.set(0);
    List<Long> seen = new ArrayList<>();
    StoredItem start = null;
    int pages = 0;
    int firstPage = -1;
    for (; ; pages++) {
      assertThat(pages).as("the read ends").isLessThan(ITEMS + 2);
      QueryResult r = driverPage(read, limit, start);
      if (firstPage < 0) {
        firstPage = ENTITIES.get();
      }
      r.items().forEach(s -> seen.add(s.item().getNumber("sk").longValue()));
      if (!r.more()) {
        pages++;
        break;
      }
      assertThat(r.items()).as("a %s page that says more follow is full", read).hasSize(limit);
      start = r.items().get(r.items().size() - 1);
    }
    System.out.printf(
        "driver %s, %d items, pages of %d: first page read %d entities; %d pages, %d listings,"
            + " %d entities read%n",
        read, ITEMS, limit, firstPage, pages, LISTINGS.get(), ENTITIES.get());
    assertThat(seen).as("every item exactly once, in order").isEqualTo(all());
    assertThat(firstPage)
        .as("entities read for the first %s page of %d", read, limit)
        .isLessThanOrEqualTo(Math.min(limit + 1, ITEMS));
    assertThat(ENTITIES.get())
        .as("entities read for %d items in %s pages of %d", ITEMS, read, limit)
        .isLessThanOrEqualTo(ITEMS + pages);
    assertThat(LISTINGS.get())
        .as("listing requests in %s pages of %d", read, limit)
        .isLessThanOrEqualTo(pages * ((limit + azurePage) / azurePage));
  }

  /**
   * Pages {@code read} through the public API in pages of {@code limit} (the core asks the driver
   * for one item more than the page, to know whether another page follows): the items once each,
   * plus a few per page.
   */
  static void checkTable(Read read, int limit) {
    COUNTER.onlyTable =
        read == Read.INDEX
            ? TableNames.indexTable(new TableRef(table.namespace(), table.spec().name()))
            : null;
    LISTINGS.set(0);
    ENTITIES.set(0);
    Function<String, Page> next =
        cursor ->
            cursor != null
                ? table.page(cursor)
                : switch (read) {
                  case SCAN -> table.scan(Scan.all().withLimit(limit));
                  case QUERY -> table.query(Query.partition("P").limit(limit).build());
                  case INDEX ->
                      table.query(
                          Query.index("byA")
                              .partition(AttributeValue.of("x"))
                              .limit(limit)
                              .build());
                };
    List<Long> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      assertThat(pages).as("the read ends").isLessThan(ITEMS + 2);
      Page p = next.apply(cursor);
      pages++;
      p.items().forEach(i -> seen.add(i.getNumber("sk").longValue()));
      // A query's last page still has an after cursor, to poll for items added later.
      cursor = p.hasAfter() ? p.after().orElseThrow() : null;
    } while (cursor != null);
    System.out.printf(
        "Table %s, %d items, pages of %d: %d pages, %d listings, %d entities read%n",
        read, ITEMS, limit, pages, LISTINGS.get(), ENTITIES.get());
    assertThat(seen).as("every item exactly once, in order").isEqualTo(all());
    assertThat(ENTITIES.get())
        .as("entities read for %d items in %s pages of %d", ITEMS, read, limit)
        .isLessThanOrEqualTo(ITEMS + 2 * pages);
  }

  @Test
  void driverScanPages() {
    for (int limit : new int[] {999, 1000, 1001, 2000, 37}) {
      checkDriver(Read.SCAN, limit);
    }
  }

  @Test
  void driverQueryPages() {
    for (int limit : new int[] {999, 1000, 1001, 2000, 37}) {
      checkDriver(Read.QUERY, limit);
    }
  }

  @Test
  void driverIndexPages() {
    for (int limit : new int[] {999, 1000, 1001, 2000, 37}) {
      checkDriver(Read.INDEX, limit);
    }
  }

  /**
   * Azure may end a page before {@code $top} with a continuation token: a driver page reads on
   * until it is full, still reading each entity once, and one past it.
   */
  @Test
  void azurePagesCutShortAreReadOn() {
    SHORT_PAGES.set(300);
    try {
      for (Read read : Read.values()) {
        checkDriver(read, 1000);
        // 300 + 300 + 300 + 101 entities for each page of 1,000 and its look-ahead.
        assertThat(LISTINGS.get()).as("%s: 3 pages of 4 Azure pages each", read).isEqualTo(12);
      }
    } finally {
      SHORT_PAGES.set(0);
    }
  }

  /**
   * The items an index page's hits name are read together: hits in one item partition, with one
   * range read of the item table between the lowest and highest (not a point read each).
   */
  @Test
  void anIndexPageReadsItsHitsItemsWithOneRangeRead() {
    COUNTER.onlyTable = TableNames.dataTable(layout.ref());
    LISTINGS.set(0);
    ENTITIES.set(0);
    try {
      QueryResult r = driverPage(Read.INDEX, 100, null);
      assertThat(r.items()).hasSize(100);
      assertThat(LISTINGS.get()).as("range reads of the item table").isEqualTo(1);
      assertThat(ENTITIES.get()).as("item entities read").isEqualTo(100);
    } finally {
      COUNTER.onlyTable = null;
    }
  }

  @Test
  void tablePages() {
    for (Read read : Read.values()) {
      for (int limit : new int[] {999, 1000, 500}) {
        checkTable(read, limit);
      }
    }
  }
}
