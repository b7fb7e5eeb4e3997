package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.DeleteJob;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
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
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Tables other tools write too. A native write that changes an indexed attribute leaves Stowage's
 * synthesized index values as they were (what a DynamoDB {@code UpdateItem} of {@code status}
 * does); the contracts make exactly that write through the driver, portably: the item as stored,
 * one attribute changed, every {@code stowage:} attribute kept. Index queries must never return
 * such an item for values it no longer has, pages must stay full, and {@link Table#verifyIndexes}
 * must count (in a dry run) and repair stale and missing index values.
 */
abstract class ForeignWriteContracts extends Contract {
  private static final TableSpec SPEC =
      TableSpec.builder("fworders", KeySchema.of("id", AttributeType.STRING))
          .index("byStatus", List.of("status"), List.of("at"))
          .index(
              new IndexSpec(
                  "byTenant", List.of("tenant"), List.of("at"), IndexSpec.Projection.KEYS_ONLY))
          .build();

  private Table orders;
  private TableLayout layout;

  private void open() {
    orders = table(SPEC);
    layout =
        new TableLayout(
            new TableRef(store.namespace(), SPEC.name()),
            SPEC.keySchema(),
            SPEC.indexes().stream().map(IndexLayout::of).toList());
  }

  private static String id(int i) {
    return String.format("o%02d", i);
  }

  private static Item order(int i, String status) {
    return Item.builder()
        .put("id", id(i))
        .put("status", status)
        .put("tenant", "t1")
        .put("at", i)
        .build();
  }

  /** Twelve orders, all PAID, {@code at} 0 to 11. */
  private void putOrders() {
    List<Item> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      all.add(order(i, "PAID"));
    }
    orders.batchPut(all);
  }

  /**
   * What another tool's native update leaves: the stored item with its attributes changed and
   * Stowage's reserved ones (index values included) kept, written conditionally on the version
   * read.
   */
  private void foreignUpdate(int i, Consumer<Map<String, AttributeValue>> change) {
    StoredItem s = driver().get(layout, Key.of(id(i)), true).orElseThrow();
    assertThat(s.item().has(IndexLayout.of(SPEC.indexes().get(0)).partitionAttribute()))
        .as("Stowage wrote index values")
        .isTrue();
    Map<String, AttributeValue> attrs = new LinkedHashMap<>(s.item().attributes());
    change.accept(attrs);
    driver().put(layout, StoredItems.of(attrs), Expectation.token(s.token()), false);
  }

  private void foreignSet(int i, String attribute, AttributeValue value) {
    foreignUpdate(i, a -> a.put(attribute, value));
  }

  private static Query byStatus(String status, int limit) {
    return Query.index("byStatus").partition(str(status)).limit(limit).build();
  }

  private List<String> ids(Query q) {
    return orders.queryAll(q).map(i -> i.getString("id")).toList();
  }

  private List<String> paidExcept(int... left) {
    List<String> out = new ArrayList<>();
    outer:
    for (int i = 0; i < 12; i++) {
      for (int l : left) {
        if (l == i) {
          continue outer;
        }
      }
      out.add(id(i));
    }
    return out;
  }

  @Test
  void aStaleIndexValueIsNeverReturnedAndVerifyIndexesRepairsIt() {
    open();
    putOrders();
    foreignSet(5, "status", str("SHIPPED"));
    foreignSet(9, "status", str("SHIPPED"));
    long staleBefore = store.metrics().staleIndexHits();

    Page page = orders.query(byStatus("PAID", 4));
    List<String> walked = new ArrayList<>();
    while (true) {
      assertThat(page.items()).allMatch(i -> i.getString("status").equals("PAID"));
      page.items().forEach(i -> walked.add(i.getString("id")));
      if (!page.hasAfter()) {
        break;
      }
      assertThat(page.items()).as("every page but the last is full").hasSize(4);
      page = orders.page(page.after().orElseThrow());
    }
    assertThat(walked).containsExactlyElementsOf(paidExcept(5, 9));
    List<String> descending = new ArrayList<>(paidExcept(5, 9));
    java.util.Collections.reverse(descending);
    assertThat(ids(Query.index("byStatus").partition(str("PAID")).limit(3).descending().build()))
        .containsExactlyElementsOf(descending);
    assertThat(store.metrics().staleIndexHits() - staleBefore)
        .as("stale hits are counted")
        .isGreaterThanOrEqualTo(2);
    assertThat(ids(byStatus("SHIPPED", 10))).as("not found under the new value yet").isEmpty();

    MaintenanceJob.Progress dry =
        orders.verifyIndexes(new MaintenanceJob.Options(0, 5, true, null)).run();
    assertThat(dry.done()).isTrue();
    assertThat(dry.scanned()).isEqualTo(12);
    assertThat(dry.stale()).isEqualTo(2);
    assertThat(dry.missing()).isZero();
    assertThat(dry.rewritten()).isEqualTo(2);
    assertThat(ids(byStatus("SHIPPED", 10))).as("a dry run writes nothing").isEmpty();

    List<MaintenanceJob.Progress> reports = new ArrayList<>();
    MaintenanceJob.Progress fixed =
        orders.verifyIndexes(new MaintenanceJob.Options(0, 5, false, reports::add)).run();
    assertThat(fixed.stale()).isEqualTo(2);
    assertThat(fixed.rewritten()).isEqualTo(2);
    assertThat(fixed.skipped()).isZero();
    assertThat(reports).as("a report per page of 5").hasSizeGreaterThanOrEqualTo(3);
    assertThat(reports.get(reports.size() - 1)).isEqualTo(fixed);
    assertThat(orders.queryAll(byStatus("SHIPPED", 10)).toList())
        .containsExactly(
            order(5, "PAID").toBuilder().put("status", "SHIPPED").build(),
            order(9, "PAID").toBuilder().put("status", "SHIPPED").build());
    assertThat(ids(byStatus("PAID", 4))).containsExactlyElementsOf(paidExcept(5, 9));
    MaintenanceJob.Progress again = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(again.stale() + again.missing() + again.rewritten()).isZero();
  }

  @Test
  void missingIndexValuesAreFoundAndFilledIn() {
    open();
    putOrders();
    // Written by a tool that knows nothing of Stowage's index values.
    driver().put(layout, order(20, "SHIPPED"), Expectation.ABSENT, false);
    foreignUpdate(
        3,
        a -> {
          a.put("status", str("SHIPPED"));
          a.remove(IndexLayout.of(SPEC.indexes().get(0)).partitionAttribute());
          a.remove(IndexLayout.of(SPEC.indexes().get(0)).sortAttribute());
        });
    assertThat(orders.get(Key.of(id(20)), ReadOptions.CONSISTENT)).contains(order(20, "SHIPPED"));
    assertThat(ids(byStatus("SHIPPED", 10))).isEmpty();
    assertThat(ids(byStatus("PAID", 5))).containsExactlyElementsOf(paidExcept(3));

    MaintenanceJob.Progress dry =
        orders.verifyIndexes(MaintenanceJob.Options.DEFAULT.asDryRun()).run();
    assertThat(dry.scanned()).isEqualTo(13);
    assertThat(dry.missing()).as("o03 lacks byStatus, o20 every index").isEqualTo(2);
    assertThat(dry.stale()).isZero();

    MaintenanceJob.Progress fixed = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(fixed.missing()).isEqualTo(2);
    assertThat(fixed.rewritten()).isEqualTo(2);
    assertThat(ids(byStatus("SHIPPED", 10))).containsExactly(id(3), id(20));
    assertThat(ids(Query.index("byTenant").partition(str("t1")).limit(5).build()))
        .as("the keys-only index too")
        .contains(id(20))
        .hasSize(13);
  }

  @Test
  void sortValuesAndKeysOnlyIndexesAreCheckedAgainstTheItemToo() {
    open();
    putOrders();
    foreignSet(3, "at", num(100));
    foreignSet(4, "tenant", str("t2"));
    Query early =
        Query.index("byStatus").partition(str("PAID")).sort(SortCondition.lt(num(10))).build();
    Query late =
        Query.index("byStatus").partition(str("PAID")).sort(SortCondition.ge(num(50))).build();
    assertThat(ids(early)).as("o03 now sorts at 100").doesNotContain(id(3)).contains(id(2));
    assertThat(ids(late)).isEmpty();
    Query tenant1 = Query.index("byTenant").partition(str("t1")).limit(5).build();
    List<Item> keysOnly = orders.queryAll(tenant1).toList();
    assertThat(keysOnly)
        .as("o03 sits at its old sort value, o04 in its old partition: both left out")
        .hasSize(10)
        .noneMatch(i -> i.getString("id").equals(id(4)) || i.getString("id").equals(id(3)));
    assertThat(keysOnly)
        .allSatisfy(
            i ->
                assertThat(i.attributes().keySet())
                    .containsExactlyInAnyOrder("id", "tenant", "at"));

    MaintenanceJob.Progress fixed = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(fixed.stale()).isEqualTo(2);
    assertThat(ids(late)).containsExactly(id(3));
    assertThat(ids(early)).doesNotContain(id(3));
    assertThat(ids(Query.index("byTenant").partition(str("t2")).build())).containsExactly(id(4));
  }

  @Test
  void aDeleteJobByIndexLeavesItemsThatNoLongerMatch() {
    open();
    putOrders();
    foreignSet(7, "status", str("SHIPPED"));
    DeleteJob.Progress p =
        orders.deleteWhere(byStatus("PAID", 100), new DeleteJob.Options(0, 5, false, null)).run();
    assertThat(p.deleted()).isEqualTo(11);
    assertThat(orders.get(Key.of(id(7)), ReadOptions.CONSISTENT)).isPresent();
  }
}
