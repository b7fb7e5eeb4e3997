package dev.stowage.dynamodb;

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
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Update;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The core over this driver: a multi-column index query, cursor paging and native updates. */
class StowageEndToEndTest {
  static Stowage stowage;
  static Table orders;

  @BeforeAll
  static void setUp() {
    Emulators e = Emulators.shared();
    stowage =
        Stowage.builder(DynamoDbDriver.create(e.dynamoDb().client()))
            .blobStore(
                S3BlobStore.builder().client(e.s3().client()).bucket(e.s3().newBucket()).build())
            .namespace("e2e" + Long.toString(System.nanoTime() % 1_000_000, 36))
            .build();
    orders =
        stowage.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
                .index(
                    IndexSpec.of(
                        "byTenantStatus", List.of("tenant", "status"), List.of("createdAt", "id")))
                .build());
    for (int i = 0; i < 30; i++) {
      orders.put(
          Item.builder()
              .put("id", String.format("o%02d", i))
              .put("tenant", i % 2 == 0 ? "acme" : "globex")
              .put("status", i % 3 == 0 ? "open" : "done")
              .put("createdAt", 1000 - i)
              .build());
    }
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("orders");
    stowage.close();
  }

  @Test
  void multiColumnIndexQueryPagesWithCursors() {
    Query q =
        Query.index("byTenantStatus")
            .partition(AttributeValue.of("acme"), AttributeValue.of("open"))
            .limit(2)
            .build();
    List<Item> seen = new ArrayList<>();
    Page p = orders.query(q);
    seen.addAll(p.items());
    while (p.hasAfter()) {
      p = orders.page(p.after().orElseThrow());
      seen.addAll(p.items());
    }
    // i % 6 == 0: o00, o06, o12, o18, o24, ordered by createdAt ascending (1000 - i).
    assertThat(seen)
        .extracting(i -> i.getString("id"))
        .containsExactly("o24", "o18", "o12", "o06", "o00");
    assertThat(seen)
        .allSatisfy(i -> assertThat(i.names()).noneMatch(n -> n.startsWith("stowage:")));
  }

  @Test
  void updatesAndConditionalWritesGoThroughTheDriver() {
    Item updated =
        orders.update(
            Key.of("o01"), Update.builder().increment("views", 2).set("status", "open").build());
    assertThat(updated.getLong("views")).isEqualTo(2);
    assertThat(orders.putIfAbsent(Item.builder().put("id", "o01").build())).isFalse();
    Query q =
        Query.index("byTenantStatus")
            .partition(AttributeValue.of("globex"), AttributeValue.of("open"))
            .limit(100)
            .build();
    assertThat(orders.queryAll(q).map(i -> i.getString("id"))).contains("o01");
  }
}
