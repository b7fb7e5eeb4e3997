package dev.stowage.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The figures of a {@link CrossBackendCeilings} run, per measured round, and what it prints of
 * them: the ratios it takes per round (to the slower side's raw write, to the raw copy) and, after
 * the rounds, the medians and ranges.
 */
final class CeilingFigures {
  /** Items/s of each hop in the documented sequential run (its quieter re-run). */
  private static final double[] BEFORE = {2644, 312, 2400};

  // [hop][round]: migrator, raw copy; [store][round]: raw write into the store, raw read
  final double[][] hop;
  final double[][] copy;
  final double[][] write;
  final double[][] read;
  // raw writes into Azurite of an item row and its index row per item
  final double[] sameRows;
  // hop=N: CPU per item (this JVM, the Datastore emulator) of the migrator, the raw write,
  // Stowage's batchPut and the raw copy
  final double[][] cpu;
  // Azurite's CPU time per item (microseconds) in the migrator's, the same-rows and the raw
  // copy's turns
  final double[] migratorCpu;
  final double[] sameRowsCpu;
  final double[] copyCpu;

  CeilingFigures(int rounds) {
    hop = new double[3][rounds];
    copy = new double[3][rounds];
    write = new double[3][rounds];
    read = new double[3][rounds];
    sameRows = new double[rounds];
    cpu = new double[9][rounds];
    migratorCpu = new double[rounds];
    sameRowsCpu = new double[rounds];
    copyCpu = new double[rounds];
  }

  /**
   * The raw parallel write rates of a store per round: Azurite's of an item and its forward row.
   */
  private static double[] storeWrite(int store, double[][] write, double[] sameRows) {
    return store == 2 ? sameRows : write[store];
  }

  private static String storeWriteName(int store) {
    return store == 2 ? "Azurite, item + forward row" : CrossBackendCeilings.STORES[store];
  }

  /** Per round, the lower of the two sides' rates. */
  static double[] slowerSide(double[] a, double[] b) {
    double[] s = new double[a.length];
    for (int r = 0; r < a.length; r++) {
      s[r] = Math.min(a[r], b[r]);
    }
    return s;
  }

  /** Per round, {@code a / b}. */
  static double[] ratios(double[] a, double[] b) {
    double[] q = new double[a.length];
    for (int r = 0; r < a.length; r++) {
      q[r] = a[r] / b[r];
    }
    return q;
  }

  /** Which store was the slower side, with the rounds it was slower in when that changed. */
  static String slowerSides(double[] source, double[] target, int src, int tgt) {
    int sourceSlower = 0;
    for (int r = 0; r < source.length; r++) {
      if (source[r] <= target[r]) {
        sourceSlower++;
      }
    }
    int rounds = source.length;
    if (sourceSlower == rounds) {
      return storeWriteName(src) + ", the source";
    }
    if (sourceSlower == 0) {
      return storeWriteName(tgt) + ", the target";
    }
    return String.format(
        Locale.ROOT,
        "%s, the source, in %d of %d rounds; %s, the target, in %d",
        storeWriteName(src),
        sourceSlower,
        rounds,
        storeWriteName(tgt),
        rounds - sourceSlower);
  }

  private static String ratioSummary(double[] v) {
    return String.format(
        Locale.ROOT,
        "%.3f (%.2f-%.2f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String micros(double[] v) {
    return String.format(
        Locale.ROOT,
        "%.1f (%.1f-%.1f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }

  private static String summary(double[] v) {
    return String.format(
        Locale.ROOT,
        "%,7.0f (%,.0f-%,.0f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }

  /**
   * Prints round {@code r}'s ratios of each hop (the migrator and the raw copy) to the slower
   * side's raw write (measured rounds only).
   */
  void printSlowerSideRatios(int r, int only) {
    for (int h = 0; h < 3; h++) {
      if (only >= 0 && h != only) {
        continue;
      }
      int src = h;
      int target = (h + 1) % 3;
      double ws = storeWrite(src, write, sameRows)[r - 1];
      double wt = storeWrite(target, write, sameRows)[r - 1];
      double slower = Math.min(ws, wt);
      System.out.printf(
          Locale.ROOT,
          "round %d %-22s / the slower side's raw write (%s, %,.0f items/s): migrator"
              + " %.3f, raw copy %.3f%n",
          r,
          CrossBackendCeilings.HOPS[h],
          ws <= wt ? storeWriteName(src) : storeWriteName(target),
          slower,
          hop[h][r - 1] / slower,
          copy[h][r - 1] / slower);
    }
  }

  /** Prints the medians and ranges over the measured rounds, and the ratios of each hop. */
  void printMedians(int rounds, int n, int parallelism, int only) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "medians of %d rounds, %,d items, parallelism %d (items/s; ranges over the rounds)%n",
        rounds,
        n,
        parallelism);
    for (int s = 0; s < 3; s++) {
      if (only >= 0) {
        if (s == (only + 1) % 3) {
          System.out.printf(
              Locale.ROOT,
              "%-20s raw parallel write %s%n",
              CrossBackendCeilings.STORES[s],
              summary(write[s]));
        } else if (s == only) {
          System.out.printf(
              Locale.ROOT,
              "%-20s raw parallel write %s (into the hop's source%s)%n",
              CrossBackendCeilings.STORES[s],
              summary(storeWrite(s, write, sameRows)),
              s == 2 ? ": item + forward row" : "");
        }
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "%-20s raw parallel write %s   raw parallel read %s%n",
          CrossBackendCeilings.STORES[s],
          summary(write[s]),
          summary(read[s]));
    }
    if (only >= 0) {
      System.out.printf(
          Locale.ROOT,
          "%-22s CPU per item (us; medians, ranges): migrator: JVM %s (without DynamoDB"
              + " Local's threads %s), emulator %s; raw write: JVM %s, emulator %s; raw copy:"
              + " JVM %s, emulator %s%n",
          CrossBackendCeilings.HOPS[only],
          micros(cpu[0]),
          micros(cpu[6]),
          micros(cpu[1]),
          micros(cpu[2]),
          micros(cpu[3]),
          micros(cpu[7]),
          micros(cpu[8]));
      if (only == 0) {
        System.out.printf(
            Locale.ROOT,
            "%-22s CPU per item of Stowage's batchPut into the target (for reference): JVM %s,"
                + " emulator %s%n",
            CrossBackendCeilings.HOPS[only],
            micros(cpu[4]),
            micros(cpu[5]));
      }
    }
    for (int h = 0; h < 3; h++) {
      if (only >= 0 && h != only) {
        continue;
      }
      int src = h;
      int target = (h + 1) % 3;
      double[] ratio = ratios(hop[h], write[target]);
      double m = median(hop[h]);
      if (target == 2) {
        if (AzuriteCpu.processes().findAny().isPresent()) {
          System.out.printf(
              Locale.ROOT,
              "%-22s Azurite CPU per item (us): migrator %s, raw write of the same rows %s, raw"
                  + " copy %s%n",
              CrossBackendCeilings.HOPS[h],
              summary(migratorCpu),
              summary(sameRowsCpu),
              summary(copyCpu));
        }
        System.out.printf(
            Locale.ROOT,
            "%-22s raw write of the rows an indexed table holds (item + forward row) %s; the"
                + " migrator / it %s (for reference)%n",
            CrossBackendCeilings.HOPS[h],
            summary(sameRows),
            ratioSummary(ratios(hop[h], sameRows)));
      }
      System.out.printf(
          Locale.ROOT,
          "%-22s migrator %s = %.2fx the sequential run (target >= 4x: %s); / the target store's"
              + " raw write alone %s (>= 0.8 of the target store alone: %s); 4x the sequential"
              + " run = %,.0f items/s is %.2fx the target's raw write%s%n",
          CrossBackendCeilings.HOPS[h],
          summary(hop[h]),
          m / BEFORE[h],
          m / BEFORE[h] >= 4 ? "met" : "NOT met",
          ratioSummary(ratio),
          median(ratio) >= 0.8 ? "met" : "NOT met",
          4 * BEFORE[h],
          4 * BEFORE[h] / median(write[target]),
          only >= 0
              ? ""
              : String.format(
                  Locale.ROOT, ", %.2fx the source's raw read", 4 * BEFORE[h] / median(read[src])));
      double[] slower =
          slowerSide(storeWrite(src, write, sameRows), storeWrite(target, write, sameRows));
      double[] toSlower = ratios(hop[h], slower);
      System.out.printf(
          Locale.ROOT,
          "%-22s raw copy %s; migrator / raw copy %s (for reference: what a hand-written copy"
              + " reaches on this machine)%n",
          CrossBackendCeilings.HOPS[h],
          summary(copy[h]),
          ratioSummary(ratios(hop[h], copy[h])));
      System.out.printf(
          Locale.ROOT,
          "%-22s / the slower side's raw write %s (%s): migrator %s (target >= 0.8: %s); raw copy"
              + " %s%n",
          CrossBackendCeilings.HOPS[h],
          summary(slower),
          slowerSides(
              storeWrite(src, write, sameRows), storeWrite(target, write, sameRows), src, target),
          ratioSummary(toSlower),
          median(toSlower) >= 0.8 ? "met" : "NOT met",
          ratioSummary(ratios(copy[h], slower)));
    }
  }
}
