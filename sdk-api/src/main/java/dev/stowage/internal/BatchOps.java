package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.ReadOptions;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Batch get, put and delete of any size: validated up front, chunked to the driver's limits,
 * unprocessed entries retried with the store's backoff.
 */
final class BatchOps {
  private final CoreTable t;

  BatchOps(CoreTable t) {
    this.t = t;
  }

  Map<Key, Item> get(Collection<Key> keys, ReadOptions options) {
    List<Key> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
    distinct.forEach(t.keyRules::validate);
    Map<Key, StoredItem> found = readStored(distinct, options.consistentRead());
    List<Key> order = new ArrayList<>();
    List<StoredItem> stored = new ArrayList<>();
    for (Key k : distinct) {
      StoredItem s = found.get(k);
      if (s != null) {
        order.add(k);
        stored.add(s);
      }
    }
    List<Item> restored = restore(order, stored, options);
    Map<Key, Item> out = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) {
      Key k = order.get(i);
      if (restored.get(i) == null) {
        continue; // deleted while the batch was read
      }
      out.put(
          k,
          t.project(t.form.decode(restored.get(i), k, options.projection()), options.projection()));
    }
    return out;
  }

  private List<Item> restore(List<Key> keys, List<StoredItem> stored, ReadOptions options) {
    return t.restoreAll(stored.stream().map(StoredItem::item).toList(), options.projection());
  }

  /** Stored items by key, chunked and retried. */
  Map<Key, StoredItem> readStored(List<Key> keys, boolean consistent) {
    Map<Key, StoredItem> found = new HashMap<>();
    int chunk = t.shared.driver.limits().maxBatchGet();
    for (int from = 0; from < keys.size(); from += chunk) {
      List<Key> pending = keys.subList(from, Math.min(keys.size(), from + chunk));
      for (int attempt = 1; !pending.isEmpty(); attempt++) {
        List<Key> ask = pending;
        t.shared.metrics.reads.increment();
        BatchGetResult r =
            t.retrier.call(() -> t.shared.driver.batchGet(t.layout, ask, consistent));
        for (StoredItem s : r.items()) {
          found.put(t.spec.keySchema().keyOf(s.item()), s);
        }
        pending = r.unprocessed();
        backoffIfPending(pending.size(), attempt, "batch get");
      }
    }
    return found;
  }

  void put(List<Item> items) {
    List<Key> keys = new ArrayList<>();
    LinkedHashSet<Key> seen = new LinkedHashSet<>();
    for (Item item : items) {
      Key k = t.keyRules.validate(t.spec.keySchema().keyOf(item));
      if (!seen.add(k)) {
        throw new InvalidRequestException("batch put names " + k + " more than once");
      }
      keys.add(k);
    }
    // Encode and overflow everything before the first item is written, so bad input writes nothing.
    List<OverflowHandler.Prepared> prepared = new ArrayList<>();
    try {
      for (int i = 0; i < items.size(); i++) {
        prepared.add(t.overflowWrites.prepare(t.form.encode(items.get(i), keys.get(i), List.of())));
      }
    } catch (RuntimeException e) {
      t.overflowWrites.abandon(prepared);
      throw e;
    }
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      ops.add(new WriteOp.Put(keys.get(i), prepared.get(i).item()));
    }
    write(ops);
  }

  void delete(Collection<Key> keys) {
    List<Key> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
    distinct.forEach(t.keyRules::validate);
    // Read first so the overflow blobs of deleted items can be released after the deletes.
    Map<Key, StoredItem> stored = readStored(distinct, true);
    List<WriteOp> ops = new ArrayList<>();
    distinct.forEach(k -> ops.add(new WriteOp.Delete(k)));
    write(ops);
    t.overflowWrites.releaseAll(stored.values());
  }

  /** Applies writes in chunks, retrying unprocessed ones. */
  void write(List<WriteOp> ops) {
    int chunk = t.shared.driver.limits().maxBatchWrite();
    for (int from = 0; from < ops.size(); from += chunk) {
      List<WriteOp> pending = ops.subList(from, Math.min(ops.size(), from + chunk));
      for (int attempt = 1; !pending.isEmpty(); attempt++) {
        List<WriteOp> send = pending;
        t.shared.metrics.writes.increment();
        BatchWriteResult r = t.retrier.call(() -> t.shared.driver.batchWrite(t.layout, send));
        pending = r.unprocessed();
        backoffIfPending(pending.size(), attempt, "batch write");
      }
    }
  }

  private void backoffIfPending(int pending, int attempt, String what) {
    if (pending == 0) {
      return;
    }
    if (attempt >= t.shared.retrier.policy().maxAttempts()) {
      StowageException e =
          new ThrottledException(
              what + " left " + pending + " entries unprocessed after " + attempt + " attempts",
              null);
      throw e;
    }
    // Unprocessed entries are the backend's throttling of a batch: count the resend as a retry.
    t.retrier.unprocessed();
    Retrier.sleep(t.shared.retrier.policy().delayBefore(attempt, null));
  }
}
