package dev.stowage.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A deterministic, second-by-second simulation of a provisioned DynamoDB-style table under an auto
 * scaler, to compare {@link ScalingPolicy scaling policies} on a {@link TrafficPattern}.
 *
 * <p>The model (each assumption is a builder setting; docs/cost-and-capacity.md discusses them):
 *
 * <ul>
 *   <li>Every write costs one write unit (items up to 1 KB).
 *   <li>The table has {@code max(1, ceil(capacity / 1000))} partitions (the write part of
 *       DynamoDB's published partition formula), each allowed {@code capacity / partitions} units
 *       per second; a partition is never merged again once split. Writes spread evenly over the
 *       partitions, except a {@linkplain Builder#hotKeyShare hot key}'s share, which all lands on
 *       one partition.
 *   <li>Burst capacity: each partition banks unused units up to {@linkplain Builder#burstSeconds
 *       300 seconds} of its allowance and spends them when writes exceed it.
 *   <li>A write that exceeds what its partition allows is throttled and counted once; the writer
 *       does not retry it (as a load generator sending a fresh batch every second does).
 *   <li>The auto scaler evaluates once a minute, per {@link ScalingPolicy}, with CloudWatch's alarm
 *       semantics: a datapoint breaches when its minute's utilisation (the metric over the capacity
 *       provisioned in that minute) exceeds the target; a capacity change does not reset the alarm,
 *       which invokes the scaling action again every minute it stays in ALARM. A change takes
 *       effect {@linkplain Builder#updateMinutes after the update} and no other is made meanwhile.
 *       It scales in after 15 datapoints of consumed utilisation more than 20 points below the
 *       target, never below the minimum capacity.
 * </ul>
 *
 * <p>Immutable and thread-safe: {@link #run} may be called concurrently.
 */
public final class CapacitySimulator {
  private final int initialCapacity;
  private final int minCapacity;
  private final int burstSeconds;
  private final int minutes;
  private final double hotKeyShare;
  private final int initialPartitions;
  private final int updateMinutes;

  private CapacitySimulator(Builder b) {
    this.initialCapacity = b.initialCapacity;
    this.minCapacity = b.minCapacity;
    this.burstSeconds = b.burstSeconds;
    this.minutes = b.minutes;
    this.hotKeyShare = b.hotKeyShare;
    this.initialPartitions = b.initialPartitions;
    this.updateMinutes = b.updateMinutes;
  }

  /** A simulator with the experiment's settings (see {@link Builder}). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs one simulation.
   *
   * @param traffic the offered writes
   * @param policy how the table scales up
   * @param targetUtilisation the auto scaler's target, above 0 and at most 1 (0.7 for 70%)
   * @return what happened
   */
  public SimulationResult run(
      TrafficPattern traffic, ScalingPolicy policy, double targetUtilisation) {
    Objects.requireNonNull(traffic, "traffic");
    Objects.requireNonNull(policy, "policy");
    if (!(targetUtilisation > 0 && targetUtilisation <= 1)) {
      throw new IllegalArgumentException("target utilisation must be in (0, 1]");
    }
    ProvisionedTable table = new ProvisionedTable(initialCapacity, initialPartitions, burstSeconds);
    AutoScaler scaler = new AutoScaler(policy, targetUtilisation, minCapacity, updateMinutes);
    List<SimulationResult.Minute> timeline = new ArrayList<>(minutes);
    double carry = 0;
    double requested = 0;
    double succeeded = 0;
    int peak = initialCapacity;
    for (int minute = 0; minute < minutes; minute++) {
      int change = scaler.pendingCapacity(minute);
      if (change > 0) {
        table.provision(change);
        peak = Math.max(peak, change);
      }
      double minuteRequests = 0;
      double minuteConsumed = 0;
      for (int s = 0; s < 60; s++) {
        // Whole writes each second; the fraction carries over so rates like 27.5/s stay exact.
        carry += traffic.writesPerSecond(minute * 60L + s);
        double writes = Math.floor(carry);
        carry -= writes;
        minuteRequests += writes;
        minuteConsumed += table.write(writes, hotKeyShare);
      }
      requested += minuteRequests;
      succeeded += minuteConsumed;
      timeline.add(
          new SimulationResult.Minute(
              minute,
              table.capacity(),
              table.partitions(),
              Math.round(minuteRequests),
              Math.round(minuteConsumed)));
      scaler.observe(minute, minuteConsumed / 60, minuteRequests / 60, table.capacity());
    }
    return new SimulationResult(
        policy.name(),
        targetUtilisation,
        Math.round(requested),
        Math.round(succeeded),
        peak,
        table.partitions(),
        timeline);
  }

  /** Configures a simulator; defaults are the experiment's. Not thread-safe. */
  public static final class Builder {
    private int initialCapacity = 50;
    private int minCapacity = 50;
    private int burstSeconds = 300;
    private int minutes = 130;
    private double hotKeyShare = 0;
    private int initialPartitions = 1;
    private int updateMinutes = 0;

    private Builder() {}

    /**
     * Whole minutes a capacity update takes beyond the minute it was decided in; default 0 (in
     * force from the next minute). DynamoDB documents "several minutes" for {@code UpdateTable};
     * with the default 3-minute metric delay, 0 puts 4 minutes between a minute's consumption and
     * the capacity that answers it.
     */
    public Builder updateMinutes(int minutes) {
      if (minutes < 0) {
        throw new IllegalArgumentException("update minutes must not be negative");
      }
      this.updateMinutes = minutes;
      return this;
    }

    /** Write capacity units at the start; default 50. */
    public Builder initialCapacity(int units) {
      this.initialCapacity = positive(units, "initial capacity");
      return this;
    }

    /** The auto scaler's minimum capacity; default 50 (the experiment's starting capacity). */
    public Builder minCapacity(int units) {
      this.minCapacity = positive(units, "minimum capacity");
      return this;
    }

    /** Seconds of unused capacity a partition banks for bursts; default 300, 0 for none. */
    public Builder burstSeconds(int seconds) {
      if (seconds < 0) {
        throw new IllegalArgumentException("burst seconds must not be negative");
      }
      this.burstSeconds = seconds;
      return this;
    }

    /** How long to simulate; default 130 minutes (both patterns have settled by then). */
    public Builder minutes(int minutes) {
      this.minutes = positive(minutes, "minutes");
      return this;
    }

    /**
     * The share of writes that go to a single partition key (so to one partition), from 0 (writes
     * spread evenly, the default) to 1.
     */
    public Builder hotKeyShare(double share) {
      if (!(share >= 0 && share <= 1)) {
        throw new IllegalArgumentException("hot key share must be in [0, 1]");
      }
      this.hotKeyShare = share;
      return this;
    }

    /**
     * Partitions the table already has, for example after an earlier scale-up split it; default 1.
     */
    public Builder initialPartitions(int partitions) {
      this.initialPartitions = positive(partitions, "partitions");
      return this;
    }

    /** Builds the simulator. */
    public CapacitySimulator build() {
      return new CapacitySimulator(this);
    }

    private static int positive(int v, String what) {
      if (v < 1) {
        throw new IllegalArgumentException(what + " must be at least 1");
      }
      return v;
    }
  }
}
