package dev.stowage;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Deletes everything a query matches, page by page, with a rate limit and progress reports. A page
 * is read with only what a delete needs (keys, overflow pointers, the attributes a filter tests);
 * its items are deleted in batches sent in parallel ({@link #WRITERS} at a time) while the next
 * page is read, and each item before its overflow blob. Interrupted (by {@link #cancel}, an
 * exception, a crash or {@link Progress#resumeToken()} being saved and the process stopped), it
 * resumes from the last token with {@link Table#resumeDelete}: a token is reported only once every
 * item up to it is deleted, so already-deleted items are not counted twice.
 *
 * <p>A job is run by one thread at a time; it has the shape of every {@link Job}.
 */
public interface DeleteJob extends Job<DeleteJob.Progress> {

  /** How many delete batches a job sends at once. */
  int WRITERS = 4;

  /**
   * Options for a delete job.
   *
   * @param maxItemsPerSecond rate limit, or 0 for none
   * @param pageSize items read per page, 1 to 1000
   * @param dryRun count matches without deleting
   * @param onProgress called after every page with the progress so far, or null
   */
  record Options(
      double maxItemsPerSecond, int pageSize, boolean dryRun, Consumer<Progress> onProgress) {
    /**
     * No rate limit, pages of 1,000 (the largest: a page's batches go out in parallel and the job
     * waits for the slowest of them before its report, so fewer, larger pages keep the writers
     * busier), reports nowhere.
     */
    public static final Options DEFAULT = new Options(0, 1000, false, null);

    public Options {
      if (maxItemsPerSecond < 0 || Double.isNaN(maxItemsPerSecond)) {
        throw new IllegalArgumentException("maxItemsPerSecond must be 0 (none) or positive");
      }
      if (pageSize < 1 || pageSize > 1000) {
        throw new IllegalArgumentException("pageSize must be 1 to 1000");
      }
    }

    /** These options with a progress listener. */
    public Options withProgress(Consumer<Progress> listener) {
      return new Options(maxItemsPerSecond, pageSize, dryRun, Objects.requireNonNull(listener));
    }

    /** These options with a rate limit in items per second. */
    public Options withRateLimit(double itemsPerSecond) {
      return new Options(itemsPerSecond, pageSize, dryRun, onProgress);
    }

    /** These options as a dry run. */
    public Options asDryRun() {
      return new Options(maxItemsPerSecond, pageSize, true, onProgress);
    }
  }

  /**
   * How far a job has got.
   *
   * @param matched items matched so far
   * @param deleted items deleted so far (0 in a dry run)
   * @param blobsDeleted overflow blobs deleted so far
   * @param elapsed time spent in this run
   * @param done true once nothing is left
   * @param resumeToken token to resume after the last completed page
   */
  record Progress(
      long matched,
      long deleted,
      long blobsDeleted,
      Duration elapsed,
      boolean done,
      String resumeToken)
      implements JobProgress {}
}
