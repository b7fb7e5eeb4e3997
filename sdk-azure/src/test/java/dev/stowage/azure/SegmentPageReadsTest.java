package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.KeySchema;
import dev.stowage.azure.internal.TransactionMeter;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What reading a segment costs: the entities Azurite returns (counted in the client's pipeline,
 * from the response bodies) and the listing requests, for page limits that divide the segment,
 * equal it, and lie around Azure's 1,000-entity page. A page reads the entities it returns and
 * nothing more, and the next page starts after them: the segment's entities are read once each, and
 * every item comes back exactly once.
 */
class SegmentPageReadsTest {
  static final KeySchema SCHEMA =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);
  static final int ITEMS = 6000;
  static final int PARTITIONS = 60;

  static final ListingCounter COUNTER = new ListingCounter(false);
  static final AtomicInteger LISTINGS = COUNTER.listings;
  static final AtomicInteger ENTITIES = COUNTER.entities;
  static final AtomicInteger SHORT_PAGES = COUNTER.shortPages;

  static AzureTablesDriver driver;
  static TableLayout table;

  @BeforeAll
  static void start() {
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            .addPolicy(COUNTER)
            .buildClient();
    driver = new AzureTablesDriver(service, WriteStep.Hook.NONE, new TransactionMeter());
    table = Layouts.layout("reads", SCHEMA);
    driver.ensureTable(table);
    int perPartition = ITEMS / PARTITIONS;
    for (int p = 0; p < PARTITIONS; p++) {
      List<WriteOp> ops = new ArrayList<>();
      for (int s = 0; s < perPartition; s++) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("pk", AttributeValue.of(String.format("part-%03d", p)));
        m.put("sk", AttributeValue.of(s));
        m.put("v", AttributeValue.of("value " + p + "/" + s));
        Item item = StoredItems.of(m);
        ops.add(new WriteOp.Put(SCHEMA.keyOf(item), item));
      }
      assertThat(driver.batchWrite(table, ops).unprocessed()).isEmpty();
    }
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  /** The whole table as one segment, read in pages of {@code limit}: pk/sk of each item. */
  static List<String> readWhole(int limit, List<Integer> pageSizes) {
    ScanSegment whole = driver.segments(table, null, 1).get(0);
    List<String> seen = new ArrayList<>();
    String checkpoint = null;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("the segment ends").isLessThan(ITEMS + 2);
      SegmentPage page = driver.scanSegment(table, new SegmentScan(whole, limit, checkpoint, true));
      assertThat(page.items().size()).isLessThanOrEqualTo(limit);
      pageSizes.add(page.items().size());
      for (StoredItem i : page.items()) {
        seen.add(i.item().getString("pk") + "/" + i.item().getNumber("sk").longValue());
      }
      if (page.done()) {
        return seen;
      }
      checkpoint = page.checkpoint();
    }
  }

  static List<String> all() {
    List<String> out = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (int s = 0; s < ITEMS / PARTITIONS; s++) {
        out.add(String.format("part-%03d", p) + "/" + s);
      }
    }
    return out;
  }

  /** Reads the segment in pages of {@code limit}; checks coverage and the entities read. */
  static void check(int limit) {
    LISTINGS.set(0);
    ENTITIES.set(0);
    List<Integer> sizes = new ArrayList<>();
    List<String> seen = readWhole(limit, sizes);
    int listings = LISTINGS.get();
    int entities = ENTITIES.get();
    System.out.printf(
        "segment of %d items, pages of %d: %d pages, %d listings, %d entities read%n",
        ITEMS, limit, sizes.size(), listings, entities);
    assertThat(seen).as("every item exactly once, in order").isEqualTo(all());
    // Each Azure page holds at most 1,000 entities; a page of the segment needs at most
    // ceil(limit / 1000) of them, and the segment one more, empty, when its last page is full.
    int pages = (ITEMS + limit - 1) / limit;
    assertThat(sizes.subList(0, pages - 1)).as("full pages").allMatch(n -> n == limit);
    assertThat(entities)
        .as("entities read for %d items in pages of %d", ITEMS, limit)
        .isEqualTo(ITEMS);
    assertThat(listings)
        .as("listing requests in pages of %d", limit)
        .isLessThanOrEqualTo(pages * ((limit + 999) / 1000) + 1);
  }

  @Test
  void pagesOf999() {
    check(999);
  }

  @Test
  void pagesOf1000() {
    check(1000);
  }

  @Test
  void pagesOf1001() {
    check(1001);
  }

  @Test
  void pagesOf2000() {
    check(2000);
  }

  @Test
  void pagesThatDivideTheSegment() {
    check(1500);
  }

  @Test
  void onePageExactlyTheSegment() {
    check(ITEMS);
  }

  @Test
  void smallPages() {
    check(37);
  }

  /**
   * Azure may end a page before {@code $top} with a continuation token (its time and partition
   * server limits): a segment page reads on until it is full, still reading each entity once.
   */
  @Test
  void azurePagesCutShortAreReadOn() {
    SHORT_PAGES.set(300);
    try {
      LISTINGS.set(0);
      ENTITIES.set(0);
      List<Integer> sizes = new ArrayList<>();
      List<String> seen = readWhole(1000, sizes);
      System.out.printf(
          "segment of %d items, pages of 1000, Azure pages of 300: %d pages, %d listings, %d"
              + " entities read%n",
          ITEMS, sizes.size(), LISTINGS.get(), ENTITIES.get());
      assertThat(seen).as("every item exactly once, in order").isEqualTo(all());
      assertThat(sizes.subList(0, 5)).allMatch(n -> n == 1000);
      assertThat(ENTITIES.get()).isEqualTo(ITEMS);
      assertThat(LISTINGS.get()).isEqualTo(6 * 4);
    } finally {
      SHORT_PAGES.set(0);
    }
  }
}
