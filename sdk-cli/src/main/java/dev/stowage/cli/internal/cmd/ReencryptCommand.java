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

  @Mixin MaintenanceOptions job;

  @Override
  public Integer call() {
    if (table.keyset == null) {
      throw new CliException("reencrypt needs the keys: give --keyset FILE");
    }
    try (OpenedStore store = table.open()) {
      Table t = store.table();
      boolean dryRun = job.dryRun;
      MaintenanceJob.Progress done =
          job.run(
              main,
              t::reencrypt,
              t::resumeMaintenance,
              p -> p.rewritten() + (dryRun ? " to rewrite" : " rewritten"));
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
