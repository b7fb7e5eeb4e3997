package dev.stowage.azure;

import static dev.stowage.azure.ByAItems.bin;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An index query that runs while a write is between its steps (its new entries written, its item
 * not yet) finds entries whose nonce the item does not carry yet. Its read repair must not take
 * them from the write: once the write ends, the item is in the index at its new place, whatever
 * queries ran in between, for single puts and for batches, on tables with and without reverse rows.
 */
class ReadRepairRaceTest {
  static final KeySchema SCHEMA = ByAItems.SCHEMA;
  static final IndexSpec BY_A = ByAItems.BY_A;

  /** Runs (once) right after a write's new entries are written, before its item is. */
  static final AtomicReference<Runnable> BETWEEN_STEPS = new AtomicReference<>();

  static AzureTablesDriver driver;

  @BeforeAll
  static void start() {
    TableServiceClient service = AzuriteClients.fastRetrying().buildClient();
    driver =
        new AzureTablesDriver(
            service,
            step -> {
              if (step == WriteStep.NEW_ENTRIES_WRITTEN) {
                Runnable r = BETWEEN_STEPS.getAndSet(null);
                if (r != null) {
                  r.run();
                }
              }
            });
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  static TableLayout layout(boolean reverseRows) {
    TableLayout l = Layouts.layout("repair", SCHEMA, BY_A);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, reverseRows);
  }

  static Item item(String pk, String a, String b) {
    return ByAItems.item(pk, 1, a, b);
  }

  /** The pk/b of every item an index query of partition {@code a} returns, both ways. */
  static List<String> query(TableLayout t, String a, boolean descending) {
    return driver
        .query(t, new DriverQuery("byA", bin(a), KeyRange.ALL, descending, 100, null, true))
        .items()
        .stream()
        .map(StoredItem::item)
        .map(i -> i.getString("pk") + "/" + i.getString("b"))
        .toList();
  }

  /** A query in each direction while the write is between its steps. */
  static Runnable queriesOf(TableLayout t, String a) {
    return () -> {
      query(t, a, false);
      query(t, a, true);
    };
  }

  @Test
  void aQueryBetweenTheStepsOfAnOverwriteLeavesTheNewVersionInTheIndex() {
    for (boolean reverseRows : new boolean[] {false, true}) {
      TableLayout t = layout(reverseRows);
      driver.ensureTable(t);
      driver.put(t, item("p1", "x", "b1"), Expectation.ANY, false);
      BETWEEN_STEPS.set(queriesOf(t, "x"));
      driver.put(t, item("p1", "x", "b2"), Expectation.ANY, false);
      assertThat(BETWEEN_STEPS.get()).as("the queries ran").isNull();
      assertThat(query(t, "x", false)).as("reverse rows %s", reverseRows).containsExactly("p1/b2");
      assertThat(query(t, "x", true)).as("reverse rows %s", reverseRows).containsExactly("p1/b2");
    }
  }

  @Test
  void aQueryBetweenTheStepsOfACreateLeavesTheNewItemInTheIndex() {
    for (boolean reverseRows : new boolean[] {false, true}) {
      TableLayout t = layout(reverseRows);
      driver.ensureTable(t);
      BETWEEN_STEPS.set(queriesOf(t, "x"));
      driver.put(t, item("p1", "x", "b1"), Expectation.ABSENT, false);
      assertThat(BETWEEN_STEPS.get()).as("the queries ran").isNull();
      assertThat(query(t, "x", false)).as("reverse rows %s", reverseRows).containsExactly("p1/b1");
      assertThat(query(t, "x", true)).as("reverse rows %s", reverseRows).containsExactly("p1/b1");
    }
  }

  @Test
  void aQueryBetweenTheStepsOfABatchLeavesItsItemsInTheIndex() {
    for (boolean reverseRows : new boolean[] {false, true}) {
      TableLayout t = layout(reverseRows);
      driver.ensureTable(t);
      driver.put(t, item("p1", "x", "b1"), Expectation.ANY, false);
      BETWEEN_STEPS.set(queriesOf(t, "x"));
      driver.batchWrite(
          t,
          List.of(
              new WriteOp.Put(SCHEMA.keyOf(item("p1", "x", "b2")), item("p1", "x", "b2")),
              new WriteOp.Put(SCHEMA.keyOf(item("p2", "x", "b3")), item("p2", "x", "b3"))));
      assertThat(BETWEEN_STEPS.get()).as("the queries ran").isNull();
      assertThat(query(t, "x", false))
          .as("reverse rows %s", reverseRows)
          .containsExactly("p1/b2", "p2/b3");
      assertThat(query(t, "x", true))
          .as("reverse rows %s", reverseRows)
          .containsExactly("p2/b3", "p1/b2");
      // The batch met an existing item, so the table's next batch reads the versions it replaces
      // first (and names them in its entries from what that range read returned).
      BETWEEN_STEPS.set(queriesOf(t, "x"));
      driver.batchWrite(
          t,
          List.of(
              new WriteOp.Put(SCHEMA.keyOf(item("p1", "x", "b4")), item("p1", "x", "b4")),
              new WriteOp.Put(SCHEMA.keyOf(item("p2", "x", "b5")), item("p2", "x", "b5")),
              new WriteOp.Put(SCHEMA.keyOf(item("p3", "x", "b6")), item("p3", "x", "b6"))));
      assertThat(BETWEEN_STEPS.get()).as("the queries ran").isNull();
      assertThat(query(t, "x", false))
          .as("reverse rows %s", reverseRows)
          .containsExactly("p1/b4", "p2/b5", "p3/b6");
    }
  }
}
