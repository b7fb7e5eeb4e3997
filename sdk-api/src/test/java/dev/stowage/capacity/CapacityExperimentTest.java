package dev.stowage.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The auto-scaling experiment reaches the published shape (docs/cost-and-capacity.md). */
class CapacityExperimentTest {
  private static List<CapacityExperiment.Row> rows;

  @BeforeAll
  static void run() {
    rows = new CapacityExperiment(CapacitySimulator.builder().build()).run();
  }

  private static CapacityExperiment.Row row(String pattern, double target) {
    return rows.stream()
        .filter(r -> r.pattern().equals(pattern) && Math.abs(r.target() - target) < 1e-9)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void topHeavyAtEightyPercentRequestCountsSucceedWhereTheControlFails() {
    var r = row("top heavy", 0.8).results();
    SimulationResult control = r.get(0);
    SimulationResult oneMinute = r.get(1);
    SimulationResult requests = r.get(2);
    assertThat(requests.successRate()).isGreaterThanOrEqualTo(0.94);
    assertThat(control.successRate()).isBetween(0.55, 0.80);
    assertThat(requests.successRate() - control.successRate()).isGreaterThan(0.2);
    // Reacting sooner helps, but consumed capacity still holds the scaler back.
    assertThat(oneMinute.successRate()).isBetween(control.successRate(), requests.successRate());
    assertThat(control.throttled()).isGreaterThan(5 * requests.throttled());
  }

  @Test
  void lowTargetsNeverThrottleTheBellCurveAndRequestCountsHoldUpToSeventyPercent() {
    for (double t : List.of(0.3, 0.4, 0.5)) {
      assertThat(row("bell curve", t).results())
          .allSatisfy(s -> assertThat(s.throttled()).isZero());
    }
    for (double t : CapacityExperiment.TARGETS) {
      if (t <= 0.7 + 1e-9) {
        assertThat(row("bell curve", t).results().get(2).throttled()).isZero();
      }
    }
    assertThat(row("bell curve", 0.8).results().get(0).throttled()).isPositive();
  }

  @Test
  void theControlGetsWorseAsTheTargetRises() {
    double previous = 1.0;
    for (double t : CapacityExperiment.TARGETS) {
      double rate = row("top heavy", t).results().get(0).successRate();
      assertThat(rate).isLessThan(previous);
      previous = rate;
    }
  }

  @Test
  void everyWriteIsCountedOnceAndTheTimelineAddsUp() {
    SimulationResult s = row("top heavy", 0.7).results().get(0);
    assertThat(s.timeline()).hasSize(130);
    assertThat(s.timeline().stream().mapToLong(SimulationResult.Minute::requested).sum())
        .isCloseTo(s.requested(), within(130L));
    // 15 minutes at 25/s, a 5-minute climb to 300/s, a 92-minute decline, 18 minutes at 25/s.
    assertThat(s.requested()).isCloseTo(22_500 + 48_750 + 900_000 + 27_000, within(15_000L));
  }

  @Test
  void burstCapacityAbsorbsAShortSpikeAndNoBurstThrottlesIt() {
    TrafficPattern spike = sec -> sec >= 600 && sec < 630 ? 150 : 25;
    var withBurst = CapacitySimulator.builder().minutes(20).build();
    var noBurst = CapacitySimulator.builder().minutes(20).burstSeconds(0).build();
    ScalingPolicy p = ScalingPolicy.consumedAfterFiveMinutes();
    assertThat(withBurst.run(spike, p, 0.7).throttled()).isZero();
    // 30 seconds at 150/s against 50 units: 100 throttled each second.
    assertThat(noBurst.run(spike, p, 0.7).throttled()).isEqualTo(3000);
  }

  @Test
  void aHotKeyIsThrottledByItsPartitionWhenTheTableIsSplit() {
    TrafficPattern steady = sec -> 800;
    ScalingPolicy p = ScalingPolicy.requestsAfterOneMinute();
    var onePartition = CapacitySimulator.builder().minutes(10).initialCapacity(1600).build();
    var split =
        CapacitySimulator.builder()
            .minutes(10)
            .initialCapacity(1600)
            .hotKeyShare(0.5)
            .initialPartitions(4)
            .burstSeconds(0)
            .build();
    // 1600 units make 2 partitions; evenly spread 800/s fits.
    assertThat(onePartition.run(steady, p, 0.8).throttled()).isZero();
    // Diluted to 4 partitions of 400: the hot key's 400/s plus its partition's 100/s share exceed
    // it.
    SimulationResult diluted = split.run(steady, p, 0.8);
    assertThat(diluted.partitions()).isEqualTo(4);
    assertThat(diluted.throttled()).isPositive();
  }
}
