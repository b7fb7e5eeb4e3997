package dev.stowage.cli.internal.cmd;

import dev.stowage.MaintenanceJob;
import dev.stowage.Table;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.cli.internal.ProgressBar;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code stowage repair-indexes}: runs {@link Table#verifyIndexes}. */
@Command(
    name = "repair-indexes",
    mixinStandardHelpOptions = true,
    description =
        "Find and rewrite items whose index values are stale (another tool changed an indexed"
            + " attribute without updating Stowage's index values) or missing (written before the"
            + " index existed, or by a tool that does not write them). Online: concurrent writes"
            + " are never overwritten. The table's indexes come from --spec or --spec-index.")
public final class RepairIndexesCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;

  @Mixin MaintenanceOptions job;

  @Override
  public Integer call() {
    try (OpenedStore store = table.open()) {
      if (store.spec().indexes().isEmpty()) {
        throw new CliException(
            "table '"
                + store.spec().name()
                + "' has no secondary indexes in its spec: give --spec FILE or --spec-index");
      }
      Table t = store.table();
      MaintenanceJob.Progress done =
          job.run(
              main,
              t::verifyIndexes,
              t::resumeMaintenance,
              p -> p.stale() + " stale, " + p.missing() + " missing");
      main.out().println(summary(done, job.dryRun));
      return 0;
    }
  }

  /** The final line: counts found, then what was (or would be) written. */
  static String summary(MaintenanceJob.Progress p, boolean dryRun) {
    StringBuilder sb = new StringBuilder();
    if (dryRun) {
      sb.append("dry run: ");
    }
    sb.append(p.scanned())
        .append(" item(s) scanned: ")
        .append(p.stale())
        .append(" with stale, ")
        .append(p.missing())
        .append(" with missing index values; ")
        .append(p.rewritten())
        .append(dryRun ? " would be rewritten" : " rewritten");
    if (p.skipped() > 0) {
      sb.append(", ")
          .append(p.skipped())
          .append(" skipped (an indexed value over the backend's limit or another value Stowage")
          .append(" cannot write back; index queries leave them out)");
    }
    return sb.append(" in ").append(ProgressBar.format(p.elapsed())).toString();
  }
}
