package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.StowageMetrics.OperationMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Per-table metrics count what was done: requests, items and bytes per operation and index, and,
 * when the store counts capacity, the billable units the backend reports.
 */
abstract class MetricsContracts extends Contract {

  private static TableSpec spec(String name) {
    return TableSpec.builder(
            name, KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .index("byColor", List.of("color"), List.of("s"))
        .build();
  }

  private static Item item(String p, long s, String color) {
    return Item.builder()
        .put("p", p)
        .put("s", s)
        .put("color", color)
        .put("body", "x".repeat(40))
        .build();
  }

  @Test
  void perTableMetricsCountWhatWasDone() {
    // Billable units are counted only when the store asks for capacity metrics.
    store = kit().storeBuilder(kit().freshNamespace()).capacityMetrics(true).build();
    Table t = table(spec("metered"));
    for (int i = 0; i < 5; i++) {
      t.put(item("a", i, i % 2 == 0 ? "red" : "blue"));
    }
    assertThat(t.get(Key.of("a", 0))).isPresent();
    assertThat(t.get(Key.of("a", 1))).isPresent();
    assertThat(t.get(Key.of("a", 9))).isEmpty();
    t.delete(Key.of("a", 4));
    List<Item> batch = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      batch.add(item("b", i, "red"));
    }
    t.batchPut(batch);
    assertThat(t.query(Query.partition("a").limit(100).build()).items()).hasSize(4);
    assertThat(
            t.query(Query.index("byColor").partition(AttributeValue.of("red")).limit(100).build())
                .items())
        .hasSize(6);

    StowageMetrics.TableMetrics m =
        store.metrics().table(store.namespace(), "metered").orElseThrow();
    OperationMetrics put = m.operation("put");
    assertThat(put.requests()).as("puts sent").isEqualTo(5);
    assertThat(put.itemsWritten()).isEqualTo(5);
    assertThat(put.bytesWritten()).as("bytes of the items put").isGreaterThan(5 * 40);
    assertThat(put.throttled() + put.errors() + put.conflicts()).isZero();
    assertThat(put.totalLatency()).isGreaterThan(Duration.ZERO);
    OperationMetrics get = m.operation("get");
    assertThat(get.requests()).as("gets sent").isEqualTo(3);
    assertThat(get.itemsRead()).as("items found").isEqualTo(2);
    assertThat(get.bytesRead()).isGreaterThan(2 * 40);
    OperationMetrics delete = m.operation("delete");
    assertThat(delete.requests()).isEqualTo(1);
    assertThat(delete.itemsWritten()).isEqualTo(1);
    OperationMetrics batchWrite = m.operation("batchWrite");
    assertThat(batchWrite.requests()).isPositive();
    assertThat(batchWrite.itemsWritten()).isEqualTo(4);
    OperationMetrics query = m.operation("query");
    assertThat(query.requests()).isPositive();
    assertThat(query.itemsRead()).isEqualTo(4);
    OperationMetrics byColor = m.operation("query", "byColor").orElseThrow();
    assertThat(byColor.requests()).isPositive();
    assertThat(byColor.itemsRead()).as("index hits returned").isEqualTo(6);
    assertThat(m.requests())
        .isEqualTo(m.operations().stream().mapToLong(OperationMetrics::requests).sum());
    assertThat(m.throttled()).isZero();
    assertThat(m.retries()).isZero();

    if (List.of("dynamodb", "datastore", "azure").contains(store.backend())) {
      StowageMetrics.CapacityMetrics units = m.totalCapacity();
      assertThat(units.writeUnits())
          .as("billable write units of %s", store.backend())
          .isGreaterThanOrEqualTo(5 + (store.backend().equals("azure") ? 1 : 4));
      assertThat(units.readUnits()).as("billable read units").isPositive();
      assertThat(units.deleteUnits()).as("billable delete units").isPositive();
    }
  }

  @Test
  void withoutCapacityMetricsNoBillableUnitsAreCounted() {
    Table t = table(spec("unbilled"));
    t.put(item("a", 1, "red"));
    assertThat(t.get(Key.of("a", 1))).isPresent();
    t.delete(Key.of("a", 1));
    StowageMetrics.TableMetrics m =
        store.metrics().table(store.namespace(), "unbilled").orElseThrow();
    assertThat(m.operation("put").requests()).as("requests are counted").isEqualTo(1);
    assertThat(m.capacity()).as("no billable units without capacityMetrics").isEmpty();
    assertThat(m.totalCapacity().readUnits() + m.totalCapacity().writeUnits()).isZero();
  }

  @Test
  void withoutTableMetricsOnlyTheStoreCountersAreKept() {
    Stowage plain = kit().storeBuilder(kit().freshNamespace()).tableMetrics(false).build();
    Table t = table(plain, spec("plain"));
    t.put(item("a", 1, "red"));
    assertThat(t.get(Key.of("a", 1))).isPresent();
    StowageMetrics metrics = plain.metrics();
    assertThat(metrics.writes()).isPositive();
    assertThat(metrics.table(plain.namespace(), "plain").orElseThrow().operations()).isEmpty();
  }
}
