package dev.stowage.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Runs a raw side's requests on the pool and turns elapsed times into rates. */
final class TimedTasks {
  private TimedTasks() {}

  /** Runs the tasks on the pool at once and waits for all, throwing the first one's failure. */
  static void runAll(ExecutorService pool, List<Callable<Void>> tasks) throws Exception {
    List<Future<Void>> done = new ArrayList<>(tasks.size());
    for (Callable<Void> task : tasks) {
      done.add(pool.submit(task));
    }
    for (Future<Void> f : done) {
      f.get();
    }
  }

  /** The rate of a read of {@code n} items since {@code start}; throws unless it read them all. */
  static double checked(String store, long read, int n, long start) {
    double rate = rate(n, start);
    if (read != n) {
      throw new IllegalStateException("read " + read + " of " + n + " items from " + store);
    }
    return rate;
  }

  /** Items/s of {@code n} items since {@code startNanos}. */
  static double rate(int n, long startNanos) {
    return n / ((System.nanoTime() - startNanos) / 1e9);
  }

  static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
