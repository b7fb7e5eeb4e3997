package dev.stowage.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The harness's statistics, with fake sides that advance a fake clock by a known cost per
 * operation, so every round's time and ratio is known exactly.
 */
class AlternatingTest {
  private final long[] now = {0};
  private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

  private Alternating harness(int rounds, Alternating.Blocks blocks) {
    return new Alternating(
        rounds, blocks, () -> now[0], new PrintStream(progress, true, StandardCharsets.UTF_8));
  }

  /** A side whose operations cost {@code micros[r]} in its round {@code r} (one op per round). */
  private Alternating.Side side(String name, double... micros) {
    return new Alternating.Side(name, i -> now[0] += (long) (micros[i] * 1000));
  }

  /** A side that notes each call as its name and number and costs {@code nanos.applyAsLong(i)}. */
  private Alternating.Side recording(String name, List<String> order, IntToLongFunction nanos) {
    return new Alternating.Side(
        name,
        i -> {
          order.add(name + i);
          now[0] += nanos.applyAsLong(i);
        });
  }

  @Test
  void countedRoundsGiveTheMedianOfTheRoundsRatiosAndTheirRange() {
    // One block of one operation per round, no warm-up: side i-th call is round i.
    Alternating a = harness(3, new Alternating.Counted(1, 1, 0));
    Alternating.Rounds r =
        a.measure(
            "put",
            "{items=10}",
            List.of(side("stowage", 20, 30, 10), side("raw", 10, 10, 10), side("half", 5, 5, 5)));

    assertThat(r.micros().get("stowage")).containsExactly(20, 30, 10);
    assertThat(r.median("stowage")).isEqualTo(20);
    String lines =
        r.lines(
            List.of(
                Alternating.Pair.time("put vs raw, met", "stowage", "raw", 2.5),
                Alternating.Pair.time("put vs raw, not met", "stowage", "raw", 1.5),
                Alternating.Pair.time("put vs raw, for reference", "stowage", "raw", Double.NaN),
                new Alternating.Pair(
                    "half vs raw, throughput",
                    "half",
                    "raw",
                    Compare.Kind.THROUGHPUT_AT_LEAST,
                    2)));
    List<String> l = lines.lines().toList();
    assertThat(l).hasSize(4);
    // Ratios 2, 3, 1: median 2, range 1-3; medians of the times 20 and 10.
    assertThat(l.get(0))
        .startsWith("put vs raw, met ")
        .contains("{items=10}")
        .contains(" 20.000 ")
        .contains(" 10.000 us/op ")
        .contains(" 2.000 (1.00-3.00) ")
        .contains("<= 2.5  met  [stowage/anchor time, 3 rounds alternating]");
    assertThat(l.get(1)).contains(" 2.000 (1.00-3.00) ").contains("<= 1.5  NOT met");
    assertThat(l.get(2)).contains("(for reference)").doesNotContain("met");
    assertThat(l.get(3))
        .contains(" 2.000 (2.00-2.00) ")
        .contains(">= 2.0  met  [stowage/anchor throughput");
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("put {items=10} round 2/3: stowage 30.000 us raw 10.000 us half 5.000 us");
  }

  @Test
  void theMedianOfARoundsRatiosIsNotTheRatioOfTheMedians() {
    Alternating.Rounds r =
        harness(4, new Alternating.Counted(1, 1, 0))
            .measure("x", "", List.of(side("s", 1, 2, 8, 8), side("a", 1, 4, 1, 2)));
    // Ratios 1, 0.5, 8, 4: median 2.5; medians of the times 5 and 1.5 would give 3.33.
    assertThat(r.lines(List.of(Alternating.Pair.time("x", "s", "a", 3))))
        .contains(" 2.500 (0.50-8.00) ")
        .contains("<= 3.0  met");
  }

  @Test
  void countedBlocksTakeEachSidesMedianBlockAndRotateTheFirstSide() {
    List<String> order = new ArrayList<>();
    double[] costs = {0, 1, 100, 2}; // a warm-up, then blocks; the second is an outlier
    Alternating.Side s = recording("s", order, i -> (long) (costs[i] * 1000));
    Alternating.Side a = recording("a", order, i -> 1000);
    Alternating.Rounds r =
        harness(1, new Alternating.Counted(3, 1, 1)).measure("x", "", List.of(s, a));
    // Warm-up once, each side in order; then the first side alternates block by block.
    assertThat(order).containsExactly("s0", "a0", "s1", "a1", "a2", "s2", "s3", "a3");
    assertThat(r.micros().get("s")).containsExactly(2);
    assertThat(r.micros().get("a")).containsExactly(1);
  }

