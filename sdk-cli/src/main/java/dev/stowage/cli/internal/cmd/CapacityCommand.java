package dev.stowage.cli.internal.cmd;

import dev.stowage.capacity.CapacityAdvisor;
import dev.stowage.capacity.CapacityExperiment;
import dev.stowage.capacity.CapacitySimulator;
import dev.stowage.capacity.ScalingPolicy;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage capacity}: the auto-scaling simulation and capacity advice. */
@Command(
    name = "capacity",
    mixinStandardHelpOptions = true,
    description = "Capacity planning for provisioned tables.")
public final class CapacityCommand {
  @ParentCommand Main main;

  /** {@code stowage capacity simulate}. */
  @Command(
      name = "simulate",
      mixinStandardHelpOptions = true,
      description =
          "Run the auto-scaling experiment (bell-curve and top-heavy traffic, 25 to 300 writes/s,"
              + " target utilisation 30% to 80%, three scaling policies) on the deterministic"
              + " simulator and print its table in Markdown.")
  int simulate(
      @Option(
              names = "--metric-delay",
              defaultValue = "3",
              description = "Minutes table metrics lag (default 3).")
          int metricDelay,
      @Option(
              names = "--request-metric-delay",
              defaultValue = "3",
              description = "Minutes the request-count metric lags (default 3).")
          int requestDelay,
      @Option(
              names = "--update-minutes",
              defaultValue = "0",
              description =
                  "Whole minutes a capacity update takes beyond the minute it was decided in"
                      + " (default 0: in force from the next minute).")
          int updateMinutes,
      @Option(
              names = "--burst-seconds",
              defaultValue = "300",
              description = "Seconds of unused capacity a partition banks (default 300).")
          int burst,
      @Option(
              names = "--minutes",
              defaultValue = "130",
              description = "Minutes simulated (default 130).")
          int minutes) {
    CapacitySimulator sim;
    try {
      sim =
          CapacitySimulator.builder()
              .burstSeconds(burst)
              .minutes(minutes)
              .updateMinutes(updateMinutes)
              .build();
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
    var policies =
        List.of(
            new ScalingPolicy(
                "consumed, 5 min", ScalingPolicy.Metric.CONSUMED_CAPACITY, 5, metricDelay),
            new ScalingPolicy(
                "consumed, 1 min", ScalingPolicy.Metric.CONSUMED_CAPACITY, 1, metricDelay),
            new ScalingPolicy(
                "requests, 1 min", ScalingPolicy.Metric.REQUEST_COUNT, 1, requestDelay));
    var experiment = new CapacityExperiment(sim, policies);
    main.out().print(experiment.markdown(experiment.run()));
    return 0;
  }

  /** {@code stowage capacity advise}. */
  @Command(
      name = "advise",
      mixinStandardHelpOptions = true,
      description =
          "Recommend provisioned capacity for a table from the peak demand in a usage snapshot"
              + " (request counts, throttled ones included), and warn before a scale-up that"
              + " splits partitions for good.")
  int advise(
      @Option(names = "--usage", required = true, paramLabel = "FILE", description = "Snapshot.")
          Path usage,
      @Option(
              names = "--table",
              required = true,
              paramLabel = "[NAMESPACE/]TABLE",
              description = "The table.")
          String table,
      @Option(
              names = "--highest-rcu",
              defaultValue = "0",
              description = "The highest read capacity the table ever had.")
          long highestRcu,
      @Option(
              names = "--highest-wcu",
              defaultValue = "0",
              description = "The highest write capacity the table ever had.")
          long highestWcu,
      @Option(
              names = "--target",
              defaultValue = "0.7",
              description = "Target utilisation (default 0.7).")
          double target) {
    UsageSnapshot s = UsageFiles.snapshot(usage);
    int slash = table.indexOf('/');
    String ns = slash < 0 ? "" : table.substring(0, slash);
    String name = slash < 0 ? table : table.substring(slash + 1);
    TableUsage u =
        s.table(ns, name).orElseThrow(() -> new CliException("the snapshot has no table " + table));
    CapacityAdvisor.Advice a;
    try {
      a = new CapacityAdvisor(target).advise(u, s.hotKeys(ns, name), highestRcu, highestWcu);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
    main.out()
        .printf(
            Locale.ROOT,
            "%s: peak demand %.1f RCU/s, %.1f WCU/s (throttled requests included);"
                + " provision %d RCU, %d WCU at %.0f%% target (partitions %d -> %d)%n",
            table,
            u.peakReadUnitsPerSecond(),
            u.peakWriteUnitsPerSecond(),
            a.readUnits(),
            a.writeUnits(),
            target * 100,
            a.partitionsNow(),
            a.partitionsAfter());
    for (String w : a.warnings()) {
      main.out().println("warning: " + w);
    }
    return 0;
  }
}
