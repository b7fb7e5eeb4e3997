package dev.stowage.cli.internal.cmd;

import dev.stowage.MaintenanceJob;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.ProgressBar;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options every command that runs a {@link MaintenanceJob} shares ({@code --dry-run}, {@code
 * --rate}, {@code --page-size}, {@code --resume}, {@code --parallelism}), and the run itself: a
 * progress bar, and on failure the token to resume from.
 */
public final class MaintenanceOptions {
  @Option(names = "--dry-run", description = "Count what would be rewritten; write nothing.")
  boolean dryRun;

  @Option(names = "--rate", defaultValue = "0", description = "At most this many items/second.")
  double rate;

  @Option(names = "--page-size", defaultValue = "100", description = "Items per page (1-1000).")
  int pageSize;

  @Option(names = "--resume", description = "Resume an interrupted job from its token.")
  String resume;

  @Option(
      names = {"--parallelism", "--segments"},
      defaultValue = "4",
      description =
          "Segments of the table walked at once (1 to 256) where the backend scans in segments;"
              + " a resumed job continues the segments of its token.")
  int parallelism;

  /**
   * Runs the job that {@code start} creates (or resumes) with these options.
   *
   * @param start creates the job: from the options, and from the resume token when there is one
   * @param status the progress bar's note for a progress report
   * @return the final progress
   * @throws CliException for a rate or page size out of range, before the job starts
   */
  MaintenanceJob.Progress run(
      Main main,
      Function<MaintenanceJob.Options, MaintenanceJob> start,
      java.util.function.BiFunction<String, MaintenanceJob.Options, MaintenanceJob> resumeFrom,
      Function<MaintenanceJob.Progress, String> status) {
    if (rate < 0 || Double.isNaN(rate)) {
      throw new CliException("--rate must be 0 (no limit) or positive");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new CliException("--page-size must be 1 to 1000");
    }
    if (parallelism < 1 || parallelism > 256) {
      throw new CliException("--parallelism must be 1 to 256");
    }
    ProgressBar bar = new ProgressBar(main.err(), "scanned", 0, ProgressBar.terminal());
    String[] token = {null};
    MaintenanceJob.Options options =
        new MaintenanceJob.Options(
            rate,
            pageSize,
            dryRun,
            p -> {
              token[0] = p.resumeToken();
              bar.update(p.scanned(), status.apply(p));
            },
            parallelism);
    MaintenanceJob job = resume == null ? start.apply(options) : resumeFrom.apply(resume, options);
    MaintenanceJob.Progress done;
    try {
      done = job.run();
    } catch (RuntimeException e) {
      bar.endLine();
      if (token[0] != null) {
        main.err().println("interrupted; resume with: --resume " + token[0]);
      }
      throw e;
    }
    bar.finish(done.scanned(), "");
    return done;
  }
}
