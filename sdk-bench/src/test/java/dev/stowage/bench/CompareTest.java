package dev.stowage.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The arithmetic behind the comparison table's several-round lines. */
class CompareTest {
  @Test
  void medianOfOddAndEvenCounts() {
    assertThat(Compare.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(Compare.median(new double[] {0.8, 1.1, 0.9, 1.0})).isEqualTo(0.95, within());
    assertThat(Compare.median(new double[] {7})).isEqualTo(7);
  }

  @Test
  void medianLeavesItsInputAlone() {
    double[] v = {3, 1, 2};
    Compare.median(v);
    assertThat(v).containsExactly(3, 1, 2);
  }

  @Test
  void eachRoundWritesItsOwnResultFile() {
    assertThat(Compare.roundFile("out/jmh.json", 2)).isEqualTo("out/jmh-round2.json");
    assertThat(Compare.roundFile("out.d/jmh", 3)).isEqualTo("out.d/jmh-round3");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-12);
  }
}
