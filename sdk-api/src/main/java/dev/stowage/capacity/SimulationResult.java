package dev.stowage.capacity;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one {@link CapacitySimulator} run. Immutable.
 *
 * @param policy the scaling policy's name
 * @param targetUtilisation the auto scaler's target (0.7 for 70%)
 * @param requested writes attempted
 * @param succeeded writes accepted
 * @param peakCapacity the highest write capacity provisioned
 * @param partitions the table's partitions at the end (they never decrease)
 * @param timeline one entry per simulated minute
 */
public record SimulationResult(
    String policy,
    double targetUtilisation,
    long requested,
    long succeeded,
    int peakCapacity,
    int partitions,
    List<Minute> timeline) {

  /** Copies the timeline. */
  public SimulationResult {
    Objects.requireNonNull(policy, "policy");
    timeline = List.copyOf(timeline);
  }

  /** Writes throttled. */
  public long throttled() {
    return requested - succeeded;
  }

  /** The share of attempted writes that succeeded, 0 to 1 (1 when none were attempted). */
  public double successRate() {
    return requested == 0 ? 1 : (double) succeeded / requested;
  }

  /**
   * One simulated minute.
   *
   * @param minute minutes since the start
   * @param capacity write capacity provisioned during it
   * @param partitions the table's partitions during it
   * @param requested writes attempted
   * @param succeeded writes accepted
   */
  public record Minute(int minute, int capacity, int partitions, long requested, long succeeded) {}
}
