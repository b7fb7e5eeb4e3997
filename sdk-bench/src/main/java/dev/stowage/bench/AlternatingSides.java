package dev.stowage.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times several sides of a comparison (more than the two {@link Alternating} takes: Stowage with
 * and without a blob store against one anchor) in one JVM, in alternating blocks of a fixed number
 * of operations, so that load on a shared machine (or an emulator's own pauses) moves every side
 * alike: each round runs every side for a block of operations, in an order that rotates from block
 * to block, and takes each side's median block. A ratio is computed per round (side ÷ anchor); the
 * report gives the median of the rounds' per-operation times, the median ratio and the lowest and
 * highest round's ratio. Not thread-safe.
 */
final class AlternatingSides {
  /** One side: a name and an operation (the {@code i}-th call of this side). */
  record Side(String name, Op op) {}

  /** One operation of a side. */
  interface Op {
    void run(int i) throws Exception;
  }

  /** One comparison to report: {@code side} against {@code anchor}. */
  record Ratio(String title, String side, String anchor, double target) {}

  private final List<Side> sides = new ArrayList<>();
  private final int rounds;
  private final int blocks;
  private final int opsPerBlock;
  private final Map<String, double[]> perRound = new LinkedHashMap<>();
  private final int[] calls;

  AlternatingSides(List<Side> sides, int rounds, int blocks, int opsPerBlock) {
    this.sides.addAll(sides);
    this.rounds = rounds;
    this.blocks = blocks;
    this.opsPerBlock = opsPerBlock;
    this.calls = new int[sides.size()];
  }

  /** Warms every side up, then measures {@code rounds} rounds. */
  AlternatingSides run(int warmupOps) throws Exception {
    for (int s = 0; s < sides.size(); s++) {
      for (int i = 0; i < warmupOps; i++) {
        sides.get(s).op().run(calls[s]++);
      }
    }
    for (Side side : sides) {
      perRound.put(side.name(), new double[rounds]);
    }
    for (int r = 0; r < rounds; r++) {
      double[][] blockTimes = new double[sides.size()][blocks];
      for (int b = 0; b < blocks; b++) {
        for (int k = 0; k < sides.size(); k++) {
          int s = (b + k) % sides.size();
          long start = System.nanoTime();
          for (int i = 0; i < opsPerBlock; i++) {
            sides.get(s).op().run(calls[s]++);
          }
          blockTimes[s][b] = (System.nanoTime() - start) / 1e3 / opsPerBlock;
        }
      }
      for (int s = 0; s < sides.size(); s++) {
        perRound.get(sides.get(s).name())[r] = median(blockTimes[s]);
      }
      StringBuilder line = new StringBuilder();
      for (Side x : sides) {
        line.append(String.format(Locale.ROOT, " %s %.0f us", x.name(), perRound.get(x.name())[r]));
      }
      System.err.printf(Locale.ROOT, "round %d/%d:%s%n", r + 1, rounds, line);
    }
    return this;
  }

  /** Lines in the format of {@link Compare}'s round summaries. */
  List<String> report(List<Ratio> ratios) {
    List<String> out = new ArrayList<>();
    for (Ratio q : ratios) {
      double[] a = perRound.get(q.side());
      double[] b = perRound.get(q.anchor());
      double[] r = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        r[i] = a[i] / b[i];
      }
      double med = median(r);
      double lo = Arrays.stream(r).min().orElse(Double.NaN);
      double hi = Arrays.stream(r).max().orElse(Double.NaN);
      String verdict =
          Double.isNaN(q.target())
              ? "(for reference)"
              : String.format(
                  Locale.ROOT, "<= %.2f  %s", q.target(), med <= q.target() ? "met" : "NOT met");
      out.add(
          String.format(
              Locale.ROOT,
              "%-52s %10.1f %10.1f us/op  %6.3f (%.2f-%.2f)  %s",
              q.title(),
              median(a),
              median(b),
              med,
              lo,
              hi,
              verdict));
    }
    return out;
  }

  static String header() {
    return String.format(
        Locale.ROOT,
        "%-52s %10s %10s %-6s %s",
        "comparison",
        "side",
        "anchor",
        "unit",
        " ratio (rounds min-max)  target");
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
