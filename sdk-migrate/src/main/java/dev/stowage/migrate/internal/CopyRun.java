package dev.stowage.migrate.internal;

import dev.stowage.item.Key;
import dev.stowage.migrate.Migrator;
import dev.stowage.migrate.Migrator.Misfit;
import dev.stowage.migrate.Migrator.Progress;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * One {@link Migrator#run()}: opens the checkpoint and the source, creates the target table while
 * the source is read, reads the source in segments ({@link SegmentRunner}) or with one scan, hands
 * each page to the {@link PageWriters}, and reports progress and the outcome. The first failure
 * stops the run (pages being written finish) and is thrown at its end. Used once, by one thread
 * (which starts the readers and writers).
 */
public final class CopyRun {
  /**
   * The migrator's logger: a run's messages are the migrator's, under the name users configure
   * logging for.
   */
  static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Migrator.class);

  final Migration m;
  private final PageCopies pages;
  private final BooleanSupplier cancelled;
  private final long start = System.nanoTime();
  final CopyCounters counters = new CopyCounters();
  final List<Misfit> misfits = Collections.synchronizedList(new ArrayList<>());
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

  /**
   * A run of {@code m}, writing with {@code pages}, that stops starting pages once {@code
   * cancelled} is true.
   */
  public CopyRun(Migration m, PageCopies pages, BooleanSupplier cancelled) {
    this.m = m;
    this.pages = pages;
    this.cancelled = cancelled;
  }

  /** Runs the copy, as {@link Migrator#run()} describes. */
  public Migrator.Report run() {
    ExecutorService pool = Executors.newFixedThreadPool(m.parallelism(), daemonThreads());
    PageWriters writers = new PageWriters(this, pages, pool);
    // The checkpoint is opened (and checked against both sides) before anything else.
    try (Checkpoint cp =
        m.checkpointFile() == null
            ? null
            : Checkpoint.open(m.checkpointFile(), m.sourceSide(), m.targetSide())) {
      m.retry().run(() -> m.sourceDriver().openTable(m.sourceLayout()));
      // The target's table and indexes are created while the source's segments are planned and
      // their first pages read: only the batch writes wait for it (the first writer task runs it,
      // ahead of every batch in the pool's queue). A source that cannot be opened creates nothing.
      counters.targetReady =
          CompletableFuture.runAsync(
              () -> m.retry().run(() -> m.targetDriver().ensureTable(m.targetLayout())), pool);
      if (segmented(cp)) {
        new SegmentRunner(this, writers).copySegments(cp);
      } else {
        copySequentially(cp, writers);
      }
      pool.shutdown();
      awaitQuietly(pool);
      if (failure.get() == null) {
        try {
          // A source with nothing to copy still gets its target table; a failure to create it
          // fails the run.
          counters.awaitTarget();
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    if (cancelled.getAsBoolean()) {
      Progress stopped = counters.progress(start, false);
      LOG.info(
          "migration of {} to {} cancelled: {} items copied, {} skipped{}",
          m.sourceLayout().ref(),
          m.targetLayout().ref(),
          stopped.itemsCopied(),
          stopped.itemsSkipped(),
          m.checkpointFile() == null ? "" : "; resume with checkpoint " + m.checkpointFile());
      if (m.onProgress() != null) {
        m.onProgress().accept(stopped);
      }
      return new Migrator.Report(stopped, List.copyOf(misfits));
    }
    Progress done = counters.progress(start, true);
    LOG.info(
        "migrated {} to {}: {} items copied, {} skipped, {} blobs, {} missing blobs, {} not"
            + " fitting the target, in {}",
        m.sourceLayout().ref(),
        m.targetLayout().ref(),
        done.itemsCopied(),
        done.itemsSkipped(),
        done.blobsCopied(),
        done.missingBlobs(),
        misfits.size(),
        done.elapsed());
    misfits.stream()
        .limit(20)
        .forEach(
            f ->
                LOG.warn(
                    "not copied to {}: item {}: {}", m.targetLayout().ref(), f.key(), f.reason()));
    if (m.onProgress() != null) {
      m.onProgress().accept(done);
    }
    return new Migrator.Report(done, List.copyOf(misfits));
  }

  /** True once the run failed or was cancelled: no further page or part of one is started. */
  boolean stopped() {
    return failure.get() != null || cancelled.getAsBoolean();
  }

  /** Stops the run with {@code e}, unless it already failed; the first failure is thrown. */
  void fail(RuntimeException e) {
    failure.compareAndSet(null, e);
  }

  /**
   * True if the source is read in segments: it can scan in segments, and the checkpoint (if any)
   * was not written by a sequential run, whose pages only a sequential scan continues.
   */
  private boolean segmented(Checkpoint cp) {
    return m.sourceDriver().capabilities().contains(Capability.SEGMENTED_SCANS)
        && (cp == null || !cp.sequential());
  }

  /** One scan of the whole source, for a source without segmented scans or an older checkpoint. */
  private void copySequentially(Checkpoint cp, PageWriters writers) {
    String pageStart = cp == null ? KeyText.START : cp.resumeFrom();
    counters.skipped.add(cp == null ? 0 : cp.itemsBeforeResume());
    LOG.info(
        "migrating {} to {}{}",
        m.sourceSide().describe(),
        m.targetSide().describe(),
        counters.skipped.sum() == 0 ? "" : ", resuming after " + counters.skipped.sum() + " items");
    while (!stopped()) {
      Key exclusive = pageStart.equals(KeyText.START) ? null : KeyText.decode(pageStart);
      QueryResult page =
          m.retry()
              .call(
                  () ->
                      m.sourceDriver()
                          .scan(m.sourceLayout(), new DriverScan(m.pageSize(), exclusive, true)));
      if (page.items().isEmpty()) {
        break;
      }
      Key last = m.spec().keySchema().keyOf(page.items().get(page.items().size() - 1).item());
      String thisStart = pageStart;
      String lastText = KeyText.encode(last);
      if (cp != null && cp.pageDone(thisStart)) {
        counters.skipped.add(page.items().size());
      } else {
        try {
          writers.dispatch(cp, thisStart, lastText, page.items(), null);
        } catch (RuntimeException e) {
          // Stops the run like a failed write: the batches in flight end before run() throws.
          fail(e);
          break;
        }
      }
      report();
      if (!page.more()) {
        break;
      }
      pageStart = lastText;
    }
  }

  /**
   * Reports progress after a page to the listener (and the debug log), from the reading thread; one
   * report at a time, so the listener sees them in turn.
   */
  synchronized void report() {
    if (m.onProgress() != null || LOG.isDebugEnabled()) {
      Progress p = counters.progress(start, false);
      LOG.debug(
          "migrating {}: {} items copied, {} skipped, {} blobs",
          m.sourceLayout().ref(),
          p.itemsCopied(),
          p.itemsSkipped(),
          p.blobsCopied());
      if (m.onProgress() != null) {
        m.onProgress().accept(p);
      }
    }
  }

  /** Waits for a pool that was shut down to finish its tasks. */
  static void awaitQuietly(ExecutorService pool) {
    try {
      while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
        // keep waiting for in-flight pages
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The run's threads: daemons, so a run left behind never keeps the JVM alive. */
  static ThreadFactory daemonThreads() {
    return r -> {
      Thread t = new Thread(r, "stowage-migrate");
      t.setDaemon(true);
      return t;
    };
  }
}
