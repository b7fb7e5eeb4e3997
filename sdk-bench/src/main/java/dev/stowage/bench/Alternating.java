package dev.stowage.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Times Stowage and its anchor in alternating blocks in one JVM, so that load on a shared machine
 * (and an emulator's own state: caches, table size, JIT) moves both sides alike, which separate JMH
 * forks cannot promise. Each round warms both sides up, then runs {@link #BLOCKS} pairs of timed
 * blocks (the side that goes first alternates) and yields each side's mean time per operation; a
 * comparison reports the medians over the rounds, the median of the rounds' ratios and the lowest
 * and highest ratio a round measured, in the format of {@link Compare}.
 *
 * <p>An operation is given its sequence number, so both sides can walk the same sequence of keys or
 * pages. Not thread-safe.
 */
final class Alternating {
  static final int BLOCKS = 6;

  private final int rounds;
  private final long blockNanos;
  private final long warmupNanos;

  /**
   * @param rounds rounds per comparison (at least 1)
   * @param blockMillis length of one timed block of one side
   * @param warmupMillis warm-up of each side before each round
   */
  Alternating(int rounds, long blockMillis, long warmupMillis) {
    this.rounds = rounds;
    this.blockNanos = blockMillis * 1_000_000;
    this.warmupNanos = warmupMillis * 1_000_000;
  }

  /** One comparison's figures: times in microseconds per operation. */
  record Result(
      String title,
      String params,
      double stowageMicros,
      double anchorMicros,
      double ratio,
      double min,
      double max,
      double target,
      int rounds) {
    String line() {
      String verdict =
          Double.isNaN(target)
              ? "(for reference)"
              : "<= " + target + (ratio <= target ? "  met" : "  NOT met");
      return String.format(
          Locale.ROOT,
          "%-52s %-24s %14.3f %14.3f %-8s %7.3f %-17s %s%n",
          title,
          params,
          stowageMicros,
          anchorMicros,
          "us/op",
          ratio,
          String.format(Locale.ROOT, "(%.2f-%.2f)", min, max),
          verdict + "  [stowage/anchor time, " + rounds + " rounds alternating]");
    }
  }

  /** Runs the comparison and returns its figures; prints each round as it ends. */
  Result compare(
      String title, String params, IntConsumer stowage, IntConsumer anchor, double target) {
    double[] s = new double[rounds];
    double[] a = new double[rounds];
    double[] r = new double[rounds];
    int[] seq = {0};
    for (int round = 0; round < rounds; round++) {
      run(stowage, seq, warmupNanos);
      run(anchor, seq, warmupNanos);
      long sNanos = 0, aNanos = 0, sOps = 0, aOps = 0;
      for (int b = 0; b < BLOCKS; b++) {
        boolean stowageFirst = (b + round) % 2 == 0;
        long[] first = run(stowageFirst ? stowage : anchor, seq, blockNanos);
        long[] second = run(stowageFirst ? anchor : stowage, seq, blockNanos);
        long[] st = stowageFirst ? first : second;
        long[] an = stowageFirst ? second : first;
        sNanos += st[0];
        sOps += st[1];
        aNanos += an[0];
        aOps += an[1];
      }
      s[round] = sNanos / 1000.0 / sOps;
      a[round] = aNanos / 1000.0 / aOps;
      r[round] = s[round] / a[round];
      System.out.printf(
          Locale.ROOT,
          "  %s %s round %d: stowage %.3f us, anchor %.3f us, ratio %.3f%n",
          title,
          params,
          round + 1,
          s[round],
          a[round],
          r[round]);
    }
    return new Result(
        title,
        params,
        Compare.median(s),
        Compare.median(a),
        Compare.median(r),
        Arrays.stream(r).min().orElseThrow(),
        Arrays.stream(r).max().orElseThrow(),
        target,
        rounds);
  }

  /** Runs {@code op} for at least {@code nanos}; returns {elapsed nanos, operations}. */
  private static long[] run(IntConsumer op, int[] seq, long nanos) {
    long start = System.nanoTime();
    long end = start + nanos;
    long ops = 0;
    long now;
    do {
      for (int i = 0; i < 8; i++) {
        op.accept(seq[0]++);
      }
      ops += 8;
      now = System.nanoTime();
    } while (now < end);
    return new long[] {now - start, ops};
  }

  /** The table header of {@link Result#line()}. */
  static String header(int rounds) {
    return String.format(
        Locale.ROOT,
        "medians of %d rounds, alternating blocks%n%-52s %-24s %14s %14s %-8s %7s %-17s %s%n",
        rounds,
        "comparison",
        "params",
        "stowage",
        "anchor",
        "unit",
        "ratio",
        "(rounds min-max)",
        "target");
  }

  /** Reads {@code --rounds N}, {@code --block MS}, {@code --warmup MS} and sizes from arguments. */
  static final class Args {
    int rounds = 3;
    long blockMillis = 500;
    long warmupMillis = 1500;
    List<Integer> sizes = new ArrayList<>(List.of(1_000, 10_000, 50_000));

    static Args parse(String[] args) {
      Args a = new Args();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--rounds" -> a.rounds = Integer.parseInt(args[++i]);
          case "--block" -> a.blockMillis = Long.parseLong(args[++i]);
          case "--warmup" -> a.warmupMillis = Long.parseLong(args[++i]);
          case "--sizes" -> {
            a.sizes.clear();
            for (String s : args[++i].split(",")) {
              a.sizes.add(Integer.parseInt(s.trim()));
            }
          }
          default ->
              throw new IllegalArgumentException(
                  "unknown argument "
                      + args[i]
                      + " (--rounds N --block MS --warmup MS --sizes a,b,c)");
        }
      }
      return a;
    }
  }
}
