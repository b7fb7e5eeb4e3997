package dev.stowage.cli.internal.cmd;

import dev.stowage.DeleteJob;
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

/** {@code stowage delete-where}. */
@Command(
    name = "delete-where",
    mixinStandardHelpOptions = true,
    description =
        "Delete every item a query (usually an index query) matches, with their overflow blobs,"
            + " as a resumable, rate-limited job. Prints a resume token after every page.")
public final class DeleteWhereCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;
  @Mixin QueryCommand.QueryOptions query;

  @Option(names = "--dry-run", description = "Count the matches; delete nothing.")
  boolean dryRun;

  @Option(names = "--rate", defaultValue = "0", description = "At most this many items/second.")
  double rate;

  @Option(names = "--page-size", defaultValue = "100", description = "Items per page (1-1000).")
  int pageSize;

  @Option(names = "--resume", description = "Resume an interrupted job from its token.")
  String resume;

  @Option(
      names = "--parallelism",
      defaultValue = "4",
      description =
          "Delete batches sent at once (1 to 256). Pages are read in the query's order, the next"
              + " while the current one's batches are sent.")
  int parallelism;

  @Option(
      names = "--no-count",
      description = "Skip the counting pass that sizes the progress bar (saves one index read).")
  boolean noCount;

  @Override
  public Integer call() {
    if (rate < 0) {
      throw new CliException("--rate must be positive (or 0 for no limit)");
    }
    if (parallelism < 1 || parallelism > 256) {
      throw new CliException("--parallelism must be 1 to 256");
    }
    try (OpenedStore store = table.open()) {
      Table t = store.table();
      long total = 0;
      if (!dryRun && !noCount && resume == null) {
        total =
            t.deleteWhere(
                    query.build(100, t.spec()), new DeleteJob.Options(0, pageSize, true, null))
                .run()
                .matched();
      }
      ProgressBar bar =
          new ProgressBar(
              main.err(), dryRun ? "matching" : "deleting", total, ProgressBar.terminal());
      String[] lastToken = {null};
      DeleteJob.Options options =
          new DeleteJob.Options(
              rate,
              pageSize,
              dryRun,
              p -> {
                lastToken[0] = p.resumeToken();
                bar.update(
                    dryRun ? p.matched() : p.deleted(),
                    p.blobsDeleted() > 0 ? p.blobsDeleted() + " blobs" : "");
              },
              parallelism);
      DeleteJob job =
          resume != null
              ? t.resumeDelete(resume, options)
              : t.deleteWhere(query.build(100, t.spec()), options);
      DeleteJob.Progress done;
      try {
        done = job.run();
      } catch (RuntimeException e) {
        bar.endLine();
        if (lastToken[0] != null) {
          main.err().println("interrupted; resume with: --resume " + lastToken[0]);
        }
        throw e;
      }
      bar.finish(dryRun ? done.matched() : done.deleted(), "");
      main.out()
          .println(
              dryRun
                  ? "dry run: " + done.matched() + " item(s) match"
                  : "deleted "
                      + done.deleted()
                      + " item(s) and "
                      + done.blobsDeleted()
                      + " overflow blob(s) in "
                      + ProgressBar.format(done.elapsed()));
      return 0;
    }
  }
}
