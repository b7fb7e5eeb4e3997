package dev.stowage.capacity;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageTracking;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CapacityAdvisorTest {
  private final CapacityAdvisor advisor = new CapacityAdvisor(0.7);

  @Test
  void partitionsFollowThePublishedFormula() {
    assertThat(CapacityAdvisor.partitions(0, 1)).isEqualTo(1);
    assertThat(CapacityAdvisor.partitions(3000, 1000)).isEqualTo(2);
    assertThat(CapacityAdvisor.partitions(0, 3500)).isEqualTo(4);
  }

  @Test
  void recommendsFromDemandAndWarnsBeforeDilution() {
    // A spike asks for 2730 writes/s on a table that never had more than 500 WCU, and 30% of
    // writes go to one key.
    var a = advisor.advise(0, 2730, 0, 500, 0, 500, 0.3);
    assertThat(a.writeUnits()).isEqualTo(3900); // 2730 / 0.7
    assertThat(a.readUnits()).isEqualTo(1); // DynamoDB's minimum
    assertThat(a.partitionsNow()).isEqualTo(1);
    assertThat(a.partitionsAfter()).isEqualTo(4);
    assertThat(a.dilutes()).isTrue();
    assertThat(a.warnings().get(0)).contains("from 1 into 4 partitions").contains("125");
    // Back at 500 WCU the hot key needs 0.3 × 500 × 0.7 = 105 units/s: a 125-unit partition holds
    // it.
    assertThat(a.warnings()).hasSize(1);
    var hotter = advisor.advise(0, 2730, 0, 500, 0, 500, 0.5);
    assertThat(hotter.warnings()).hasSize(2);
    assertThat(hotter.warnings().get(1)).contains("hottest partition key");
    // Within the partitions it already has: no warning.
    var within = advisor.advise(0, 600, 0, 1000, 0, 500, 0.5);
    assertThat(within.dilutes()).isFalse();
    assertThat(within.warnings()).isEmpty();
  }

  @Test
  void observedDemandCountsThrottledRequestsNotJustConsumedCapacity() {
    // A backend that throttles every other write: consumed capacity shows half the demand.
    AtomicLong n = new AtomicLong();
    var throttling =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public WriteResult put(
              TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
            if (n.incrementAndGet() % 2 == 0) {
              throw new ThrottledException("throttled", null);
            }
            return super.put(table, item, expect, returnPrevious);
          }
        };
    try (Stowage store =
        Stowage.builder(throttling)
            .retryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1)))
            .usageTracking(UsageTracking.defaults())
            .build()) {
      Table t = store.ensureTable(TableSpec.builder("tab", KeySchema.of("id", STRING)).build());
      for (int i = 0; i < 600; i++) {
        try {
          t.put(Item.builder().put("id", "k" + i).build());
        } catch (ThrottledException expected) {
          // the application sees half its writes throttled
        }
      }
      TableUsage u = store.usage().table("", "tab").orElseThrow();
      assertThat(u.writeUnits()).isEqualTo(300); // consumed
      // All 600 writes ran within a minute or two: the peak minute holds at least half of them,
      // counted with the throttled ones.
      assertThat(u.peakWriteUnitsPerSecond() * 60).isGreaterThanOrEqualTo(300);
      var advice = advisor.advise(u, store.usage().hotKeys("", "tab"), 0, 5);
      assertThat(advice.writeUnits())
          .isEqualTo((long) Math.ceil(u.peakWriteUnitsPerSecond() / 0.7 - 1e-9));
      assertThat(advice.dilutes()).isFalse();
    }
  }
}
