package dev.stowage;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A resumable job that walks a whole table and rewrites the items that need it: filling in the
 * index values of an index added to a table that already has data ({@link Table#backfillIndexes}),
 * repairing index values other tools left stale or missing ({@link Table#verifyIndexes}), or
 * re-encrypting values not under the current primary key ({@link Table#reencrypt}). Each rewrite is
 * conditional on the item not having changed since it was read, so concurrent application writes
 * are never overwritten; an item that changed is read again. Interrupted, a job resumes from the
 * token its last progress report carried.
 *
 * <p>A job is run by one thread at a time; it has the shape of every {@link Job}.
 */
public interface MaintenanceJob extends Job<MaintenanceJob.Progress> {

  /**
   * Options for a maintenance job.
   *
   * @param maxItemsPerSecond items scanned per second at most, or 0 for no limit
   * @param pageSize items read per page (per segment), 1 to 1000
   * @param dryRun count what would change without writing
   * @param onProgress called after every page, or null
   * @param parallelism segments of the table walked at once, 1 to 256: with more than 1, and a
   *     backend that scans in segments ({@link dev.stowage.spi.Capability#SEGMENTED_SCANS}), a new
   *     job divides the table into that many segments and each step reads and rewrites one page of
   *     every unfinished segment in parallel; its resume token carries every segment's checkpoint,
   *     and a resumed job continues the segments of its token whatever this says (a token of a job
   *     walking in one scan continues in one scan)
   */
  record Options(
      double maxItemsPerSecond,
      int pageSize,
      boolean dryRun,
      Consumer<Progress> onProgress,
      int parallelism) {
    /** No rate limit, pages of 100, one scan. */
    public static final Options DEFAULT = new Options(0, 100, false, null);

    public Options {
      if (maxItemsPerSecond < 0 || Double.isNaN(maxItemsPerSecond)) {
        throw new IllegalArgumentException("maxItemsPerSecond must be 0 (none) or positive");
      }
      if (pageSize < 1 || pageSize > 1000) {
        throw new IllegalArgumentException("pageSize must be 1 to 1000");
      }
      if (parallelism < 1 || parallelism > 256) {
        throw new IllegalArgumentException("parallelism must be 1 to 256");
      }
    }

    /** Options walking the table in one scan. */
    public Options(
        double maxItemsPerSecond, int pageSize, boolean dryRun, Consumer<Progress> onProgress) {
      this(maxItemsPerSecond, pageSize, dryRun, onProgress, 1);
    }

    /** These options with a progress listener. */
    public Options withProgress(Consumer<Progress> listener) {
      return new Options(
          maxItemsPerSecond, pageSize, dryRun, Objects.requireNonNull(listener), parallelism);
    }

    /** These options with a rate limit in items scanned per second. */
    public Options withRateLimit(double itemsPerSecond) {
      return new Options(itemsPerSecond, pageSize, dryRun, onProgress, parallelism);
    }

    /** These options as a dry run. */
    public Options asDryRun() {
      return new Options(maxItemsPerSecond, pageSize, true, onProgress, parallelism);
    }

    /** These options walking {@code n} segments of the table at once (see the class). */
    public Options withParallelism(int n) {
      return new Options(maxItemsPerSecond, pageSize, dryRun, onProgress, n);
    }
  }

  /**
   * How far a job has got.
   *
   * <p>The index jobs ({@link Table#backfillIndexes}, {@link Table#verifyIndexes}) sort each item
   * needing a rewrite as stale or missing (an item with both counts as stale), so {@code rewritten}
   * is {@code stale + missing - skipped}. Re-encryption leaves {@code stale} and {@code missing} at
   * 0.
   *
   * @param scanned items read so far
   * @param rewritten items rewritten so far (or that would be, in a dry run)
   * @param stale items whose stored index values disagreed with their attributes: values written
   *     for other attribute values (another tool changed an indexed attribute and left Stowage's
   *     synthesized ones as they were), under another definition of the index, or for an item that
   *     no longer belongs in the index
   * @param missing items lacking index values their attributes give: written before the index
   *     existed, or by another tool that does not write Stowage's synthesized attributes
   * @param skipped items that needed a rewrite but could not be written back as they are (an
   *     indexed value over the backend's limit, a value nested too deep, …); each is logged at WARN
   *     under {@code dev.stowage.jobs} with its key. Never counted in a dry run
   * @param elapsed time spent in this run
   * @param done true once the whole table was walked
   * @param resumeToken pass to the table's resume method to continue after the last page
   */
  record Progress(
      long scanned,
      long rewritten,
      long stale,
      long missing,
      long skipped,
      Duration elapsed,
      boolean done,
      String resumeToken)
      implements JobProgress {

    /** Progress without index findings (stale, missing and skipped all 0). */
    public Progress(
        long scanned, long rewritten, Duration elapsed, boolean done, String resumeToken) {
      this(scanned, rewritten, 0, 0, 0, elapsed, done, resumeToken);
    }
  }
}
