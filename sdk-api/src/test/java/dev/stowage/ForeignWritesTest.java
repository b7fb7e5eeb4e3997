package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Tables other tools write too: index hits whose item no longer matches are left out of every page
 * (which stays full), counted and repaired by {@link Table#verifyIndexes}.
 */
class ForeignWritesTest {
  private final MemoryDriver driver = MemoryDriver.create();
  private final Stowage store = Stowage.builder(driver).build();
  private final TableSpec spec =
      TableSpec.builder("orders", KeySchema.of("id", STRING))
          .index("byStatus", List.of("status"), List.of("at"))
          .index(
              new IndexSpec(
                  "byTenant", List.of("tenant"), List.of("at"), IndexSpec.Projection.KEYS_ONLY))
          .build();
  private final TableLayout layout =
      new TableLayout(
          new TableRef("", "orders"),
          spec.keySchema(),
          spec.indexes().stream().map(IndexLayout::of).toList());
  private final Table orders = store.ensureTable(spec);

  private static Item order(int i, String status) {
    return Item.builder()
        .put("id", String.format("o%02d", i))
        .put("status", status)
        .put("tenant", "t1")
        .put("at", i)
        .build();
  }

  private static Key key(int i) {
    return Key.of(String.format("o%02d", i));
  }

  /** What a native update leaves: the attribute changed, Stowage's index values as they were. */
  private void foreignWrite(Key key, UnaryOperator<Map<String, AttributeValue>> change) {
    StoredItem s = driver.get(layout, key, true).orElseThrow();
    Map<String, AttributeValue> attrs = change.apply(new LinkedHashMap<>(s.item().attributes()));
    driver.put(layout, StoredItems.of(attrs), Expectation.ANY, false);
  }

  private void foreignSet(Key key, String attribute, AttributeValue value) {
    foreignWrite(
        key,
        a -> {
          a.put(attribute, value);
          return a;
        });
  }

  private static Query byStatus(String status, int limit) {
    return Query.index("byStatus").partition(AttributeValue.of(status)).limit(limit).build();
  }

  private List<String> ids(Query q) {
    return orders.queryAll(q).map(i -> i.getString("id")).toList();
  }

  private void putThirty() {
    for (int i = 0; i < 30; i++) {
      orders.put(order(i, "PAID"));
    }
  }

  @Test
  void staleHitsAreLeftOutAndEveryPageStaysFull() {
    putThirty();
    List<String> paid = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      if (i % 3 == 0) {
        foreignSet(key(i), "status", AttributeValue.of("SHIPPED"));
      } else {
        paid.add(String.format("o%02d", i));
      }
    }
    long before = store.metrics().staleIndexHits();
    Page page = orders.query(byStatus("PAID", 4));
    List<String> walked = new ArrayList<>();
    while (true) {
      page.items().forEach(i -> walked.add(i.getString("id")));
      assertThat(page.items()).allMatch(i -> i.getString("status").equals("PAID"));
      if (!page.hasAfter()) {
        break;
      }
      assertThat(page.items()).as("a page before the last is full").hasSize(4);
      page = orders.page(page.after().orElseThrow());
    }
    assertThat(walked).containsExactlyElementsOf(paid);
    assertThat(store.metrics().staleIndexHits() - before).isGreaterThanOrEqualTo(10);

    // Backwards from the end, through "before" cursors.
    List<String> back = new ArrayList<>();
    Page last = page;
    while (last.hasBefore()) {
      last = orders.page(last.before().orElseThrow());
      List<String> ids = last.items().stream().map(i -> i.getString("id")).toList();
      back.addAll(0, ids);
    }
    List<String> expectedBack = paid.subList(0, paid.size() - page.items().size());
    assertThat(back).containsExactlyElementsOf(expectedBack);

    Query descending =
        Query.index("byStatus").partition(AttributeValue.of("PAID")).limit(3).descending().build();
    List<String> reversed = new ArrayList<>(paid);
    java.util.Collections.reverse(reversed);
    assertThat(ids(descending)).containsExactlyElementsOf(reversed);
    assertThat(ids(byStatus("SHIPPED", 10))).as("not found until repaired").isEmpty();
  }

  @Test
  void sortValuesAndKeysOnlyIndexesAreCheckedToo() {
    putThirty();
    foreignSet(key(3), "at", AttributeValue.of(100));
    foreignSet(key(4), "tenant", AttributeValue.of("t2"));
    Query early =
        Query.index("byStatus")
            .partition(AttributeValue.of("PAID"))
            .sort(SortCondition.lt(AttributeValue.of(10)))
            .build();
    assertThat(ids(early)).doesNotContain("o03").contains("o02", "o04");
    Query late =
        Query.index("byStatus")
            .partition(AttributeValue.of("PAID"))
            .sort(SortCondition.ge(AttributeValue.of(50)))
            .build();
    assertThat(ids(late)).isEmpty();
    Query t1 = Query.index("byTenant").partition(AttributeValue.of("t1")).limit(7).build();
    List<Item> keysOnly = orders.queryAll(t1).toList();
    assertThat(keysOnly)
        .as("o03 sits at its old sort value, o04 in its old partition: both left out")
        .hasSize(28)
        .noneMatch(i -> i.getString("id").equals("o04") || i.getString("id").equals("o03"));
    assertThat(keysOnly.get(0).attributes().keySet())
        .containsExactlyInAnyOrder("id", "tenant", "at");

    MaintenanceJob.Progress fixed = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(fixed.stale()).isEqualTo(2);
    assertThat(ids(late)).containsExactly("o03");
    assertThat(ids(early)).doesNotContain("o03");
    assertThat(
            orders
                .queryAll(Query.index("byTenant").partition(AttributeValue.of("t2")).build())
                .map(i -> i.getString("id"))
                .toList())
        .containsExactly("o04");
  }

  @Test
  void verifyIndexesCountsInADryRunRepairsAndResumes() {
    putThirty();
    for (int i = 0; i < 30; i += 3) {
      foreignSet(key(i), "status", AttributeValue.of("SHIPPED"));
    }
    // Two items another tool wrote without Stowage's index values.
    for (int i = 30; i < 32; i++) {
      driver.put(layout, order(i, "SHIPPED"), Expectation.ANY, false);
    }
    MaintenanceJob.Options small = new MaintenanceJob.Options(0, 5, false, null);
    MaintenanceJob.Progress dry = orders.verifyIndexes(small.asDryRun()).run();
    assertThat(dry.scanned()).isEqualTo(32);
    assertThat(dry.stale()).isEqualTo(10);
    assertThat(dry.missing()).isEqualTo(2);
    assertThat(dry.rewritten()).isEqualTo(12);
    assertThat(dry.skipped()).isZero();
    assertThat(ids(byStatus("SHIPPED", 100))).as("a dry run writes nothing").isEmpty();

    List<MaintenanceJob.Progress> seen = new ArrayList<>();
    RuntimeException stop = new RuntimeException("stop");
    try {
      orders
          .verifyIndexes(
              small.withProgress(
                  p -> {
                    seen.add(p);
                    if (seen.size() == 3) {
                      throw stop;
                    }
                  }))
          .run();
    } catch (RuntimeException e) {
      assertThat(e).isSameAs(stop);
    }
    MaintenanceJob.Progress third = seen.get(2);
    assertThat(third.scanned()).isEqualTo(15);
    MaintenanceJob.Progress last = orders.resumeMaintenance(third.resumeToken(), small).run();
    assertThat(last.done()).isTrue();
    assertThat(last.scanned()).isEqualTo(32);
    assertThat(last.stale()).isEqualTo(10);
    assertThat(last.missing()).isEqualTo(2);
    assertThat(last.rewritten()).isEqualTo(12);

    List<String> shipped = new ArrayList<>();
    for (int i = 0; i < 30; i += 3) {
      shipped.add(String.format("o%02d", i));
    }
    shipped.addAll(List.of("o30", "o31"));
    assertThat(ids(byStatus("SHIPPED", 100))).containsExactlyElementsOf(shipped);
    assertThat(ids(byStatus("PAID", 100))).hasSize(20);
    MaintenanceJob.Progress again = orders.verifyIndexes(small).run();
    assertThat(again.rewritten() + again.stale() + again.missing()).isZero();

    InvalidCursorException wrong =
        catchThrowableOfType(
            InvalidCursorException.class,
            () -> orders.resumeDelete(third.resumeToken(), DeleteJob.Options.DEFAULT));
    assertThat(wrong.reason()).isEqualTo(InvalidCursorException.Reason.WRONG_KIND);
    assertThat(wrong.getMessage()).contains("index-verification");
  }

  @Test
  void aValueNoIndexCanHoldLeavesTheItemOutAndAnOversizedOneIsSkipped() {
    putThirty();
    foreignSet(key(1), "status", AttributeValue.map(Map.of("code", AttributeValue.of("PAID"))));
    String huge = "x".repeat((int) driver.limits().maxIndexedValueBytes() + 1);
    foreignSet(key(2), "status", AttributeValue.of(huge));
    assertThat(ids(byStatus("PAID", 100))).hasSize(28).doesNotContain("o01", "o02");

    MaintenanceJob.Progress p = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(p.done()).isTrue();
    assertThat(p.stale()).isEqualTo(2);
    assertThat(p.rewritten()).isEqualTo(1);
    assertThat(p.skipped()).as("the oversized value cannot be written back").isEqualTo(1);
    StoredItem rewritten = driver.get(layout, key(1), true).orElseThrow();
    assertThat(rewritten.item().has("stowage:ix:byStatus:p")).isFalse();
    assertThat(rewritten.item().has("stowage:ix:byTenant:p")).isTrue();
    assertThat(orders.get(key(1)).orElseThrow().get("status"))
        .isEqualTo(AttributeValue.map(Map.of("code", AttributeValue.of("PAID"))));

    MaintenanceJob.Progress again = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(again.stale()).as("only the oversized item is left").isEqualTo(1);
    assertThat(again.skipped()).isEqualTo(1);
    assertThat(ids(byStatus("PAID", 100))).hasSize(28);
  }

  @Test
  void aDeleteJobByIndexLeavesItemsThatNoLongerMatch() {
    putThirty();
    foreignSet(key(5), "status", AttributeValue.of("SHIPPED"));
    DeleteJob.Progress p =
        orders.deleteWhere(byStatus("PAID", 100), new DeleteJob.Options(0, 7, false, null)).run();
    assertThat(p.deleted()).isEqualTo(29);
    assertThat(orders.get(key(5))).isPresent();
  }

  @Test
  void backfillReportsTheSameFindings() {
    putThirty();
    foreignSet(key(7), "status", AttributeValue.of("SHIPPED"));
    foreignWrite(
        key(8),
        a -> {
          a.remove("stowage:ix:byStatus:p");
          a.remove("stowage:ix:byStatus:s");
          return a;
        });
    MaintenanceJob.Progress p = orders.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(p.stale()).isEqualTo(1);
    assertThat(p.missing()).isEqualTo(1);
    assertThat(p.rewritten()).isEqualTo(2);
    assertThat(ids(byStatus("SHIPPED", 10))).containsExactly("o07");
    assertThat(ids(byStatus("PAID", 100))).hasSize(29).contains("o08");
  }
}
