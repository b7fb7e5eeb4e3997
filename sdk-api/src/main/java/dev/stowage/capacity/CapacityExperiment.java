package dev.stowage.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The auto-scaling experiment: both {@link TrafficPattern traffic patterns}, target utilisation 30%
 * to 80%, and the three policies (consumed capacity after 5 minutes as the control, after 1 minute,
 * request counts after 1 minute), on one {@link CapacitySimulator}. {@code stowage capacity
 * simulate} prints its table. Immutable and thread-safe.
 */
public final class CapacityExperiment {
  /** The targets the experiment runs, as fractions. */
  public static final List<Double> TARGETS = List.of(0.3, 0.4, 0.5, 0.6, 0.7, 0.8);

  private final CapacitySimulator simulator;
  private final List<ScalingPolicy> policies;

  /** The experiment on {@code simulator} with the three policies. */
  public CapacityExperiment(CapacitySimulator simulator) {
    this(
        simulator,
        List.of(
            ScalingPolicy.consumedAfterFiveMinutes(),
            ScalingPolicy.consumedAfterOneMinute(),
            ScalingPolicy.requestsAfterOneMinute()));
  }

  /** The experiment on {@code simulator} with other policies. */
  public CapacityExperiment(CapacitySimulator simulator, List<ScalingPolicy> policies) {
    this.simulator = simulator;
    this.policies = List.copyOf(policies);
  }

  /** The patterns by name, in report order. */
  public static Map<String, TrafficPattern> patterns() {
    return java.util.Collections.unmodifiableMap(
        new java.util.LinkedHashMap<>(
            Map.of("bell curve", TrafficPattern.bellCurve(), "top heavy", TrafficPattern.topHeavy())
                .entrySet()
                .stream()
                .sorted(Map.Entry.comparingByKey())
                .collect(
                    java.util.stream.Collectors.toMap(
                        Map.Entry::getKey,
                        Map.Entry::getValue,
                        (a, b) -> a,
                        java.util.LinkedHashMap::new))));
  }

  /**
   * One row of the report.
   *
   * @param pattern the traffic pattern's name
   * @param target the target utilisation
   * @param results one per policy, in policy order
   */
  public record Row(String pattern, double target, List<SimulationResult> results) {
    /** Copies the results. */
    public Row {
      results = List.copyOf(results);
    }
  }

  /** Runs every pattern, target and policy. */
  public List<Row> run() {
    List<Row> rows = new ArrayList<>();
    for (var p : patterns().entrySet()) {
      for (double target : TARGETS) {
        List<SimulationResult> results = new ArrayList<>();
        for (ScalingPolicy policy : policies) {
          results.add(simulator.run(p.getValue(), policy, target));
        }
        rows.add(new Row(p.getKey(), target, results));
      }
    }
    return rows;
  }

  /** The rows as a Markdown table: success rate and throttled writes per policy. */
  public String markdown(List<Row> rows) {
    StringBuilder sb = new StringBuilder("| traffic | target |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (ScalingPolicy p : policies) {
      sb.append(' ').append(p.name()).append(": success | throttled |");
      rule.append("---|---|");
    }
    sb.append('\n').append(rule).append('\n');
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "| %s | %.0f%% |", r.pattern(), r.target() * 100));
      for (SimulationResult s : r.results()) {
        sb.append(
            String.format(Locale.ROOT, " %.1f%% | %,d |", s.successRate() * 100, s.throttled()));
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
