package dev.stowage.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the progress of Stowage's jobs (delete by query, index backfill and verification,
 * re-encryption, overflow sweeps) under the logger {@code dev.stowage.jobs}: each step at DEBUG,
 * the end at INFO, items skipped at WARN. Listeners given to the jobs receive the same progress as
 * values. Stateless and thread-safe.
 */
public final class JobLog {
  private static final Logger LOG = LoggerFactory.getLogger("dev.stowage.jobs");

  private JobLog() {}

  /**
   * One progress report.
   *
   * @param job what runs, for example {@code delete job}
   * @param target the table or blob prefix it works on
   * @param done true for the final report
   * @param counts the counts so far, for example {@code 200 matched, 200 deleted}
   */
  public static void progress(String job, Object target, boolean done, String counts) {
    if (done) {
      LOG.info("{} on {} done: {}", job, target, counts);
    } else {
      LOG.debug("{} on {}: {}", job, target, counts);
    }
  }

  /**
   * An item a job could not process and went past, at WARN.
   *
   * @param job what runs
   * @param target the table it works on
   * @param key the item's key
   * @param why the reason, for example the refusal's message
   */
  public static void skipped(String job, Object target, Object key, String why) {
    LOG.warn("{} on {}: skipped item {}: {}", job, target, key, why);
  }
}
