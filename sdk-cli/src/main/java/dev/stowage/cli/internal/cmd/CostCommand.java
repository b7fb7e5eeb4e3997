package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cost.BlobPricing;
import dev.stowage.cost.CostEstimate;
import dev.stowage.cost.CostEstimator;
import dev.stowage.cost.PriceTable;
import dev.stowage.cost.TablePricing;
import dev.stowage.usage.UsageSnapshot;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage cost}: what an application's tables cost at the rate they were used. */
@Command(
    name = "cost",
    mixinStandardHelpOptions = true,
    subcommands = CostOverflowCommand.class,
    description =
        "Estimate the cost per table and in total, per hour and per month, from the usage snapshot"
            + " an application's store writes (UsageTracking.snapshotFile), under a cloud's list"
            + " prices (the dated table shipped with Stowage, or --prices).")
public final class CostCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Option(
      names = "--usage",
      paramLabel = "FILE",
      description = "The usage snapshot file (required unless a subcommand is given).")
  Path usage;

  @Option(
      names = "--model",
      description =
          "Table pricing: dynamodb-on-demand, dynamodb-provisioned, datastore or azure-tables"
              + " (default: the snapshot's backend's; required for the memory driver).")
  String model;

  @Option(
      names = "--blob-model",
      description = "Blob pricing: s3, gcs or azure-blob (default: the table model's cloud's).")
  String blobModel;

  @Option(
      names = "--prices",
      paramLabel = "FILE",
      description = "A properties file overriding prices of the shipped table, key by key.")
  Path prices;

  @Option(
      names = "--utilisation",
      defaultValue = "0.7",
      description = "Target utilisation provisioned capacity is sized for (default 0.7).")
  double utilisation;

  @Option(
      names = "--storage",
      paramLabel = "[NAMESPACE/]TABLE=ITEM_GB[:BLOB_GB]",
      description = "Stored data of a table, where known (repeatable).")
  List<String> storage = List.of();

  @Override
  public Integer call() {
    if (usage == null) {
      throw new CliException("give the usage snapshot file with --usage FILE");
    }
    UsageSnapshot s = UsageFiles.snapshot(usage);
    PriceTable p = UsageFiles.prices(prices);
    TablePricing tp;
    BlobPricing bp;
    try {
      tp = model == null ? TablePricing.forBackend(s.backend()) : TablePricing.of(model);
      bp = blobModel == null ? BlobPricing.alongside(tp) : BlobPricing.of(blobModel);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage() + " (--model, --blob-model)");
    }
    CostEstimate e;
    try {
      e = new CostEstimator(p, tp, bp, utilisation, storage()).estimate(s);
    } catch (IllegalArgumentException ex) {
      throw new CliException(ex.getMessage());
    }
    main.out()
        .printf(
            Locale.ROOT,
            "%s + %s, prices of %s (%s), usage over %s extrapolated%n",
            tp.id(),
            bp.id(),
            e.pricesDate(),
            e.currency(),
            TopCommand.human(s.observed()));
    main.out()
        .printf(
            Locale.ROOT,
            "%-28s %14s %14s %14s %14s  %s%n",
            "TABLE",
            "REQUESTS",
            "BLOBS",
            "PER HOUR",
            "PER MONTH",
            "BASIS");
    for (CostEstimate.TableCost t : e.tables()) {
      main.out()
          .printf(
              Locale.ROOT,
              "%-28s %14.6f %14.6f %14.4f %14.2f  %s%n",
              t.namespace().isEmpty() ? t.table() : t.namespace() + "/" + t.table(),
              t.requests(),
              t.blobRequests(),
              t.perHour(),
              t.perMonth(),
              t.basis() == CostEstimate.Basis.REPORTED ? "reported units" : "estimated");
    }
    main.out()
        .printf(
            Locale.ROOT,
            "%-28s %14s %14s %14.4f %14.2f%n",
            "total",
            "",
            "",
            e.perHour(),
            e.perMonth());
    if (tp == TablePricing.DYNAMODB_PROVISIONED) {
      main.out()
          .println(
              "provisioned: capacity sized for the average rate at the target utilisation; peaks"
                  + " need more (see 'stowage capacity advise')");
    }
    return 0;
  }

  private Map<String, CostEstimator.Storage> storage() {
    Map<String, CostEstimator.Storage> m = new HashMap<>();
    for (String s : storage) {
      int eq = s.indexOf('=');
      if (eq < 1) {
        throw new CliException("--storage wants [NAMESPACE/]TABLE=ITEM_GB[:BLOB_GB], got " + s);
      }
      String table = s.substring(0, eq);
      String[] gb = s.substring(eq + 1).split(":", 2);
      try {
        long items = (long) (Double.parseDouble(gb[0]) * 1e9);
        long blobs = gb.length > 1 ? (long) (Double.parseDouble(gb[1]) * 1e9) : 0;
        m.put(table.contains("/") ? table : "/" + table, new CostEstimator.Storage(items, blobs));
      } catch (NumberFormatException e) {
        throw new CliException("--storage sizes are in GB: " + s);
      }
    }
    return m;
  }
}
