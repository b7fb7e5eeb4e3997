package dev.stowage.bench;

import java.util.concurrent.Callable;

/**
 * Azurite's CPU time per item in a turn of {@link CrossBackendCeilings}, read from /proc for the
 * Azurite processes this JVM started.
 */
final class AzuriteCpu {
  private AzuriteCpu() {}

  /**
   * {@code turn}, recording the CPU time Azurite's processes (children of this JVM) spent during
   * it, per item, into {@code cpu[round]} (measured rounds only). Azurite serves every request on
   * one Node.js thread, so its CPU per item is what bounds any client writing into it, and unlike
   * elapsed time it hardly moves with the machine's load. Read from /proc: 0 where it is missing.
   */
  static Callable<Double> recording(Callable<Double> turn, double[] cpu, int round) {
    return () -> {
      long before = ticks();
      double rate = turn.call();
      if (round >= 0) {
        // Clock ticks of 10 ms (USER_HZ 100 on Linux); items per second gives the item count.
        long ticks = ticks() - before;
        cpu[round] = ticks * 10_000.0 / itemsOfTurn;
      }
      return rate;
    };
  }

  /** Items each turn writes (set once from the command line). */
  static int itemsOfTurn = 1;

  static java.util.stream.Stream<ProcessHandle> processes() {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("azurite"));
  }

  private static long ticks() {
    return processes()
        .mapToLong(
            p -> {
              try {
                String stat =
                    java.nio.file.Files.readString(
                        java.nio.file.Path.of("/proc/" + p.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime + stime
              } catch (java.io.IOException | RuntimeException e) {
                return 0;
              }
            })
        .sum();
  }
}