  @Test
  void timedBlocksAverageOverTheRoundAndShareOneSequence() {
    List<String> order = new ArrayList<>();
    Alternating.Side s = recording("s", order, i -> 3_000);
    Alternating.Side a = recording("a", order, i -> 1_000);
    // Blocks and warm-ups of 0 ms: every turn is one bunch of 8 operations.
    Alternating.Rounds r = harness(2, new Alternating.Timed(0, 0)).measure("x", "", List.of(s, a));
    assertThat(r.micros().get("s")).containsExactly(3, 3);
    assertThat(r.micros().get("a")).containsExactly(1, 1);
    // Round 1: warm-up s then a, then s first in even blocks; round 2 starts with a.
    assertThat(order.subList(0, 4)).containsExactly("s0", "s1", "s2", "s3");
    assertThat(order.get(16)).isEqualTo("s16");
    assertThat(order.get(24)).isEqualTo("a24");
    int round2 = 16 + 2 * 8 * Alternating.Timed.PAIRS_PER_ROUND;
    assertThat(order.get(round2)).isEqualTo("s" + round2); // warm-up keeps the sides' order
    assertThat(order.get(round2 + 16)).isEqualTo("a" + (round2 + 16)); // first block: a first
    assertThat(order).hasSize(2 * (16 + 2 * 8 * Alternating.Timed.PAIRS_PER_ROUND));
    assertThat(r.lines(List.of(Alternating.Pair.time("x", "s", "a", 3.0))))
        .contains(" 3.000 (3.00-3.00) ")
        .contains("<= 3.0  met");
    assertThat(r.median("s")).isCloseTo(3, Offset.offset(1e-12));
  }

  @Test
  void sidesNeedDistinctNamesAndRoundsAtLeastOne() {
    assertThatThrownBy(
            () ->
                harness(1, new Alternating.Counted(1, 1, 0))
                    .measure("x", "", List.of(side("s", 1), side("s", 1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> harness(0, new Alternating.Counted(1, 1, 0)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cpuTimedBlocksCountTheThreadsCpuTimeNotTimeSpentAsleep() throws Exception {
    Alternating a = Alternating.cpuTimed(1, new Alternating.Timed(2, 0));
    long[] sleeps = {0};
    Alternating.Rounds r =
        a.measure(
            "cpu",
            "",
            List.of(
                new Alternating.Side(
                    "sleeper",
                    i -> {
                      if (i % 256 == 0) {
                        sleeps[0]++;
                        Thread.sleep(1);
                      }
                    }),
                new Alternating.Side("spinner", i -> Math.sqrt(i))));
    // Every bunch of 256 operations of the sleeper sleeps 1 ms: by the wall clock each of its
    // operations would take at least 3.9 us; by CPU time it takes far less.
    assertThat(sleeps[0]).isPositive();
    assertThat(r.micros().get("sleeper")[0]).isPositive().isLessThan(1.0);
  }

  @Test
  void processTimedBlocksCountWorkDoneOnOtherThreads() throws Exception {
    Alternating a = Alternating.processTimed(1, new Alternating.Timed(5, 0));
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    Alternating.Rounds r =
        a.measure(
            "process",
            "",
            List.of(
                new Alternating.Side(
                    "elsewhere",
                    i -> {
                      // 300 us of another thread's CPU time, waited for asleep.
                      Thread t =
                          new Thread(
                              () -> {
                                long end = threads.getCurrentThreadCpuTime() + 300_000;
                                while (threads.getCurrentThreadCpuTime() < end) {
                                  Math.sqrt(end);
                                }
                              });
                      t.start();
                      t.join();
                    }),
                new Alternating.Side("sleeper", i -> Thread.sleep(1))));
    // The process clock sees the other thread's work, and not the time spent asleep.
    assertThat(r.micros().get("elsewhere")[0]).isGreaterThan(250);
    assertThat(r.micros().get("sleeper")[0]).isLessThan(r.micros().get("elsewhere")[0] / 2);
  }
}
