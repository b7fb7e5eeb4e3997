package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import dev.stowage.usage.UsageTracking;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Usage tracking and hot keys see the backend's real requests: rankings of the table and of an
 * index Stowage maintains, counts of items and requests, capacity units, and the cost-driven
 * overflow threshold moving items the backend would take.
 */
abstract class UsageContracts extends Contract {
  private static final TableSpec EVENTS =
      TableSpec.builder(
              "usage_events", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
          .index("byRegion", List.of("region"), List.of())
          .build();

  private Stowage tracked() {
    return kit()
        .storeBuilder(kit().freshNamespace())
        .usageTracking(UsageTracking.defaults())
        .build();
  }

  @Test
  void hotKeysAndUsageCountWhatTheBackendWasAsked() {
    Stowage s = tracked();
    Table t = table(s, EVENTS);
    List<Item> cold = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      t.put(Item.builder().put("p", "hot").put("s", i).put("region", "eu").build());
      cold.add(
          Item.builder()
              .put("p", "cold-" + i)
              .put("s", 0)
              .put("region", i < 10 ? "us" : "ap")
              .build());
    }
    t.batchPut(cold);
    t.batchGet(List.of(Key.of("hot", 1), Key.of("hot", 2), Key.of("cold-3", 0)));
    assertThat(t.query(Query.partition(AttributeValue.of("hot")).build()).items()).hasSize(30);
    assertThat(t.query(Query.index("byRegion").partition(AttributeValue.of("us")).build()).items())
        .hasSize(10);

    UsageSnapshot u = s.usage();
    HotKeys table = u.hotKeys(s.namespace(), "usage_events").orElseThrow();
    // 30 puts, 2 keys of the batch get, 1 query; exact while counters are free (31 keys < 100).
    assertThat(table.byRequests().get(0)).isEqualTo(new HotKey("hot", 33, 0));
    assertThat(table.byBytes().get(0).key()).isEqualTo("hot");
    HotKeys index = u.hotKeys(s.namespace(), "usage_events", "byRegion").orElseThrow();
    // Writes count on the index partition they go to; the index query on its partition.
    assertThat(index.byRequests())
        .containsExactly(new HotKey("eu", 30, 0), new HotKey("ap", 20, 0), new HotKey("us", 11, 0));

    TableUsage usage = u.table(s.namespace(), "usage_events").orElseThrow();
    assertThat(usage.itemsWritten()).isEqualTo(60);
    assertThat(usage.queries()).isGreaterThanOrEqualTo(2);
    assertThat(usage.itemsRead()).isGreaterThanOrEqualTo(3 + 30 + 10);
    // Each small item costs a unit for itself and one for the index it is written to.
    assertThat(usage.writeUnits()).isGreaterThanOrEqualTo(120);
    assertThat(usage.bytesWritten()).isPositive();
    assertThat(usage.peakWriteUnitsPerSecond()).isPositive();
    assertThat(usage.throttled()).isZero();
    t.scan(Scan.all());
    assertThat(s.usage().table(s.namespace(), "usage_events").orElseThrow().scans()).isPositive();
  }

  @Test
  void overflowAboveMovesItemsTheBackendWouldTakeAndReadsThemBack() {
    Stowage s = tracked();
    // The threshold sits 4 KB above what a small item counts in the backend's size model (Azure
    // counts a fixed entity overhead of several KB), so only the 20 KB item is over it.
    var sizes = driver().limits().sizeModel();
    Item small = Item.builder().put("p", "small").put("data", "tiny").build();
    long threshold = sizes.itemBytes(small) + 4096;
    TableSpec spec =
        TableSpec.builder("usage_docs", KeySchema.of("p", AttributeType.STRING))
            .overflowAbove(threshold)
            .build();
    Table t = table(s, spec);
    byte[] data = new byte[20_000];
    new Random(5).nextBytes(data);
    Item big = Item.builder().put("p", "big").put("data", Bytes.wrap(data)).build();
    long bigInlineUnits = (sizes.itemBytes(big) + 1023) / 1024;
    t.put(big);
    t.put(small);
    TableUsage usage = s.usage().table(s.namespace(), "usage_docs").orElseThrow();
    assertThat(usage.blobPuts()).isEqualTo(1);
    assertThat(usage.blobBytesWritten()).isGreaterThan(20_000);
    // Both pointer and small item cost fewer write units than the big item would inline.
    assertThat(usage.writeUnits()).isLessThan(bigInlineUnits);
    assertThat(t.get(Key.of("big")).orElseThrow().getBinary("data")).isEqualTo(Bytes.wrap(data));
    assertThat(t.get(Key.of("small")).orElseThrow().getString("data")).isEqualTo("tiny");
    assertThat(s.usage().table(s.namespace(), "usage_docs").orElseThrow().blobGets()).isEqualTo(1);
  }
}
