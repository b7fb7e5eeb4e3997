package dev.stowage.migrate.internal;

import dev.stowage.DeleteJob;
import dev.stowage.Job;
import dev.stowage.JobProgress;
import dev.stowage.MaintenanceJob;
import dev.stowage.Table;
import dev.stowage.query.Query;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The jobs of a {@link dev.stowage.migrate.MirroredTable}: a job on the old table, then the same
 * job on the new one, run as one job whose progress reports count both sides. Stateless.
 */
public final class MirroredJobs {
  private MirroredJobs() {}

  /** Deletes what {@code query} matches from {@code oldTable}, then from {@code newTable}. */
  public static DeleteJob deleteWhere(
      Table oldTable, Table newTable, Query query, DeleteJob.Options options) {
    BothSides<DeleteJob.Progress> both = new BothSides<>();
    return new DeleteJob() {
      @Override
      public DeleteJob.Progress run() {
        return both.run(
            () -> oldTable.deleteWhere(query, options),
            a -> {
              Consumer<DeleteJob.Progress> listener = options.onProgress();
              return newTable.deleteWhere(
                  query,
                  new DeleteJob.Options(
                      options.maxItemsPerSecond(),
                      options.pageSize(),
                      options.dryRun(),
                      listener == null ? null : p -> listener.accept(sum(a, p, false))));
            },
            (a, b) -> sum(a, b, true));
      }

      @Override
      public void cancel() {
        both.cancel();
      }
    };
  }

  /**
   * The maintenance job {@code start} makes of a table and options, run on {@code oldTable}, then
   * on {@code newTable}.
   */
  public static MaintenanceJob maintenance(
      Table oldTable,
      Table newTable,
      MaintenanceJob.Options options,
      BiFunction<Table, MaintenanceJob.Options, MaintenanceJob> start) {
    BothSides<MaintenanceJob.Progress> both = new BothSides<>();
    return new MaintenanceJob() {
      @Override
      public MaintenanceJob.Progress run() {
        return both.run(
            () -> start.apply(oldTable, options),
            a -> {
              Consumer<MaintenanceJob.Progress> listener = options.onProgress();
              return start.apply(
                  newTable,
                  new MaintenanceJob.Options(
                      options.maxItemsPerSecond(),
                      options.pageSize(),
                      options.dryRun(),
                      listener == null ? null : p -> listener.accept(sum(a, p, false))));
            },
            (a, b) -> sum(a, b, true));
      }

      @Override
      public void cancel() {
        both.cancel();
      }
    };
  }

  /**
   * Runs a job on the old table, then one on the new table; {@link #cancel} stops whichever runs (a
   * job cancelled on the old side returns that side's report, and the new side does not start).
   */
  private static final class BothSides<P extends JobProgress> {
    private volatile Job<P> running;
    private volatile boolean cancelled;

    P run(
        Supplier<? extends Job<P>> first,
        Function<P, ? extends Job<P>> second,
        BinaryOperator<P> sum) {
      P a = start(first.get());
      if (!a.done()) {
        return a;
      }
      return sum.apply(a, start(second.apply(a)));
    }

    private P start(Job<P> job) {
      running = job;
      if (cancelled) {
        job.cancel();
      }
      try {
        return job.run();
      } finally {
        running = null;
      }
    }

    void cancel() {
      cancelled = true;
      Job<P> j = running;
      if (j != null) {
        j.cancel();
      }
    }
  }

  private static DeleteJob.Progress sum(DeleteJob.Progress a, DeleteJob.Progress b, boolean done) {
    return new DeleteJob.Progress(
        a.matched() + b.matched(),
        a.deleted() + b.deleted(),
        a.blobsDeleted() + b.blobsDeleted(),
        a.elapsed().plus(b.elapsed() == null ? Duration.ZERO : b.elapsed()),
        done && b.done(),
        b.resumeToken());
  }

  private static MaintenanceJob.Progress sum(
      MaintenanceJob.Progress a, MaintenanceJob.Progress b, boolean done) {
    return new MaintenanceJob.Progress(
        a.scanned() + b.scanned(),
        a.rewritten() + b.rewritten(),
        a.stale() + b.stale(),
        a.missing() + b.missing(),
        a.skipped() + b.skipped(),
        a.elapsed().plus(b.elapsed()),
        done && b.done(),
        b.resumeToken());
  }
}
