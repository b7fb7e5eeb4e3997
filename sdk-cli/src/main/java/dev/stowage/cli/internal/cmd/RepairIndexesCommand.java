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
import picocli.CommandLine.Option;
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

  @Option(names = "--dry-run", description = "Count stale and missing index values; write nothing.")
  boolean dryRun;

  @Option(names = "--rate", defaultValue = "0", description = "At most this many items/second.")
  double rate;

  @Option(names = "--page-size", defaultValue = "100", description = "Items per page (1-1000).")
  int pageSize;

  @Option(names = "--resume", description = "Resume an interrupted job from its token.")
  String resume;

  @Override
  public Integer call() {
    if (rate < 0 || Double.isNaN(rate)) {
      throw new CliException("--rate must be 0 (no limit) or positive");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new CliException("--page-size must be 1 to 1000");
    }
    try (OpenedStore store = table.open()) {
      if (store.spec().indexes().isEmpty()) {
        throw new CliException(
            "table '"
                + store.spec().name()
                + "' has no secondary indexes in its spec: give --spec FILE or --spec-index");
      }
      Table t = store.table();
      ProgressBar bar = new ProgressBar(main.err(), "scanned", 0, ProgressBar.terminal());
      String[] token = {null};
      MaintenanceJob.Options options =
          new MaintenanceJob.Options(
              rate,
              pageSize,
              dryRun,
              p -> {
                token[0] = p.resumeToken();
                bar.update(p.scanned(), p.stale() + " stale, " + p.missing() + " missing");
              });
      MaintenanceJob job =
          resume == null ? t.verifyIndexes(options) : t.resumeMaintenance(resume, options);
      MaintenanceJob.Progress done;
      try {
        done = job.run();
      } catch (RuntimeException e) {
        if (token[0] != null) {
          main.err().println("interrupted; resume with: --resume " + token[0]);
        }
        throw e;
      }
      bar.finish(done.scanned(), "");
      main.out().println(summary(done, dryRun));
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
