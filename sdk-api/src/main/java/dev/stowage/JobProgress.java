package dev.stowage;

import java.time.Duration;

/**
 * What every job's progress report tells, whatever the job counts besides (see {@link Job}). {@link
 * DeleteJob.Progress}, {@link MaintenanceJob.Progress} and {@link
 * dev.stowage.overflow.OverflowSweeper.Report} implement it.
 */
public interface JobProgress {

  /** Time spent in this run of the job. */
  Duration elapsed();

  /** True once nothing is left to do; false in every report before the last, and if cancelled. */
  boolean done();

  /**
   * A token that resumes the job after the last completed page (pass it to the job's resume method,
   * for example {@link Table#resumeDelete} or {@link Table#resumeMaintenance}), or null for a job
   * that does not resume but runs again from the start (an overflow sweep, which is idempotent).
   */
  String resumeToken();
}
