package dev.stowage.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated auto scaler, with CloudWatch's alarm semantics: per-minute datapoints that become
 * visible after the policy's delay, a scale-up alarm per {@link ScalingPolicy} and a scale-in alarm
 * on consumed capacity. Not thread-safe (one per simulation run).
 *
 * <p>A datapoint breaches when its minute's utilisation (the metric over the capacity provisioned
 * in that same minute, as DynamoDB's {@code DynamoDBWriteCapacityUtilization} is defined) exceeds
 * the target. A capacity change does not reset the alarm: CloudWatch leaves an updated alarm in its
 * state, and an alarm with an Auto Scaling action invokes it again every minute it stays in ALARM.
 * Each invocation sets the capacity to {@code ceil(newest visible datapoint / target)} when that is
 * more than the table has, unless an earlier update is still being applied.
 */
final class AutoScaler {
  /** Datapoints the scale-in alarm needs, as DynamoDB auto scaling's (15 minutes). */
  static final int SCALE_IN_MINUTES = 15;

  private final ScalingPolicy policy;
  private final double target;
  private final int minCapacity;
  private final int updateMinutes;
  private final List<Double> consumed = new ArrayList<>();
  private final List<Double> requests = new ArrayList<>();
  private final List<Integer> provisioned = new ArrayList<>();
  private int pendingMinute = -1;
  private int pendingCapacity;

  /**
   * @param updateMinutes whole minutes an update takes to apply after the minute it was decided in
   *     (0: in force from the next minute)
   */
  AutoScaler(ScalingPolicy policy, double target, int minCapacity, int updateMinutes) {
    this.policy = policy;
    this.target = target;
    this.minCapacity = minCapacity;
    this.updateMinutes = updateMinutes;
  }

  /** The capacity to set at the start of {@code minute}, or 0 for none. */
  int pendingCapacity(int minute) {
    if (pendingMinute >= 0 && pendingMinute <= minute) {
      pendingMinute = -1;
      return pendingCapacity;
    }
    return 0;
  }

  /**
   * Records the minute that just ended (rates per second, and the capacity it was served with) and
   * evaluates the alarms on the datapoints visible at its end.
   */
  void observe(int minute, double consumedPerSecond, double requestsPerSecond, int capacity) {
    consumed.add(consumedPerSecond);
    requests.add(requestsPerSecond);
    provisioned.add(capacity);
    if (pendingMinute >= 0) {
      // The table is still UPDATING: DynamoDB takes no further update until it is done.
      return;
    }
    List<Double> metric =
        policy.metric() == ScalingPolicy.Metric.REQUEST_COUNT ? requests : consumed;
    int visible = minute - policy.metricDelayMinutes();
    if (inAlarm(metric, visible, policy.breachMinutes(), true)) {
      int up = (int) Math.ceil(metric.get(visible) / target);
      if (up > capacity) {
        schedule(minute + 1 + updateMinutes, up);
        return;
      }
    }
    int tableVisible = minute - ScalingPolicy.consumedAfterFiveMinutes().metricDelayMinutes();
    if (inAlarm(consumed, tableVisible, SCALE_IN_MINUTES, false)) {
      int down = Math.max(minCapacity, (int) Math.ceil(consumed.get(tableVisible) / target));
      if (down < capacity) {
        schedule(minute + 1 + updateMinutes, down);
      }
    }
  }

  private void schedule(int minute, int capacity) {
    pendingMinute = minute;
    pendingCapacity = capacity;
  }

  /**
   * True if the {@code count} datapoints up to {@code last} all breach: utilisation above the
   * target (scale-up), or below it by more than 20 points (scale-in), each against the capacity of
   * its own minute.
   */
  private boolean inAlarm(List<Double> metric, int last, int count, boolean high) {
    int first = last - count + 1;
    if (first < 0) {
      return false;
    }
    for (int i = first; i <= last; i++) {
      double utilisation = metric.get(i) / provisioned.get(i);
      if (high ? !(utilisation > target) : !(utilisation < target - 0.2)) {
        return false;
      }
    }
    return true;
  }
}
