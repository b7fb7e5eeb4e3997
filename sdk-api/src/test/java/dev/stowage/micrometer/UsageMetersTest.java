package dev.stowage.micrometer;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.usage.UsageTracking;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class UsageMetersTest {
  @Test
  void hotKeyGaugesFollowTheTopKAndNeverExceedIt() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Stowage store =
        Stowage.builder(MemoryDriver.create())
            .usageTracking(UsageTracking.builder().topK(3).counters(50).slices(1).build())
            .build()) {
      Table t = store.ensureTable(TableSpec.builder("things", KeySchema.of("id", STRING)).build());
      UsageMeters meters = UsageMeters.bind(store, registry);
      for (int i = 0; i < 40; i++) {
        t.put(Item.builder().put("id", "a").put("n", i).build());
      }
      for (int i = 0; i < 20; i++) {
        t.put(Item.builder().put("id", "b").put("n", i).build());
      }
      for (int i = 0; i < 500; i++) {
        t.put(Item.builder().put("id", "k" + i).build());
      }
      meters.refresh();
      Gauge first =
          registry.find("stowage.hotkey.requests").tags("table", "things", "rank", "1").gauge();
      assertThat(first.getId().getTag("key")).isEqualTo("a");
      assertThat(first.value()).isEqualTo(40);
      assertThat(registry.find("stowage.hotkey.requests").gauges()).hasSize(3);
      // "c" overtakes "a": rank 1 moves to it and "a"'s series goes to rank 2.
      for (int i = 0; i < 100; i++) {
        t.put(Item.builder().put("id", "c").put("n", i).build());
      }
      meters.refresh();
      assertThat(
              registry
                  .find("stowage.hotkey.requests")
                  .tags("rank", "1")
                  .gauge()
                  .getId()
                  .getTag("key"))
          .isEqualTo("c");
      assertThat(registry.find("stowage.hotkey.requests").gauges()).hasSize(3);
      // Requests and bytes hold 3 series each; nothing was throttled, so no throttle series.
      assertThat(meters.hotKeySeries()).isEqualTo(6);
      assertThat(registry.find("stowage.hotkey.throttles").gauges()).isEmpty();
      assertThat(
              registry
                  .find("stowage.capacity.units")
                  .tags("table", "things", "kind", "write")
                  .functionCounter()
                  .count())
          .isEqualTo(660);
    }
  }
}
