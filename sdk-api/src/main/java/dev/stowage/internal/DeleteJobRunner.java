package dev.stowage.internal;

import dev.stowage.DeleteJob;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.Position;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.WriteOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a delete-by-query job. Each page is read with a projection of the key attributes (plus what
 * the query's filter tests), so no overflow blob is fetched and no encrypted value decrypted; the
 * stored items still carry their overflow pointers. The page's deletes go out in batches of the
 * driver's size, {@link DeleteJob.Options#parallelism} at a time, each batch's blobs released once
 * its deletes are in, while the calling thread reads the next page. Only when every batch of a page
 * is done is a progress report made, with a token for the position after that page's last item: the
 * token seals the query, that position and the counts so far, so a resumed job reads on from the
 * first item not known to be deleted and counts nothing twice. The next page's batches are sent
 * only after that report, so a report's counts are exact: no item past its token has been deleted
 * by this run (a job stopped right after a report leaves exactly what the token says). A run that
 * stops on a failure lets the batches being sent finish, sends no queued one, and returns only when
 * no batch is running.
 *
 * <p>The rate limit spaces batches as they are sent, from every writer thread, so the items deleted
 * by time {@code t} never exceed the rate times {@code t} plus one batch; a dry run, which sends
 * nothing, is paced between pages instead.
 */
final class DeleteJobRunner extends JobLoop<DeleteJob.Progress> implements DeleteJob {
  private final CoreTable t;
  private final Options options;
  private final Set<String> keysOnly;
  private final Pacer pacer;
  private CursorState state;
  private long matched;
  private long deleted;
  private long blobs;
  private long matchedThisRun;
  // The page read ahead while the previous one was deleted; null before the first step.
  private Pager.Fetched next;
  private ExecutorService writers;
  // Set when a run ends: batches still queued then are not sent.
  private volatile boolean stopping;
  // Set when a step failed after deletes of this run landed that no report counted yet.
  private boolean failedWithDeletes;

  DeleteJobRunner(CoreTable t, CursorState state, Options options) {
    // Deletes are paced per batch by the pacer; a dry run by the loop, between pages.
    super(options.dryRun() ? options.maxItemsPerSecond() : 0, options.onProgress());
    this.t = t;
    this.options = options;
    // A delete job reads in the query's own direction regardless of how it was started.
    this.state = state.at(!state.query().descending(), state.anchor(), false);
    this.matched = state.matched();
    this.deleted = state.deleted();
    this.blobs = state.blobsDeleted();
    Set<String> keys = new HashSet<>();
    keys.add(t.spec.keySchema().partitionName());
    t.spec.keySchema().sortName().ifPresent(keys::add);
    this.keysOnly = Set.copyOf(keys);
    this.pacer =
        !options.dryRun() && options.maxItemsPerSecond() > 0
            ? new Pacer(options.maxItemsPerSecond())
            : null;
  }

  @Override
  protected boolean step() {
    stopping = false;
    Pager.Fetched page = next != null ? next : read(state);
    next = null;
    if (page.items().isEmpty()) {
      return true;
    }
    CursorState after = after(page);
    // A short page is the last one: the read stops early only when nothing more matches.
    boolean more = page.items().size() >= options.pageSize();
    if (options.dryRun()) {
      next = more ? read(after) : null;
    } else {
      PageInFlight batches = send(page);
      RuntimeException readFailed = null;
      try {
        next = more ? read(after) : null;
      } catch (RuntimeException e) {
        readFailed = e;
      }
      try {
        batches.await();
      } catch (RuntimeException e) {
        // The batches that succeeded deleted their items: a run resumed from the last token reads
        // the page again without them, so they are counted now or never (failedStepProgress
        // reports them at the page's start).
        long done = batches.items.get();
        synchronized (this) {
          matched += done;
          deleted += done;
          matchedThisRun += done;
          blobs += batches.blobs.get();
          state = state.withCounts(matched, deleted, blobs);
          failedWithDeletes = done > 0;
        }
        if (readFailed != null) {
          e.addSuppressed(readFailed);
        }
        throw e;
      }
      if (readFailed != null) {
        // Every batch of the page is in: the page is done and reported as such before the read
        // of the next one fails the run.
        finishPage(page, after, batches);
        failedWithDeletes = true;
        throw readFailed;
      }
      finishPage(page, after, batches);
      return !more;
    }
    matched += page.items().size();
    matchedThisRun += page.items().size();
    synchronized (this) {
      state = after.withCounts(matched, deleted, blobs);
    }
    return !more;
  }

  /** Counts a page whose every batch is in and moves the position past it. */
  private void finishPage(Pager.Fetched page, CursorState after, PageInFlight batches) {
    synchronized (this) {
      deleted += page.items().size();
      blobs += batches.blobs.get();
      matched += page.items().size();
      matchedThisRun += page.items().size();
      state = after.withCounts(matched, deleted, blobs);
    }
  }

  private CursorState after(Pager.Fetched page) {
    Position last = page.positions().get(page.positions().size() - 1);
    return state.at(state.towardAfter(), last, false);
  }

  private Pager.Fetched read(CursorState from) {
    return new Pager(t).fetch(from, options.pageSize(), keysOnly, true);
  }

  /** Sends the deletes of a page in batches, {@code parallelism} at a time. */
  private PageInFlight send(Pager.Fetched page) {
    PageInFlight p = new PageInFlight();
    if (writers == null) {
      AtomicInteger n = new AtomicInteger();
      writers =
          Executors.newFixedThreadPool(
              options.parallelism(),
              r -> {
                Thread th = new Thread(r, "stowage-delete-job-" + n.incrementAndGet());
                th.setDaemon(true);
                return th;
              });
    }
    List<StoredItem> stored = byPartition(page.stored());
    int chunk = t.shared.driver.limits().maxBatchWrite();
    for (int from = 0; from < stored.size(); from += chunk) {
      List<StoredItem> batch = stored.subList(from, Math.min(stored.size(), from + chunk));
      p.batches.add(CompletableFuture.runAsync(() -> deleteBatch(batch, p), writers));
    }
    return p;
  }

  /**
   * The page's items with each partition's items next to each other (partitions in the order of
   * their first item, items in page order within one), so that a batch spans as few partitions as
   * the page allows. An index page interleaves the partitions of its items; a driver whose batches
   * are transactions per partition (Azure Tables) sends one per partition a batch touches. Which
   * item of a page goes first does not matter: the page is reported only when all are deleted.
   */
  private List<StoredItem> byPartition(List<StoredItem> stored) {
    Map<KeyValue, List<StoredItem>> groups = new LinkedHashMap<>();
    for (StoredItem s : stored) {
      groups
          .computeIfAbsent(t.spec.keySchema().keyOf(s.item()).partition(), p -> new ArrayList<>())
          .add(s);
    }
    if (groups.size() == stored.size()) {
      return stored; // one item per partition: nothing to group
    }
    List<StoredItem> grouped = new ArrayList<>(stored.size());
    groups.values().forEach(grouped::addAll);
    return grouped;
  }

  private void deleteBatch(List<StoredItem> batch, PageInFlight page) {
    if (stopping) {
      throw new CancellationException("the delete job stopped before this batch was sent");
    }
    if (pacer != null) {
      pacer.await(batch.size());
    }
    List<WriteOp> ops = new ArrayList<>(batch.size());
    for (StoredItem s : batch) {
      ops.add(new WriteOp.Delete(t.spec.keySchema().keyOf(s.item())));
    }
    new BatchOps(t).write(ops);
    page.items.addAndGet(batch.size());
    long released = 0;
    for (StoredItem s : batch) {
      if (s.item().has(OverflowHandler.POINTER_ATTRIBUTE)) {
        t.overflowWrites.release(s.item());
        released++;
      }
    }
    page.blobs.addAndGet(released);
  }

  /** The batches of a page, queued or being sent, and the blobs they released. */
  private static final class PageInFlight {
    final List<CompletableFuture<Void>> batches = new ArrayList<>();
    final AtomicLong blobs = new AtomicLong();
    // Items of the batches whose deletes are in.
    final AtomicLong items = new AtomicLong();

    /** Waits for every batch; the first failure is thrown once all have ended. */
    void await() {
      RuntimeException first = null;
      for (CompletableFuture<Void> f : batches) {
        try {
          f.join();
        } catch (CompletionException e) {
          if (e.getCause() instanceof Error err) {
            throw err;
          }
          if (first == null) {
            first =
                e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException("a delete batch failed", e.getCause());
          }
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }

  /**
   * Spaces the batches of every writer thread: a batch of {@code n} items is sent no earlier than
   * {@code n / rate} seconds after the previous batch's slot, and a pause (a slow page) earns no
   * burst afterwards.
   */
  private static final class Pacer {
    private final double nanosPerItem;
    private long nextNanos = Long.MIN_VALUE;

    Pacer(double itemsPerSecond) {
      this.nanosPerItem = 1e9 / itemsPerSecond;
    }

    void await(int items) {
      long waitNanos;
      synchronized (this) {
        long now = System.nanoTime();
        long slot = nextNanos == Long.MIN_VALUE || nextNanos - now < 0 ? now : nextNanos;
        nextNanos = slot + (long) (items * nanosPerItem);
        waitNanos = slot - now;
      }
      if (waitNanos > 0) {
        // Whole milliseconds, rounded up: a batch is never sent before its slot.
        Retrier.sleep(Duration.ofMillis((waitNanos + 999_999) / 1_000_000));
      }
    }
  }

  @Override
  protected long unitsThisRun() {
    return matchedThisRun;
  }

  @Override
  protected synchronized Progress progress(Duration elapsed, boolean done) {
    CursorState token =
        state
            .withCounts(matched, deleted, blobs)
            .expiring(t.shared.clock.millis() + Duration.ofDays(7).toMillis());
    return new Progress(matched, deleted, blobs, elapsed, done, t.shared.sealer.seal(token));
  }

  @Override
  protected synchronized Progress failedStepProgress(Duration elapsed) {
    if (!failedWithDeletes) {
      return null;
    }
    failedWithDeletes = false;
    return progress(elapsed, false);
  }

  @Override
  protected String name() {
    return options.dryRun() ? "delete job (dry run)" : "delete job";
  }

  @Override
  protected Object target() {
    return t.ref;
  }

  @Override
  protected String counts(Progress p) {
    return p.matched() + " matched, " + p.deleted() + " deleted, " + p.blobsDeleted() + " blobs";
  }

  @Override
  protected void close() {
    next = null;
    stopping = true;
    if (writers != null) {
      // Queued batches end at once (stopping); the ones being sent are waited for, so no delete
      // of this run lands after run() returns, while a resumed run may read the same items.
      writers.shutdown();
      try {
        while (!writers.awaitTermination(1, TimeUnit.SECONDS)) {
          // a batch is still being sent (and retried)
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      writers = null;
    }
  }
}
