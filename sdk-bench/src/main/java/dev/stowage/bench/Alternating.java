package dev.stowage.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Times the sides of a comparison (Stowage and its anchor, or more: Stowage with and without a blob
 * store against one raw client) in alternating blocks in one JVM, so that load on a shared machine
 * (and an emulator's own state: caches, table size, JIT, pauses) moves every side alike, which
 * separate JMH forks cannot promise. Each round gives every side one time per operation; a {@link
 * Pair} of sides gets a ratio per round, and its line, in the format of {@link Compare}, reports
 * the medians of both sides' per-round times, the median of the rounds' ratios and the lowest and
 * highest round ratio.
 *
 * <p>Blocks are either {@link Timed} (blocks of a fixed length, a warm-up of every side before
 * every round, the mean over the round's blocks) or {@link Counted} (blocks of a fixed number of
 * operations, one warm-up before the first round, the median block). An operation is given a
 * sequence number, so that sides can walk the same sequence of keys or pages. Not thread-safe.
 */
final class Alternating {
  /** One operation of a side: the {@code i}-th of its sequence. */
  interface Op {
    void run(int i) throws Exception;
  }

  /** One side of a comparison: a name (how pairs refer to it) and its operation. */
  record Side(String name, Op op) {}

  /** One compared pair: {@code side} against {@code anchor}, read as {@code kind} says. */
  record Pair(String title, String side, String anchor, Compare.Kind kind, double target) {
    /** A pair whose ratio is the side's time over the anchor's, at most {@code target}. */
    static Pair time(String title, String side, String anchor, double target) {
      return new Pair(title, side, anchor, Compare.Kind.TIME_AT_MOST, target);
    }
  }

  /** How a round times the sides. */
  sealed interface Blocks permits Timed, Counted {}

  /**
   * {@value #PAIRS_PER_ROUND} turns of every side per round, each at least {@code blockMillis}
   * long, after a warm-up of {@code warmupMillis} per side; the side that goes first rotates with
   * every block and round, and all sides draw from one sequence of numbers. A round's figure is the
   * side's total time over its total operations.
   */
  record Timed(long blockMillis, long warmupMillis) implements Blocks {
    static final int PAIRS_PER_ROUND = 6;
  }

  /**
   * {@code blocks} turns of every side per round, each of {@code opsPerBlock} operations, after
   * {@code warmupOps} operations of every side once before the first round; the side that goes
   * first rotates with every block, and each side has its own sequence of numbers. A round's figure
   * is the side's median block.
   */
  record Counted(int blocks, int opsPerBlock, int warmupOps) implements Blocks {}

  /**
   * The per-round figures of one measurement: microseconds per operation of every side, by name.
   */
  record Rounds(String params, Map<String, double[]> micros) {
    /** The median over the rounds of one side's time per operation. */
    double median(String side) {
      return Compare.median(micros.get(side));
    }

    /** One line in the format of {@link Compare} per pair, each ending with a line separator. */
    String lines(List<Pair> pairs) {
      StringBuilder out = new StringBuilder();
      for (Pair p : pairs) {
        double[] s = micros.get(p.side());
        out.append(
            Compare.roundsLine(
                p.title(),
                params,
                s,
                micros.get(p.anchor()),
                "us/op",
                p.kind(),
                p.target(),
                p.kind().label + ", " + s.length + " rounds alternating"));
      }
      return out.toString();
    }
  }

  private final int rounds;
  private final Blocks blocks;
  private final LongSupplier clock;
  private final PrintStream progress;
  private int bunch = 8;

  /**
   * @param rounds rounds per measurement (at least 1)
   * @param blocks how a round times the sides
   */
  Alternating(int rounds, Blocks blocks) {
    this(rounds, blocks, System::nanoTime, System.out);
  }

  /** With a clock in nanoseconds and a stream for a line per round (tests pass their own). */
  Alternating(int rounds, Blocks blocks, LongSupplier clock, PrintStream progress) {
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be at least 1");
    }
    this.rounds = rounds;
    this.blocks = blocks;
    this.clock = clock;
    this.progress = progress;
  }

  int rounds() {
    return rounds;
  }

  /**
   * A harness that times with the calling thread's CPU time instead of the wall clock, reading it
   * every 256 operations (reading it is a system call, about a microsecond, too dear to read every
   * 8): for comparisons that do nothing but compute, on a machine so loaded that waiting for a core
   * would otherwise be most of what a block measures. Time lost to other processes' use of the
   * caches still counts.
   */
  static Alternating cpuTimed(int rounds, Blocks blocks) {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    Alternating a = new Alternating(rounds, blocks, threads::getCurrentThreadCpuTime, System.out);
    a.bunch = 256;
    return a;
  }

  /**
   * A harness that times with the whole process's CPU time (every thread: the client, an emulator
   * running inside the JVM such as DynamoDB Local, and the JVM's own compiler and collector
   * threads): the work an operation causes anywhere in the process, which other processes' load on
   * a shared machine moves far less than elapsed time.
   */
  static Alternating processTimed(int rounds, Blocks blocks) {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (!(os instanceof com.sun.management.OperatingSystemMXBean process)
        || process.getProcessCpuTime() < 0) {
      throw new IllegalStateException("this JVM does not report the process's CPU time");
    }
    return new Alternating(rounds, blocks, process::getProcessCpuTime, System.out);
  }

  /** Two sides, {@code stowage} and {@code anchor}, compared by time against {@code target}. */
  String compare(String title, String params, Op stowage, Op anchor, double target) {
    return measure(title, params, List.of(new Side("stowage", stowage), new Side("anchor", anchor)))
        .lines(List.of(Pair.time(title, "stowage", "anchor", target)));
  }

  /** Measures {@code sides}, printing each round's figures as it ends. */
  Rounds measure(String title, String params, List<Side> sides) {
    Map<String, double[]> micros = new LinkedHashMap<>();
    for (Side side : sides) {
      if (micros.put(side.name(), new double[rounds]) != null) {
        throw new IllegalArgumentException("two sides named " + side.name());
      }
    }
    try {
      if (blocks instanceof Timed t) {
        timed(title, params, t, sides, micros);
      } else {
        counted(title, params, (Counted) blocks, sides, micros);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return new Rounds(params, micros);
  }

  private void timed(
      String title, String params, Timed t, List<Side> sides, Map<String, double[]> micros)
      throws Exception {
    int n = sides.size();
    long blockNanos = t.blockMillis() * 1_000_000;
    long warmupNanos = t.warmupMillis() * 1_000_000;
    int[] seq = {0};
    for (int round = 0; round < rounds; round++) {
      for (Side side : sides) {
        run(side.op(), seq, warmupNanos);
      }
      long[] nanos = new long[n];
      long[] ops = new long[n];
      for (int b = 0; b < Timed.PAIRS_PER_ROUND; b++) {
        for (int k = 0; k < n; k++) {
          int s = (b + round + k) % n;
          long[] took = run(sides.get(s).op(), seq, blockNanos);
          nanos[s] += took[0];
          ops[s] += took[1];
        }
      }
      for (int s = 0; s < n; s++) {
        micros.get(sides.get(s).name())[round] = nanos[s] / 1000.0 / ops[s];
      }
      report(title, params, round, sides, micros);
    }
  }

  /**
   * Runs {@code op} in bunches (of 8, or 256 when timed by CPU time) for at least {@code nanos};
   * returns {elapsed, operations}.
   */
  private long[] run(Op op, int[] seq, long nanos) throws Exception {
    long start = clock.getAsLong();
    long end = start + nanos;
    long ops = 0;
    long now;
    int n = bunch;
    do {
      for (int i = 0; i < n; i++) {
        op.run(seq[0]++);
      }
      ops += n;
      now = clock.getAsLong();
    } while (now < end);
    return new long[] {now - start, ops};
  }

  private void counted(
      String title, String params, Counted c, List<Side> sides, Map<String, double[]> micros)
      throws Exception {
    int n = sides.size();
    int[] calls = new int[n];
    for (int s = 0; s < n; s++) {
      for (int i = 0; i < c.warmupOps(); i++) {
        sides.get(s).op().run(calls[s]++);
      }
    }
    for (int round = 0; round < rounds; round++) {
      double[][] blockMicros = new double[n][c.blocks()];
      for (int b = 0; b < c.blocks(); b++) {
        for (int k = 0; k < n; k++) {
          int s = (b + k) % n;
          long start = clock.getAsLong();
          for (int i = 0; i < c.opsPerBlock(); i++) {
            sides.get(s).op().run(calls[s]++);
          }
          blockMicros[s][b] = (clock.getAsLong() - start) / 1e3 / c.opsPerBlock();
        }
      }
      for (int s = 0; s < n; s++) {
        micros.get(sides.get(s).name())[round] = Compare.median(blockMicros[s]);
      }
      report(title, params, round, sides, micros);
    }
  }

  private void report(
      String title, String params, int round, List<Side> sides, Map<String, double[]> micros) {
    StringBuilder line = new StringBuilder();
    for (Side side : sides) {
      line.append(
          String.format(Locale.ROOT, " %s %.3f us", side.name(), micros.get(side.name())[round]));
    }
    progress.printf(
        Locale.ROOT, "  %s %s round %d/%d:%s%n", title, params, round + 1, rounds, line);
  }

  /** The table header of {@link Rounds#lines} and {@link #compare}. */
  static String header(int rounds) {
    return header(rounds, false);
  }

  /**
   * The table header of {@link Rounds#lines} and {@link #compare}; {@code cpu} says the times are
   * the benchmark thread's CPU time, not elapsed time.
   */
  static String header(int rounds, boolean cpu) {
    return header(rounds, cpu ? "cpu" : "wall");
  }

  /**
   * The table header for times read from {@code clock} ({@code wall}, {@code cpu}, {@code
   * process}).
   */
  static String header(int rounds, String clock) {
    return String.format(
            Locale.ROOT,
            "medians of %d rounds, alternating blocks%s%n",
            rounds,
            switch (clock) {
              case "cpu" -> "; times are the calling thread's CPU time per operation (client side)";
              case "process" ->
                  "; times are the whole process's CPU time per operation (client, in-JVM"
                      + " emulator, JIT and GC)";
              default -> "";
            })
        + Compare.header("(rounds min-max)");
  }

  /**
   * Reads {@code --rounds N}, {@code --block MS}, {@code --warmup MS}, {@code --clock wall|cpu} and
   * sizes ({@code none} for no sizes) from arguments.
   */
  static final class Args {
    int rounds = 3;
    long blockMillis = 500;
    long warmupMillis = 1500;
    boolean cpu;
    boolean process;
    List<Integer> sizes = new ArrayList<>(List.of(1_000, 10_000, 50_000));

    static Args parse(String[] args) {
      Args a = new Args();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--rounds" -> a.rounds = Integer.parseInt(args[++i]);
          case "--block" -> a.blockMillis = Long.parseLong(args[++i]);
          case "--warmup" -> a.warmupMillis = Long.parseLong(args[++i]);
          case "--clock" -> {
            String clock = args[++i];
            a.cpu = clock(clock);
            a.process = clock.equals("process");
          }
          case "--cpu" -> a.cpu = true; // the same as --clock cpu
          case "--sizes" -> {
            a.sizes.clear();
            if (!args[i + 1].equals("none")) {
              for (String s : args[i + 1].split(",")) {
                a.sizes.add(Integer.parseInt(s.trim()));
              }
            }
            i++;
          }
          default ->
              throw new IllegalArgumentException(
                  "unknown argument "
                      + args[i]
                      + " (--rounds N --block MS --warmup MS --clock wall|cpu|process"
                      + " --sizes a,b,c|none)");
        }
      }
      return a;
    }

    private static boolean clock(String name) {
      return switch (name) {
        case "wall" -> false;
        case "cpu" -> true;
        case "process" -> false;
        default ->
            throw new IllegalArgumentException("--clock is wall, cpu or process, not " + name);
      };
    }

    /**
     * A harness of timed blocks as these arguments say: elapsed time, or with {@code --clock cpu}
     * the calling thread's CPU time, with {@code --clock process} the whole process's (blocks and
     * warm-ups then last that much CPU time).
     */
    Alternating harness() {
      Timed blocks = new Timed(blockMillis, warmupMillis);
      if (process) {
        return processTimed(rounds, blocks);
      }
      return cpu ? cpuTimed(rounds, blocks) : new Alternating(rounds, blocks);
    }

    /** The table header for results of {@link #harness()}. */
    String header() {
      return Alternating.header(rounds, process ? "process" : cpu ? "cpu" : "wall");
    }
  }
}
