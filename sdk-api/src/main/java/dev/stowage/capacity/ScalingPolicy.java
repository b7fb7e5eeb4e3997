package dev.stowage.capacity;

import java.util.Objects;

/**
 * How an auto scaler decides to raise a provisioned table's write capacity, in the manner of
 * DynamoDB auto scaling's CloudWatch alarms: every minute it reads the newest per-minute datapoint
 * that has been published (datapoints appear {@code metricDelayMinutes} after their minute ends);
 * while the last {@code breachMinutes} datapoints all exceed {@code target ×} the capacity
 * provisioned in their minute, it sets the capacity to {@code ceil(datapoint / target)} if that is
 * more.
 *
 * <p>Immutable.
 *
 * @param name a label for reports
 * @param metric what the datapoints count
 * @param breachMinutes consecutive breaching datapoints the alarm needs, at least 1
 * @param metricDelayMinutes minutes between the end of a minute and its datapoint being visible to
 *     the alarm, at least 0
 */
public record ScalingPolicy(String name, Metric metric, int breachMinutes, int metricDelayMinutes) {

  /** What a policy's datapoints measure. */
  public enum Metric {
    /**
     * Capacity the table consumed: never more than it allowed (provisioned plus burst), so a table
     * that throttles under-reports the demand it is scaling for.
     */
    CONSUMED_CAPACITY,
    /** Writes the application attempted, throttled or not: the demand itself. */
    REQUEST_COUNT
  }

  /** Checks the arguments. */
  public ScalingPolicy {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(metric, "metric");
    if (breachMinutes < 1) {
      throw new IllegalArgumentException("breachMinutes must be at least 1");
    }
    if (metricDelayMinutes < 0) {
      throw new IllegalArgumentException("metricDelayMinutes must not be negative");
    }
  }

  /**
   * The control group: DynamoDB auto scaling as shipped, on consumed capacity after 5 breaching
   * minutes, with table metrics 3 minutes behind.
   */
  public static ScalingPolicy consumedAfterFiveMinutes() {
    return new ScalingPolicy("consumed, 5 min", Metric.CONSUMED_CAPACITY, 5, 3);
  }

  /** Consumed capacity after 1 breaching minute, table metrics 3 minutes behind. */
  public static ScalingPolicy consumedAfterOneMinute() {
    return new ScalingPolicy("consumed, 1 min", Metric.CONSUMED_CAPACITY, 1, 3);
  }

  /**
   * Request counts after 1 breaching minute. The count is a custom CloudWatch metric the writer
   * publishes; it is read by the same alarm machinery, so it lags as long as the table metrics (3
   * minutes).
   */
  public static ScalingPolicy requestsAfterOneMinute() {
    return new ScalingPolicy("requests, 1 min", Metric.REQUEST_COUNT, 1, 3);
  }
}
