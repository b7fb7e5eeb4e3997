package dev.stowage.migrate.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.Migrator;
import dev.stowage.migrate.Migrator.Misfit;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.WriteOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A page of stored source items written to the target: the writes the target should hold ({@link
 * #prepare}), cut into the target's calls of copies less those the checkpoint records ({@link
 * #calls}), each call's items made ready in parts ({@link #prepareWrites}) and written ({@link
 * #writeCall}). A run's writers ({@link PageWriters}) run these steps in parallel; {@link
 * Migrator#copy(List)} runs them one after another ({@link #copy}). Thread-safe.
 */
public final class PageCopies {
  private final Migration m;
  private final ItemCopies itemCopies;

  /** The page copies of {@code m}. */
  public PageCopies(Migration m) {
    this.m = m;
    this.itemCopies = new ItemCopies(m);
  }

  /**
   * A page's writes as the target should hold them, before blobs are copied, in the page's order
   * (the order the checkpoint's records count in).
   *
   * @param part the target's batch-write limit: how many writes one task prepares, and the size of
   *     the chunks earlier versions recorded ({@code chunk} records)
   * @param call most writes per call of {@link StorageDriver#batchWriteCopies}
   */
  record PreparedPage(
      List<WriteOp> writes, Set<Key> refit, DriverLimits limits, int part, int call) {}

  /**
   * One call of {@link StorageDriver#batchWriteCopies}: writes {@code [from, to)} of a page, the
   * unit the checkpoint records. Its parts fill {@code ready} (an item that turned out not to fit
   * leaves null); the part that counts {@code partsLeft} down to 0 writes the call, and sees what
   * every other part stored, as each stored before counting down.
   */
  record Call(int from, int to, WriteOp[] ready, AtomicInteger partsLeft) {
    Call(int from, int to, int part) {
      this(from, to, new WriteOp[to - from], new AtomicInteger((to - from + part - 1) / part));
    }
  }

  /** Copies stored items the caller read itself, as {@link Migrator#copy(List)} describes. */
  public Migrator.Report copy(List<Item> items) {
    long start = System.nanoTime();
    CopyCounters c = new CopyCounters();
    List<Misfit> misfits = Collections.synchronizedList(new ArrayList<>());
    List<StoredItem> stored = new ArrayList<>(items.size());
    for (Item item : items) {
      stored.add(new StoredItem(item, "-"));
    }
    copyPage(null, KeyText.START, KeyText.START, stored, c, null, misfits);
    return new Migrator.Report(c.progress(start, true), List.copyOf(misfits));
  }

  /** Copies a page on the calling thread, call after call ({@link Migrator#copy(List)}). */
  private void copyPage(
      Checkpoint cp,
      String start,
      String last,
      List<StoredItem> items,
      CopyCounters c,
      CopyCounters.Segment seg,
      List<Misfit> misfits) {
    PreparedPage page = prepare(items, misfits);
    for (Call call : calls(cp, start, page, c, seg)) {
      prepareWrites(page, call, call.from(), call.to(), c, misfits);
      writeCall(cp, start, call, c, seg);
    }
    if (cp != null) {
      cp.page(start, last, items.size());
    }
  }

  /**
   * The calls a page's writes take: each run of writes the checkpoint does not record as written,
   * in calls of at most {@link PreparedPage#call()} writes. Writes it records are counted as
   * skipped.
   */
  static List<Call> calls(
      Checkpoint cp, String start, PreparedPage page, CopyCounters c, CopyCounters.Segment seg) {
    int n = page.writes().size();
    BitSet done = cp == null ? new BitSet() : cp.written(start, n, page.part());
    int skipped = done.cardinality();
    if (skipped > 0) {
      c.skipped.add(skipped);
      if (seg != null) {
        seg.skipped.add(skipped);
      }
    }
    List<Call> calls = new ArrayList<>();
    for (int i = done.nextClearBit(0); i < n; i = done.nextClearBit(i)) {
      int end = done.nextSetBit(i);
      end = end < 0 ? n : end;
      for (int from = i; from < end; from += page.call()) {
        calls.add(new Call(from, Math.min(end, from + page.call()), page.part()));
      }
      i = end;
    }
    return calls;
  }

  /**
   * The page's writes as the target should hold them: the target's index values computed, items
   * that need the target's blob store to fit marked for refitting, and items that cannot be written
   * added to {@code misfits} instead.
   */
  PreparedPage prepare(List<StoredItem> items, List<Misfit> misfits) {
    DriverLimits limits = m.targetDriver().limits(m.targetLayout());
    List<WriteOp> writes = new ArrayList<>(items.size());
    Set<Key> refit = new HashSet<>();
    for (StoredItem s : items) {
      Item item = s.item();
      Key key = m.spec().keySchema().keyOf(item);
      if (itemCopies.indexedInBlob(item)) {
        // An attribute the target indexes may be in the source's overflow blob (the source does
        // not index it, so it may have overflowed): index values are computed after restoring.
        if (m.targetBlobs() == null) {
          misfits.add(
              new Misfit(
                  key,
                  "attributes the target indexes may be in the source's overflow blob: give a"
                      + " target blob store to overflow the item again"));
          continue;
        }
        refit.add(key);
        writes.add(new WriteOp.Put(key, item));
        continue;
      }
      try {
        item = StoredItems.withIndexValues(m.targetSpec(), limits, item);
      } catch (InvalidRequestException | ItemTooLargeException e) {
        misfits.add(new Misfit(key, e.getMessage()));
        continue;
      }
      String tooBig = ItemCopies.violation(limits, item);
      if (tooBig != null && m.targetBlobs() == null) {
        misfits.add(new Misfit(key, tooBig + " (give a target blob store to overflow it)"));
        continue;
      }
      if (tooBig != null) {
        refit.add(key);
      }
      writes.add(new WriteOp.Put(key, item));
    }
    int part = Math.max(1, limits.maxBatchWrite());
    int call = Math.max(1, m.targetDriver().maxBatchWriteCopies(m.targetLayout()));
    return new PreparedPage(writes, refit, limits, part, call);
  }

  /**
   * Prepares writes {@code [from, to)} of a page, part of {@code call}: copies their overflow blobs
   * (or refits items too large for the target), before the call writes any item.
   */
  void prepareWrites(
      PreparedPage page, Call call, int from, int to, CopyCounters c, List<Misfit> misfits) {
    c.awaitTarget();
    for (int i = from; i < to; i++) {
      WriteOp.Put put = (WriteOp.Put) page.writes().get(i);
      WriteOp ready;
      if (page.refit().contains(put.key())) {
        try {
          ready = itemCopies.refitted(put, page.limits(), c);
        } catch (ItemTooLargeException | InvalidRequestException e) {
          misfits.add(new Misfit(put.key(), e.getMessage()));
          continue;
        }
      } else {
        ready = itemCopies.withCopiedBlob(put, c);
      }
      call.ready()[i - call.from()] = ready;
    }
  }

  /** Writes a call whose parts are prepared, and records it in the checkpoint. */
  void writeCall(Checkpoint cp, String start, Call call, CopyCounters c, CopyCounters.Segment seg) {
    List<WriteOp> ops = new ArrayList<>(call.ready().length);
    for (WriteOp op : call.ready()) {
      if (op != null) {
        ops.add(op);
      }
    }
    writeAll(ops);
    c.items.add(ops.size());
    if (seg != null) {
      seg.copied.add(ops.size());
    }
    if (cp != null) {
      cp.wrote(start, call.from(), call.to());
    }
  }

  /**
   * Writes {@code ops} with the target's batch write of copies, again and again for the writes it
   * leaves unprocessed, backing off in between.
   */
  private void writeAll(List<WriteOp> ops) {
    List<WriteOp> left = ops;
    for (int attempt = 1; !left.isEmpty(); attempt++) {
      List<WriteOp> now = left;
      BatchWriteResult r =
          m.retry().call(() -> m.targetDriver().batchWriteCopies(m.targetLayout(), now));
      left = r.unprocessed();
      if (!left.isEmpty()) {
        backOff(m.retry().delayBefore(Math.min(attempt, 10), null));
      }
    }
  }

  private static void backOff(Duration delay) {
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying unprocessed writes", e);
    }
  }
}
