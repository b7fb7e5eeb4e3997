package dev.stowage.capacity;

/**
 * The simulated table: provisioned write capacity, partitions that split as capacity grows and
 * never merge, and each partition's burst bank. Not thread-safe (one per simulation run).
 */
final class ProvisionedTable {
  /** Write units one partition serves per second, per DynamoDB's published partition formula. */
  static final int UNITS_PER_PARTITION = 1000;

  private final int burstSeconds;
  private int capacity;
  private int partitions;
  private double[] burst;

  ProvisionedTable(int capacity, int partitions, int burstSeconds) {
    this.burstSeconds = burstSeconds;
    this.partitions = Math.max(partitions, partitionsFor(capacity));
    this.capacity = capacity;
    this.burst = new double[this.partitions];
  }

  /** Partitions a table needs for {@code writeUnits} of provisioned write capacity. */
  static int partitionsFor(long writeUnits) {
    return (int) Math.max(1, (writeUnits + UNITS_PER_PARTITION - 1) / UNITS_PER_PARTITION);
  }

  int capacity() {
    return capacity;
  }

  int partitions() {
    return partitions;
  }

  /** Sets the capacity; splits partitions if it needs more (their banks are shared out). */
  void provision(int units) {
    capacity = units;
    int needed = partitionsFor(units);
    if (needed > partitions) {
      double banked = 0;
      for (double b : burst) {
        banked += b;
      }
      burst = new double[needed];
      java.util.Arrays.fill(burst, banked / needed);
      partitions = needed;
    }
  }

  /**
   * One second of {@code writes}: {@code hotShare} of them on partition 0, the rest spread evenly.
   *
   * @return the writes accepted (the rest were throttled)
   */
  double write(double writes, double hotShare) {
    double perPartition = (double) capacity / partitions;
    double spread = writes * (1 - hotShare) / partitions;
    double accepted = 0;
    for (int p = 0; p < partitions; p++) {
      double demand = spread + (p == 0 ? writes * hotShare : 0);
      if (demand <= perPartition) {
        burst[p] = Math.min(burst[p] + (perPartition - demand), perPartition * burstSeconds);
        accepted += demand;
      } else {
        double fromBurst = Math.min(burst[p], demand - perPartition);
        burst[p] -= fromBurst;
        accepted += perPartition + fromBurst;
      }
    }
    return accepted;
  }
}
