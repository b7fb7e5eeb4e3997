package dev.stowage.internal.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpaceSavingTest {
  @Test
  void zipfHeavyHittersAreFoundInOrderWithinTheErrorBound() {
    int counters = 200;
    SpaceSaving<Integer> s = new SpaceSaving<>(counters);
    Map<Integer, Long> exact = new HashMap<>();
    Zipf zipf = new Zipf(50_000, 1.1, 42);
    int n = 300_000;
    for (int i = 0; i < n; i++) {
      int k = zipf.next();
      s.offer(k, 1);
      exact.merge(k, 1L, Long::sum);
      assertThat(s.size()).isLessThanOrEqualTo(counters);
    }
    assertThat(exact.size()).isGreaterThan(10 * counters); // far more keys than counters
    assertThat(s.size()).isEqualTo(counters);
    List<SpaceSaving.Entry<Integer>> top = s.entries();
    // Every counter brackets its key's true count, and the error is within N / m.
    for (SpaceSaving.Entry<Integer> e : top) {
      long truth = exact.getOrDefault(e.key(), 0L);
      assertThat(truth).isBetween(e.count() - e.error(), e.count());
      assertThat(e.error()).isLessThanOrEqualTo(n / counters);
    }
    // Every key heavier than N / m is monitored.
    exact.forEach(
        (k, c) -> {
          if (c > n / counters) {
            assertThat(s.get(k)).as("key %d with %d", k, c).isNotNull();
          }
        });
    // The 10 truly hottest keys are reported first, in their exact order.
    List<Integer> trueTop =
        exact.entrySet().stream()
            .sorted(Map.Entry.<Integer, Long>comparingByValue().reversed())
            .limit(10)
            .map(Map.Entry::getKey)
            .toList();
    assertThat(top.subList(0, 10).stream().map(SpaceSaving.Entry::key).toList()).isEqualTo(trueTop);
  }

  @Test
  void weightsAreExactWhileCountersAreFree() {
    SpaceSaving<String> s = new SpaceSaving<>(3);
    s.offer("a", 10);
    s.offer("b", 5);
    s.offer("a", 7);
    assertThat(s.entries())
        .containsExactly(new SpaceSaving.Entry<>("a", 17, 0), new SpaceSaving.Entry<>("b", 5, 0));
    assertThat(s.floor()).isZero();
    s.offer("c", 1);
    s.offer("d", 2); // evicts c (count 1): d = 1 + 2 with error 1
    assertThat(s.get("c")).isNull();
    assertThat(s.get("d")).isEqualTo(new SpaceSaving.Entry<>("d", 3, 1));
    assertThat(s.total()).isEqualTo(25);
  }

  @Test
  void windowForgetsOldSlicesAndKeepsItsMemoryBound() {
    WindowedTopK<Integer> w = new WindowedTopK<>(50, 6, 60_000);
    Random r = new Random(7);
    // Minute one: key 1 dominates. Minute three: key 2 does.
    for (int i = 0; i < 20_000; i++) {
      w.offer(i % 3 == 0 ? 1 : 100 + r.nextInt(5_000), 1, i * 3L);
    }
    assertThat(w.top(1, 59_999).get(0).key()).isEqualTo(1);
    for (int i = 0; i < 20_000; i++) {
      w.offer(i % 3 == 0 ? 2 : 100 + r.nextInt(5_000), 1, 120_000 + i * 3L);
    }
    var top = w.top(3, 179_999);
    assertThat(top.get(0).key()).isEqualTo(2);
    assertThat(top.stream().map(WindowedTopK.Estimate::key)).doesNotContain(1);
    assertThat(w.counters()).isLessThanOrEqualTo(6 * 50);
    assertThat(w.total(179_999)).isEqualTo(20_000);
  }
}
