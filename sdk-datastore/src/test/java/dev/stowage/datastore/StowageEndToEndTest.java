package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Update;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Stowage's core over this driver: multi-column index paging with cursors, updates, values. */
class StowageEndToEndTest {
  static Stowage stowage;
  static Table orders;

  @BeforeAll
  static void setUp() {
    stowage =
        Stowage.builder(DatastoreDriver.of(Emulators.shared().datastore().client()))
            .blobStore(
                GcsBlobStore.of(LocalStorageHelper.getOptions().getService(), "blobs", "e2e"))
            .namespace("e2e" + Long.toString(System.nanoTime() % 1_000_000, 36))
            .build();
    orders =
        stowage.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
                .index(
                    IndexSpec.of(
                        "byTenantStatus", List.of("tenant", "status"), List.of("createdAt", "id")))
                .build());
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      items.add(
          Item.builder()
              .put("id", String.format("o%02d", i))
              .put("tenant", i % 2 == 0 ? "acme" : "globex")
              .put("status", i % 3 == 0 ? "open" : "done")
              .put("createdAt", 1000 - i)
              .build());
    }
    orders.batchPut(items);
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("orders");
    stowage.close();
  }

  private static List<String> pageAll(Query q) {
    List<String> seen = new ArrayList<>();
    Page p = orders.query(q);
    p.items().forEach(i -> seen.add(i.getString("id")));
    // Pages run toward "after" in ascending order and toward "before" in descending order.
    while (q.descending() ? p.hasBefore() : p.hasAfter()) {
      p = orders.page((q.descending() ? p.before() : p.after()).orElseThrow());
      p.items().forEach(i -> seen.add(i.getString("id")));
    }
    return seen;
  }

  @Test
  void multiColumnIndexQueryPagesWithCursorsBothWays() {
    Query.Builder q =
        Query.index("byTenantStatus")
            .partition(AttributeValue.of("acme"), AttributeValue.of("open"))
            .limit(2);
    assertThat(pageAll(q.build())).containsExactly("o24", "o18", "o12", "o06", "o00");
    assertThat(pageAll(q.descending().build())).containsExactly("o00", "o06", "o12", "o18", "o24");
  }

  @Test
  void updatesConditionsAndExactValues() {
    Item updated =
        orders.update(
            Key.of("o01"), Update.builder().increment("views", 2).set("status", "open").build());
    assertThat(updated.getLong("views")).isEqualTo(2);
    assertThat(orders.putIfAbsent(Item.builder().put("id", "o01").build())).isFalse();
    assertThat(
            orders.queryAll(
                Query.index("byTenantStatus")
                    .partition(AttributeValue.of("globex"), AttributeValue.of("open"))
                    .limit(100)
                    .build()))
        .extracting(i -> i.getString("id"))
        .contains("o01");
    Item exact =
        Item.builder()
            .put("id", "exact")
            .put("price", new BigDecimal("19.990000000000000000000000000000000001"))
            .put(
                "tags",
                AttributeValue.map(
                    Map.of(
                        "set", AttributeValue.stringSet("a", "b"),
                        "nested", AttributeValue.list(AttributeValue.list()))))
            .put("empty", "")
            .build();
    orders.put(exact);
    assertThat(orders.get(Key.of("exact"))).contains(exact);
  }
}
