package dev.stowage.bench;

import java.util.concurrent.Callable;

/**
 * A turn timed in CPU as well: this JVM's process CPU (the client, and DynamoDB Local, which runs
 * inside it) and the Datastore emulator's (a child process, read from /proc through {@link
 * ProcessHandle}), over the turn.
 */
final class CpuTurn implements Callable<Double> {
  private final Callable<Double> turn;
  long jvmNanos;
  long emulatorNanos;

  private CpuTurn(Callable<Double> turn) {
    this.turn = turn;
  }

  static CpuTurn of(Callable<Double> turn) {
    return new CpuTurn(turn);
  }

  long dynamoLocalNanos;

  @Override
  public Double call() throws Exception {
    long j = jvmCpu();
    long e = emulatorCpu();
    long d = dynamoLocalCpu();
    double rate = turn.call();
    jvmNanos = jvmCpu() - j;
    emulatorNanos = emulatorCpu() - e;
    dynamoLocalNanos = dynamoLocalCpu() - d;
    return rate;
  }

  /** This JVM's CPU per item without DynamoDB Local's threads: the client's. */
  double clientMicrosPer(int n) {
    return (jvmNanos - dynamoLocalNanos) / 1e3 / n;
  }

  /**
   * CPU time of DynamoDB Local's threads in this JVM (its Jetty pool and its SQLite thread, which
   * live as long as the emulator).
   */
  private static long dynamoLocalCpu() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t != null
          && (t.getThreadName().startsWith("qtp") || t.getThreadName().startsWith("SQLite"))) {
        long cpu = threads.getThreadCpuTime(t.getThreadId());
        sum += Math.max(0, cpu);
      }
    }
    return sum;
  }

  double jvmMicrosPer(int n) {
    return jvmNanos / 1e3 / n;
  }

  double emulatorMicrosPer(int n) {
    return emulatorNanos / 1e3 / n;
  }

  private static long jvmCpu() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** CPU time of the child processes running the Firestore (Datastore mode) emulator. */
  private static long emulatorCpu() {
    return ProcessHandle.current()
        .descendants()
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .map(c -> c.contains("firestore-emulator") || c.contains("datastore"))
                    .orElse(false))
        .mapToLong(p -> p.info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L))
        .sum();
  }
}
