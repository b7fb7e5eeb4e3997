package dev.stowage.micrometer;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MicrometerMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Stowage store =
      Stowage.builder(MemoryDriver.create())
          .requestListener(MicrometerMetrics.of(registry))
          .build();
  private final Table users =
      store.ensureTable(TableSpec.builder("users", KeySchema.of("id", STRING)).build());

  @Test
  void timersPerOperationTableAndBackendWithALatencyHistogram() {
    for (int i = 0; i < 5; i++) {
      users.put(Item.builder().put("id", "u" + i).put("name", "n" + i).build());
    }
    users.get(Key.of("u1"));

    Timer puts =
        registry
            .get("stowage.backend.requests")
            .tags("backend", "memory", "target", "table", "table", "users", "namespace", "")
            .tags("operation", "put", "outcome", "ok")
            .timer();
    assertThat(puts.count()).isEqualTo(5);
    assertThat(puts.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
    assertThat(puts.max(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
    assertThat(
            registry
                .get("stowage.backend.requests")
                .tags("operation", "get", "table", "users")
                .timer()
                .count())
        .isEqualTo(1);
    Counter written =
        registry
            .get("stowage.backend.bytes")
            .tags("direction", "written", "table", "users")
            .counter();
    Counter read =
        registry.get("stowage.backend.bytes").tags("direction", "read", "table", "users").counter();
    assertThat(written.count()).isPositive();
    assertThat(read.count()).isPositive().isLessThan(written.count());
  }

  @Test
  void bindRegistersTheStoresCounters() {
    MicrometerMetrics.bind(store, registry);
    users.put(Item.builder().put("id", "a").build());
    users.get(Key.of("a"));
    FunctionCounter reads =
        registry
            .get("stowage.requests")
            .tags("kind", "read", "backend", "memory")
            .functionCounter();
    assertThat(reads.count()).isEqualTo(1);
    assertThat(registry.get("stowage.throttled").functionCounter().count()).isZero();
    assertThat(
            registry.get("stowage.index.stale").tag("backend", "memory").functionCounter().count())
        .isZero();
  }
}
