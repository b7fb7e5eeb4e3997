package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.query.Query;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What one driver wrote, a second driver on the same file reads, after the first closed. */
class PersistenceTest {
  private static final TableSpec ORDERS =
      TableSpec.builder(
              "orders", KeySchema.of("id", AttributeType.STRING, "line", AttributeType.NUMBER))
          .index("byShop", List.of("shop"), List.of("day"))
          .build();

  private static Stowage store(Path file) {
    return Stowage.builder(LocalDriver.open(file))
        .blobStore(new FileBlobStore(LocalDriver.blobDirectory(file)))
        .namespace("dev")
        .build();
  }

  private static Item order(String id, long line, String shop, String day) {
    return Item.builder().put("id", id).put("line", line).put("shop", shop).put("day", day).build();
  }

  @Test
  void itemsIndexesTablesAndOverflowSurviveAReopen() {
    Path file = TempStores.directory().resolve("nested/dir/store.db");
    String big = "x".repeat(600_000); // over DynamoDB's 400 KB: overflows to the blob directory
    try (Stowage s = store(file)) {
      Table t = s.ensureTable(ORDERS);
      t.put(order("o1", 1, "acme", "2026-01-02"));
      t.put(order("o1", 2, "acme", "2026-01-01"));
      t.put(order("o2", 1, "other", "2026-01-03"));
      t.put(order("o3", 1, "acme", "2026-01-03").toBuilder().put("notes", big).build());
    }
    assertThat(file).exists();
    assertThat(Files.isDirectory(LocalDriver.blobDirectory(file))).isTrue();

    try (Stowage s = store(file)) {
      Table t = s.table(ORDERS); // opens, creating nothing: the table and its index are recorded
      assertThat(t.get(Key.of("o1", 2))).contains(order("o1", 2, "acme", "2026-01-01"));
      assertThat(t.get(Key.of("o3", 1)).orElseThrow().getString("notes")).isEqualTo(big);
      assertThat(t.queryAll(Query.partition("o1").build()).map(i -> i.getLong("line")))
          .containsExactly(1L, 2L);
      assertThat(
              t.queryAll(Query.index("byShop").partition(str("acme")).build())
                  .map(i -> i.getString("day")))
          .containsExactly("2026-01-01", "2026-01-02", "2026-01-03");
      // Conditions see the stored versions.
      assertThat(t.putIfAbsent(order("o1", 1, "x", "y"))).isFalse();
      t.delete(Key.of("o2", 1));
    }

    try (LocalDriver d = LocalDriver.open(file)) {
      Stowage s = Stowage.builder(d).namespace("dev").build();
      assertThat(s.table(ORDERS).get(Key.of("o2", 1))).isEmpty();
      // Another namespace of the same file has no such table.
      assertThatThrownBy(() -> Stowage.builder(d).namespace("prod").build().table(ORDERS))
          .isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void aReopenedTableKeepsItsRecordedLayout() {
    Path file = TempStores.directory().resolve("layout.db");
    try (Stowage s = store(file)) {
      s.ensureTable(ORDERS);
    }
    TableSpec otherKey =
        TableSpec.builder("orders", KeySchema.of("id", AttributeType.NUMBER)).build();
    TableSpec moreIndexes =
        TableSpec.builder(ORDERS.name(), ORDERS.keySchema())
            .index("byShop", List.of("shop"), List.of("day"))
            .nativeIndex("byDay", "days", KeySchema.of("day", AttributeType.STRING))
            .build();
    try (Stowage s = store(file)) {
      assertThatThrownBy(() -> s.table(otherKey))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("key schema");
      assertThatThrownBy(() -> s.table(moreIndexes))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining(
              "index 'byDay' is missing (Stowage.ensureTable adds it and indexes the stored items)");
      s.table(ORDERS).put(order("o1", 1, "acme", "2026-01-02"));
      // Adding a native index fills it from the stored items (an index Stowage maintains is
      // filled by the core's backfill job, as on every backend).
      Table t = s.ensureTable(moreIndexes);
      assertThat(t.queryAll(Query.index("byDay").partition(str("2026-01-02")).build()).count())
          .isEqualTo(1);
    }
  }

  @Test
  void tokensKeepChangingAcrossReopens() {
    Path file = TempStores.directory().resolve("tokens.db");
    TableSpec versioned =
        TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();
    Item doc = Item.builder().put("id", "d").put("n", 1).build();
    try (Stowage s = store(file)) {
      Table t = s.ensureTable(versioned);
      t.put(doc);
      t.delete(Key.of("d"));
    }
    // A token taken before a reopen never matches an item written after it.
    try (LocalDriver d = LocalDriver.open(file)) {
      var layout =
          new dev.stowage.spi.TableLayout(
              new dev.stowage.spi.TableRef("dev", "docs"), versioned.keySchema(), List.of());
      String first = d.put(layout, doc, dev.stowage.spi.Expectation.ANY, false).token();
      d.close();
      try (LocalDriver again = LocalDriver.open(file)) {
        String second = again.put(layout, doc, dev.stowage.spi.Expectation.ANY, false).token();
        assertThat(second).isNotEqualTo(first);
        assertThatThrownBy(
                () -> again.put(layout, doc, dev.stowage.spi.Expectation.token(first), false))
            .isInstanceOf(ConditionFailedException.class);
      }
    }
    try (Stowage s = store(file)) {
      Table t = s.table(versioned);
      assertThat(t.putIfAbsent(doc)).isFalse();
    }
  }

  private static dev.stowage.item.KeyValue str(String s) {
    return dev.stowage.item.AttributeValue.of(s);
  }
}
