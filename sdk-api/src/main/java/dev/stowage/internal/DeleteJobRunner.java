package dev.stowage.internal;

import dev.stowage.DeleteJob;
import dev.stowage.spi.Position;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.WriteOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a delete-by-query job. Each page is read with a projection of the key attributes (plus what
 * the query's filter tests), so no overflow blob is fetched and no encrypted value decrypted; the
 * stored items still carry their overflow pointers. The page's deletes go out in batches of the
 * driver's size, {@link DeleteJob#WRITERS} at a time, each batch's blobs released once its deletes
 * are in, while the calling thread reads the next page. Only when every batch of a page is done is
 * a progress report made, with a token for the position after that page's last item: the token
 * seals the query, that position and the counts so far, so a resumed job reads on from the first
 * item not known to be deleted and counts nothing twice.
 */
final class DeleteJobRunner extends JobLoop<DeleteJob.Progress> implements DeleteJob {
  private final CoreTable t;
  private final Options options;
  private final Set<String> keysOnly;
  private CursorState state;
  private long matched;
  private long deleted;
  private long blobs;
  private long matchedThisRun;
  // The page read ahead while the previous one was deleted; null before the first step.
  private Pager.Fetched next;
  private ExecutorService writers;

  DeleteJobRunner(CoreTable t, CursorState state, Options options) {
    super(options.maxItemsPerSecond(), options.onProgress());
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
  }

  @Override
  protected boolean step() {
    Pager.Fetched page = next != null ? next : read(state);
    next = null;
    if (page.items().isEmpty()) {
      return true;
    }
    Position last = page.positions().get(page.positions().size() - 1);
    CursorState after = state.at(state.towardAfter(), last, false);
    // A short page is the last one: the read stops early only when nothing more matches.
    boolean more = page.items().size() >= options.pageSize();
    if (options.dryRun()) {
      next = more ? read(after) : null;
    } else {
      List<CompletableFuture<Void>> batches = deleteAsync(page.stored());
      try {
        next = more ? read(after) : null;
      } finally {
        awaitAll(batches);
      }
      deleted += page.stored().size();
    }
    matched += page.items().size();
    matchedThisRun += page.items().size();
    state = after.withCounts(matched, deleted, blobs);
    return !more;
  }

  private Pager.Fetched read(CursorState from) {
    return new Pager(t).fetch(from, options.pageSize(), keysOnly, true);
  }

  /** Sends the deletes of a page in batches, each followed by the release of its blobs. */
  private List<CompletableFuture<Void>> deleteAsync(List<StoredItem> stored) {
    if (writers == null) {
      AtomicInteger n = new AtomicInteger();
      writers =
          Executors.newFixedThreadPool(
              WRITERS,
              r -> {
                Thread th = new Thread(r, "stowage-delete-job-" + n.incrementAndGet());
                th.setDaemon(true);
                return th;
              });
    }
    int chunk = t.shared.driver.limits().maxBatchWrite();
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (int from = 0; from < stored.size(); from += chunk) {
      List<StoredItem> batch = stored.subList(from, Math.min(stored.size(), from + chunk));
      futures.add(CompletableFuture.runAsync(() -> deleteBatch(batch), writers));
    }
    return futures;
  }

  private void deleteBatch(List<StoredItem> batch) {
    List<WriteOp> ops = new ArrayList<>(batch.size());
    for (StoredItem s : batch) {
      ops.add(new WriteOp.Delete(t.spec.keySchema().keyOf(s.item())));
    }
    new BatchOps(t).write(ops);
    long released = 0;
    for (StoredItem s : batch) {
      if (s.item().has(OverflowHandler.POINTER_ATTRIBUTE)) {
        t.overflowWrites.release(s.item());
        released++;
      }
    }
    addBlobs(released);
  }

  private synchronized void addBlobs(long n) {
    blobs += n;
  }

  /** Waits for every batch; the first failure is thrown once all have ended. */
  private static void awaitAll(List<CompletableFuture<Void>> batches) {
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
    if (writers != null) {
      writers.shutdown();
      writers = null;
    }
  }
}
