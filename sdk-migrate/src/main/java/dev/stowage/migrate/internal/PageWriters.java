package dev.stowage.migrate.internal;

import dev.stowage.migrate.internal.PageCopies.Call;
import dev.stowage.migrate.internal.PageCopies.PreparedPage;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writers of a run: the pages its readers hand over ({@link #dispatch}) are prepared and
 * written by the run's pool of {@link Migration#parallelism()} threads, a part of a call per task,
 * with at most {@code parallelism × 2} parts queued or being written. Thread-safe: every reader
 * hands its pages to the same writers.
 */
final class PageWriters {
  private final CopyRun run;
  private final PageCopies pages;
  private final ExecutorService pool;

  /**
   * Batch writes queued or being written: enough to keep every writer busy while the readers block,
   * few enough that reading stays at most a few pages ahead of writing.
   */
  private final Semaphore inFlight;

  PageWriters(CopyRun run, PageCopies pages, ExecutorService pool) {
    this.run = run;
    this.pages = pages;
    this.pool = pool;
    this.inFlight = new Semaphore(run.m.parallelism() * 2);
  }

  /**
   * Hands a page to the writers. The page's writes not yet recorded as written are cut into calls
   * of the target's {@link StorageDriver#maxBatchWriteCopies} (its batch-write limit, unless it
   * groups a call's writes by partition itself and takes more); the checkpoint records each call
   * when it is in. A call's items are prepared (overflow blobs copied, items refitted) in parts of
   * the target's batch-write limit, each part its own task, so the blobs of a large call are copied
   * in parallel and a writer that finishes moves on to whatever part is next, of this page or of
   * another segment's; whichever part of a call ends last writes the call. Blocks while {@code
   * parallelism × 2} parts are queued or being written (so reading runs at most a few pages ahead).
   * The page is recorded by whichever of its calls ends last, and only if every one of them
   * succeeded, so a resumed run never skips an unwritten item.
   *
   * @param seg the page's segment, or null for a page of a sequential scan
   */
  void dispatch(
      Checkpoint cp, String start, String last, List<StoredItem> items, CopyCounters.Segment seg) {
    CopyCounters c = run.counters;
    PreparedPage page = pages.prepare(items, run.misfits);
    List<Call> calls = PageCopies.calls(cp, start, page, c, seg);
    if (calls.isEmpty()) {
      if (cp != null) {
        cp.page(start, last, items.size());
      }
      return;
    }
    AtomicInteger left = new AtomicInteger(calls.size());
    AtomicBoolean incomplete = new AtomicBoolean();
    for (Call call : calls) {
      for (int from = call.from(); from < call.to(); from += page.part()) {
        if (run.stopped()) {
          if (seg != null) {
            seg.abandoned = true; // the rest of the page is left to a resumed run
          }
          return;
        }
        int partFrom = from;
        int partTo = Math.min(call.to(), from + page.part());
        acquire(inFlight);
        if (seg != null) {
          seg.pending.incrementAndGet();
        }
        pool.execute(
            () -> {
              boolean written = false;
              try {
                if (run.stopped()) {
                  // Not started: its call is left to a resumed run, which finds it missing from
                  // the checkpoint.
                  incomplete.set(true);
                  if (seg != null) {
                    seg.abandoned = true;
                  }
                  return;
                }
                pages.prepareWrites(page, call, partFrom, partTo, c, run.misfits);
                if (call.partsLeft().decrementAndGet() == 0) {
                  pages.writeCall(cp, start, call, c, seg);
                  written = true;
                }
              } catch (RuntimeException e) {
                incomplete.set(true);
                if (seg != null) {
                  seg.abandoned = true;
                }
                run.fail(e);
              } finally {
                if (seg != null) {
                  seg.pending.decrementAndGet();
                }
                inFlight.release();
              }
              if (written && left.decrementAndGet() == 0 && !incomplete.get() && cp != null) {
                try {
                  cp.page(start, last, items.size());
                } catch (RuntimeException e) {
                  run.fail(e);
                }
              }
            });
      }
    }
  }

  private static void acquire(Semaphore s) {
    try {
      s.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
