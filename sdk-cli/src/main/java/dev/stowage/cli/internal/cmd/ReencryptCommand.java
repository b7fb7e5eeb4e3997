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

/** {@code stowage reencrypt}. */
@Command(
    name = "reencrypt",
    mixinStandardHelpOptions = true,
    description =
        "Rewrite every encrypted value not under the keyset's primary key (after a rotation), and"
            + " encrypt plaintext left in attributes declared encrypted. Online: concurrent writes"
            + " are never overwritten. Needs --keyset with the old and the new key.")
public final class ReencryptCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;

  @Option(names = "--dry-run", description = "Count what would be rewritten; write nothing.")
  boolean dryRun;

  @Option(names = "--rate", defaultValue = "0", description = "At most this many items/second.")
  double rate;

  @Option(names = "--page-size", defaultValue = "100", description = "Items per page (1-1000).")
  int pageSize;

  @Option(names = "--resume", description = "Resume an interrupted job from its token.")
  String resume;

  @Override
  public Integer call() {
    if (table.keyset == null) {
      throw new CliException("reencrypt needs the keys: give --keyset FILE");
    }
    try (OpenedStore store = table.open()) {
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
                bar.update(p.scanned(), p.rewritten() + (dryRun ? " to rewrite" : " rewritten"));
              });
      MaintenanceJob job =
          resume == null ? t.reencrypt(options) : t.resumeMaintenance(resume, options);
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
      main.out()
          .println(
              (dryRun ? "dry run: " : "")
                  + done.scanned()
                  + " item(s) scanned, "
                  + done.rewritten()
                  + (dryRun ? " would be rewritten" : " rewritten")
                  + " in "
                  + ProgressBar.format(done.elapsed()));
      return 0;
    }
  }
}
