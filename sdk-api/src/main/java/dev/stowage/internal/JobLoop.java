package dev.stowage.internal;

import dev.stowage.Job;
import dev.stowage.JobProgress;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The loop every Stowage job runs (delete by query, index backfill and verification, re-encryption,
 * overflow sweeps): one page at a time, a progress report after each page to the log and to the
 * job's listener, pacing to the rate limit between pages, and a stop between pages when cancelled.
 * A job supplies its page step and its progress report; what a page is and what the resume token
 * holds is the job's own.
 *
 * @param <P> the job's progress report
 */
public abstract class JobLoop<P extends JobProgress> implements Job<P> {
  private final double maxUnitsPerSecond;
  private final Consumer<? super P> listener;
  private volatile boolean cancelled;
  private long startNanos;

  /**
   * @param maxUnitsPerSecond the rate limit in the job's units (items or blobs), 0 for none
   * @param listener receives every report, or null
   */
  protected JobLoop(double maxUnitsPerSecond, Consumer<? super P> listener) {
    this.maxUnitsPerSecond = maxUnitsPerSecond;
    this.listener = listener;
  }

  /**
   * Does one page of work. Everything the page did must be reflected in the next {@link #progress}
   * (and its resume token) when this returns.
   *
   * @return true if nothing is left after this page
   */
  protected abstract boolean step();

  /** Units of work (for the rate limit) done in this run so far. */
  protected abstract long unitsThisRun();

  /** The progress so far. */
  protected abstract P progress(Duration elapsed, boolean done);

  /** What the job is, for the log, for example {@code delete job (dry run)}. */
  protected abstract String name();

  /** What the job works on, for the log: a table or a blob prefix. */
  protected abstract Object target();

  /** The counts of a report, for the log, for example {@code 200 matched, 200 deleted}. */
  protected abstract String counts(P progress);

  /** Called once when a run ends, however it ends, to release what the run holds. */
  protected void close() {}

  /**
   * A report to make when {@link #step} failed, before the failure is thrown, or null for none (the
   * default). A job whose failed step did work that a resumed run cannot see again (deletes that
   * landed) reports it here, at the same position, so that the last token carries it.
   */
  protected P failedStepProgress(Duration elapsed) {
    return null;
  }

  @Override
  public final P run() {
    startNanos = System.nanoTime();
    try {
      while (true) {
        if (cancelled) {
          cancelled = false;
          P p = progress(elapsed(), false);
          JobLog.progress(name() + " (cancelled)", target(), true, counts(p));
          notify(p);
          return p;
        }
        boolean done;
        try {
          done = step();
        } catch (RuntimeException e) {
          P p = failedStepProgress(elapsed());
          if (p != null) {
            JobLog.progress(name() + " (failed)", target(), false, counts(p));
            notify(p);
          }
          throw e;
        }
        P p = progress(elapsed(), done);
        JobLog.progress(name(), target(), done, counts(p));
        notify(p);
        if (done) {
          return p;
        }
        pace();
      }
    } finally {
      close();
    }
  }

  @Override
  public final void cancel() {
    cancelled = true;
  }

  /** Waits until the units done in this run are within the rate limit. */
  protected final void pace() {
    if (maxUnitsPerSecond <= 0) {
      return;
    }
    long dueMillis = (long) (unitsThisRun() / maxUnitsPerSecond * 1000);
    long waitMillis = dueMillis - (System.nanoTime() - startNanos) / 1_000_000;
    if (waitMillis > 0) {
      Retrier.sleep(Duration.ofMillis(waitMillis));
    }
  }

  private Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  private void notify(P p) {
    if (listener != null) {
      listener.accept(p);
    }
  }
}
