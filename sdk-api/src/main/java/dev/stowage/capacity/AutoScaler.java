package dev.stowage.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated auto scaler: per-minute datapoints that become visible after the policy's delay, a
 * scale-up alarm per {@link ScalingPolicy} and a scale-in alarm on consumed capacity. Not
 * thread-safe (one per simulation run).
 */
final class AutoScaler {
  /** Datapoints the scale-in alarm needs, as DynamoDB auto scaling's (15 minutes). */
  static final int SCALE_IN_MINUTES = 15;

  private final ScalingPolicy policy;
  private final double target;
  private final int minCapacity;
  private final List<Double> consumed = new ArrayList<>();
  private final List<Double> requests = new ArrayList<>();
  private int lastChange;
  private int pendingMinute = -1;
  private int pendingCapacity;

  AutoScaler(ScalingPolicy policy, double target, int minCapacity) {
    this.policy = policy;
    this.target = target;
    this.minCapacity = minCapacity;
  }

  /** The capacity to set at the start of {@code minute}, or 0 for none. */
  int pendingCapacity(int minute) {
    if (pendingMinute >= 0 && pendingMinute <= minute) {
      pendingMinute = -1;
      lastChange = minute;
      return pendingCapacity;
    }
    return 0;
  }

  /**
   * Records the minute that just ended (rates per second) and evaluates the alarms on the
   * datapoints visible at its end.
   */
  void observe(int minute, double consumedPerSecond, double requestsPerSecond, int capacity) {
    consumed.add(consumedPerSecond);
    requests.add(requestsPerSecond);
    if (pendingMinute >= 0) {
      return;
    }
    List<Double> metric =
        policy.metric() == ScalingPolicy.Metric.REQUEST_COUNT ? requests : consumed;
    int visible = minute - policy.metricDelayMinutes();
    if (breached(metric, visible, policy.breachMinutes(), v -> v > target * capacity)) {
      int up = (int) Math.ceil(metric.get(visible) / target);
      if (up > capacity) {
        schedule(minute + 1, up);
        return;
      }
    }
    int tableVisible = minute - ScalingPolicy.consumedAfterFiveMinutes().metricDelayMinutes();
    if (breached(consumed, tableVisible, SCALE_IN_MINUTES, v -> v < (target - 0.2) * capacity)) {
      int down = Math.max(minCapacity, (int) Math.ceil(consumed.get(tableVisible) / target));
      if (down < capacity) {
        schedule(minute + 1, down);
      }
    }
  }

  private void schedule(int minute, int capacity) {
    pendingMinute = minute;
    pendingCapacity = capacity;
  }

  /**
   * True if the {@code count} datapoints up to {@code last} all pass and follow the last change.
   */
  private boolean breached(
      List<Double> metric, int last, int count, java.util.function.DoublePredicate breach) {
    int first = last - count + 1;
    if (first < 0 || first < lastChange) {
      return false;
    }
    for (int i = first; i <= last; i++) {
      if (!breach.test(metric.get(i))) {
        return false;
      }
    }
    return true;
  }
}
