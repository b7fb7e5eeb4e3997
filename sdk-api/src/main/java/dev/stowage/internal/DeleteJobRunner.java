package dev.stowage.internal;

import dev.stowage.DeleteJob;
import dev.stowage.spi.Position;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.WriteOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a delete-by-query job: reads a page of matching items, deletes them (then their overflow
 * blobs), reports progress with a resume token, and paces itself to the rate limit. The token seals
 * the query, the position after the last completed page and the counts so far.
 */
final class DeleteJobRunner implements DeleteJob {
  private final CoreTable t;
  private final Options options;
  private CursorState state;

  DeleteJobRunner(CoreTable t, CursorState state, Options options) {
    this.t = t;
    this.state = state;
    this.options = options;
  }

  @Override
  public Progress run() {
    long startNanos = System.nanoTime();
    long matched = state.matched();
    long deleted = state.deleted();
    long blobs = state.blobsDeleted();
    long processedThisRun = 0;
    while (true) {
      CursorState readFrom = state.at(state.towardAfter(), state.anchor(), false);
      // A delete job reads in the query's own direction regardless of how it was started.
      readFrom = readFrom.at(!state.query().descending(), readFrom.anchor(), false);
      Pager.Fetched page = new Pager(t).fetch(readFrom, options.pageSize(), null);
      if (page.items().isEmpty()) {
        Progress done = progress(matched, deleted, blobs, startNanos, true);
        report(done);
        return done;
      }
      matched += page.items().size();
      processedThisRun += page.items().size();
      Position last = page.positions().get(page.positions().size() - 1);
      if (!options.dryRun()) {
        List<WriteOp> ops = new ArrayList<>();
        for (StoredItem s : page.stored()) {
          ops.add(new WriteOp.Delete(t.spec.keySchema().keyOf(s.item())));
        }
        new BatchOps(t).write(ops);
        deleted += ops.size();
        for (StoredItem s : page.stored()) {
          if (s.item().has(OverflowHandler.POINTER_ATTRIBUTE)) {
            t.overflowWrites.release(s.item());
            blobs++;
          }
        }
      }
      state = readFrom.at(readFrom.towardAfter(), last, false).withCounts(matched, deleted, blobs);
      report(progress(matched, deleted, blobs, startNanos, false));
      pace(startNanos, processedThisRun);
    }
  }

  private void pace(long startNanos, long doneThisRun) {
    if (options.maxItemsPerSecond() <= 0) {
      return;
    }
    double dueSeconds = doneThisRun / options.maxItemsPerSecond();
    long elapsedNanos = System.nanoTime() - startNanos;
    long waitMillis = (long) (dueSeconds * 1000) - elapsedNanos / 1_000_000;
    if (waitMillis > 0) {
      Retrier.sleep(Duration.ofMillis(waitMillis));
    }
  }

  private Progress progress(long matched, long deleted, long blobs, long startNanos, boolean done) {
    CursorState token =
        state
            .withCounts(matched, deleted, blobs)
            .expiring(t.shared.clock.millis() + Duration.ofDays(7).toMillis());
    return new Progress(
        matched,
        deleted,
        blobs,
        Duration.ofNanos(System.nanoTime() - startNanos),
        done,
        t.shared.sealer.seal(token));
  }

  private void report(Progress p) {
    JobLog.progress(
        options.dryRun() ? "delete job (dry run)" : "delete job",
        t.ref,
        p.done(),
        p.matched() + " matched, " + p.deleted() + " deleted, " + p.blobsDeleted() + " blobs");
    if (options.onProgress() != null) {
      options.onProgress().accept(p);
    }
  }
}
