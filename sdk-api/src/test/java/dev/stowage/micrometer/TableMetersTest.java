package dev.stowage.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Per-table meters: tagged by table, operation, index, backend; throttles by reason. */
class TableMetersTest {

  /** Throttles the first puts as DynamoDB would for a hot key on an index. */
  static final class ThrottlingDriver extends ForwardingDriver {
    final AtomicInteger throttles;

    ThrottlingDriver(int throttles) {
      super(MemoryDriver.create());
      this.throttles = new AtomicInteger(throttles);
    }

    @Override
    public WriteResult put(TableLayout t, Item item, Expectation e, boolean returnPrevious) {
      if (throttles.getAndDecrement() > 0) {
        ThrottledException.Details d =
            new ThrottledException.Details(
                ThrottledException.Reason.HOT_PARTITION,
                ThrottledException.Access.WRITE,
                "arn:aws:dynamodb:us-east-1:1:table/t/index/byStatus",
                "byStatus",
                null,
                "IndexWriteKeyRangeThroughputExceeded");
        throw new ThrottledException("PutItem: " + d.describe(), null, d, null);
      }
      return super.put(t, item, e, returnPrevious);
    }
  }

  @Test
  void tablesOperationsIndexesAndThrottleReasonsAreMetered() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Stowage store =
        Stowage.builder(new ThrottlingDriver(2))
            .retryPolicy(new RetryPolicy(5, Duration.ofMillis(1), Duration.ofMillis(2)))
            .build();
    MicrometerMetrics.bind(store, registry);
    Table t =
        store.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
                .index("byStatus", List.of("status"), List.of("id"))
                .build());
    t.put(Item.builder().put("id", "a").put("status", "open").build());
    t.put(Item.builder().put("id", "b").put("status", "open").build());
    assertThat(
            t.query(Query.index("byStatus").partition(AttributeValue.of("open")).limit(10).build())
                .items())
        .hasSize(2);

    FunctionTimer puts =
        registry
            .get("stowage.table.requests")
            .tags("table", "orders", "operation", "put", "index", "", "backend", "memory")
            .functionTimer();
    assertThat(puts.count()).as("two puts, two of their attempts throttled").isEqualTo(4);
    assertThat(puts.totalTime(TimeUnit.NANOSECONDS)).isPositive();
    assertThat(
            registry
                .get("stowage.table.failures")
                .tags("table", "orders", "operation", "put", "outcome", "throttled")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("stowage.table.requests")
                .tags("table", "orders", "operation", "query", "index", "byStatus")
                .functionTimer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("stowage.table.items")
                .tags("table", "orders", "operation", "query", "index", "byStatus")
                .tag("direction", "read")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("stowage.table.throttled")
                .tags("table", "orders", "reason", "hot_partition")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry.get("stowage.table.retries").tags("table", "orders").functionCounter().count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("stowage.throttled.reason")
                .tags("reason", "hot_partition")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(registry.find("stowage.table.requests").tags("operation", "delete").meters())
        .as("operations never used get no meters")
        .isEmpty();
  }

  @Test
  void aThrottleOfASingleItemRequestNamesItsPartitionKey() {
    Stowage store = Stowage.builder(new ThrottlingDriver(9)).retryPolicy(RetryPolicy.NONE).build();
    Table t =
        store.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING)).build());
    try {
      t.put(Item.builder().put("id", "hot").build());
    } catch (ThrottledException e) {
      assertThat(e.partitionKey()).contains(AttributeValue.of("hot"));
      assertThat(e.reason()).isEqualTo(ThrottledException.Reason.HOT_PARTITION);
      assertThat(e.getMessage()).contains("partition key").contains("write sharding");
      return;
    }
    throw new AssertionError("the put was not throttled");
  }
}
