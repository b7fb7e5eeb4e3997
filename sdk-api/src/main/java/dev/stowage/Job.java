package dev.stowage;

/**
 * A long-running job over a table or a blob store: a delete by query ({@link DeleteJob}), an index
 * backfill, index verification or re-encryption ({@link MaintenanceJob}), or an overflow sweep
 * ({@link dev.stowage.overflow.OverflowSweeper}). Every job has the same shape: {@link #run} works
 * page by page, paced to the job's rate limit, reports a {@link JobProgress} after every page to
 * the listener of its options and to the log ({@code dev.stowage.jobs}), and returns the last one.
 * A job stopped part-way — by {@link #cancel}, an exception (including one thrown by the progress
 * listener) or the process ending — continues from the {@linkplain JobProgress#resumeToken resume
 * token} of its last report; a job whose reports carry no token (an overflow sweep) is idempotent
 * and simply runs again.
 *
 * <p>A job is run by one thread at a time; {@link #cancel} may be called from any thread.
 *
 * @param <P> the job's progress report
 */
public interface Job<P extends JobProgress> {

  /**
   * Runs until nothing is left or the job is cancelled.
   *
   * @return the last progress: {@link JobProgress#done()} is false if the job was cancelled
   */
  P run();

  /**
   * Asks the job to stop after the page it is working on: {@link #run} then returns a progress
   * report that is not done and whose resume token continues after that page. Cancelling a job that
   * is not running makes its next run stop before its first page.
   */
  void cancel();
}
