package dev.stowage;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Deletes everything a query matches, page by page, with a rate limit and progress reports. A page
 * is read with only what a delete needs (keys, overflow pointers, the attributes a filter tests);
 * its items are deleted in batches sent in parallel ({@link Options#parallelism} at a time, {@link
 * #WRITERS} unless set) while the next page is read, and each item before its overflow blob. The
 * rate limit spaces the batches of all writers together. Interrupted (by {@link #cancel}, an
 * exception, a crash or {@link Progress#resumeToken()} being saved and the process stopped), it
 * resumes from the last token with {@link Table#resumeDelete}: a token is reported only once every
 * batch of its page is in, and the next page's batches go out only after the report, so no item
 * before a token is left undeleted, none after it is deleted by the run that reported it, and
 * resumed counts are exact. A run that fails partway through a page reports once more before it
 * throws, at the page's start, counting the page's batches that were in: a resumed run reads that
 * page again without them. (A batch that fails after the store applied some of its deletes, a lost
 * response, cannot be counted: those items are deleted but uncounted.)
 *
 * <p>Items are deleted as their page read them: the batches carry no condition (no backend's batch
 * delete takes one), so an item changed between its page's read and its batch so that it no longer
 * matches is deleted all the same, as a hand-written query-then-batch-delete would delete it. Run a
 * job over attributes nothing else changes meanwhile (an expiry date, a tenant), or delete items
 * one by one with {@link Table#delete(dev.stowage.item.Key, dev.stowage.query.WriteOptions)} and a
 * condition where concurrent writers may make an item stop matching.
 *
 * <p>A query always names a partition (of the table or of an index), which the backends read in
 * order, so a delete job reads one page at a time; its parallelism is the number of batches sent at
 * once.
 *
 * <p>A job is run by one thread at a time; it has the shape of every {@link Job}.
 */
public interface DeleteJob extends Job<DeleteJob.Progress> {

  /** How many delete batches a job sends at once unless {@link Options#parallelism} says. */
  int WRITERS = 4;

  /**
   * Options for a delete job.
   *
   * @param maxItemsPerSecond rate limit, or 0 for none
   * @param pageSize items read per page, 1 to 1000
   * @param dryRun count matches without deleting
   * @param onProgress called after every page with the progress so far, or null
   * @param parallelism delete batches sent at once, 1 to 256 ({@link #WRITERS} by default)
   */
  record Options(
      double maxItemsPerSecond,
      int pageSize,
      boolean dryRun,
      Consumer<Progress> onProgress,
      int parallelism) {
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
      if (parallelism < 1 || parallelism > 256) {
        throw new IllegalArgumentException("parallelism must be 1 to 256");
      }
    }

    /** Options sending {@link #WRITERS} batches at once. */
    public Options(
        double maxItemsPerSecond, int pageSize, boolean dryRun, Consumer<Progress> onProgress) {
      this(maxItemsPerSecond, pageSize, dryRun, onProgress, WRITERS);
    }

    /** These options with a progress listener. */
    public Options withProgress(Consumer<Progress> listener) {
      return new Options(
          maxItemsPerSecond, pageSize, dryRun, Objects.requireNonNull(listener), parallelism);
    }

    /** These options with a rate limit in items per second. */
    public Options withRateLimit(double itemsPerSecond) {
      return new Options(itemsPerSecond, pageSize, dryRun, onProgress, parallelism);
    }

    /** These options as a dry run. */
    public Options asDryRun() {
      return new Options(maxItemsPerSecond, pageSize, true, onProgress, parallelism);
    }

    /** These options sending {@code n} delete batches at once. */
    public Options withParallelism(int n) {
      return new Options(maxItemsPerSecond, pageSize, dryRun, onProgress, n);
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
