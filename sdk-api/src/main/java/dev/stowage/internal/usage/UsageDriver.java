package dev.stowage.internal.usage;

import dev.stowage.ThrottledException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A driver that counts what each request uses ({@link UsageRecorder}): requests, items, bytes and
 * DynamoDB-rule capacity units per table, and the partition keys each request touched, for the
 * hot-key rankings of the table and its indexes. Thread-safe if the delegate is.
 */
public final class UsageDriver extends ForwardingDriver {
  private static final int WRITE_UNIT = 1024;
  private static final int READ_UNIT = 4096;

  private final UsageRecorder recorder;
  private volatile dev.stowage.spi.CapacityListener downstream =
      dev.stowage.spi.CapacityListener.NONE;

  /**
   * Wraps {@code delegate}; closing this closes it. Listens to the billable units the delegate
   * reports (counted from now, the usage's own window) and passes them on to the listener the core
   * sets.
   */
  public UsageDriver(StorageDriver delegate, UsageRecorder recorder) {
    super(delegate);
    this.recorder = recorder;
    delegate.capacityListener(
        (table, index, read, write, delete) -> {
          recorder.reported(table, index, read, write, delete);
          downstream.consumed(table, index, read, write, delete);
        });
  }

  @Override
  public void capacityListener(dev.stowage.spi.CapacityListener listener) {
    downstream = java.util.Objects.requireNonNull(listener, "listener");
  }

  private long bytes(TableLayout t, Item item) {
    return dev.stowage.internal.ItemAccess.itemBytes(item, delegate.limits(t).sizeModel());
  }

  private static long units(long bytes, int unit) {
    return Math.max(1, (bytes + unit - 1) / unit);
  }

  /**
   * Runs {@code call}; on throttling counts it, the units it asked for as demand, and touches
   * {@code keys} as throttled.
   */
  private <T> T run(
      TableLayout t, List<Key> keys, long askedWrites, long askedHalfReads, Supplier<T> call) {
    if (t == null) {
      return call.get();
    }
    try {
      return call.get();
    } catch (ThrottledException e) {
      recorder.table(t.ref()).throttled.increment();
      recorder.demand(t.ref(), askedWrites, askedHalfReads);
      for (Key k : keys) {
        recorder.touch(t.ref(), "", k.partition(), false, 0, true);
      }
      throw e;
    }
  }

  private void read(TableLayout t, Key key, Optional<StoredItem> item, boolean consistent) {
    var c = recorder.table(t.ref());
    long b = item.map(s -> bytes(t, s.item())).orElse(0L);
    long half = units(b, READ_UNIT) * (consistent ? 2 : 1);
    c.halfReadUnits.add(half);
    recorder.demand(t.ref(), 0, half);
    if (item.isPresent()) {
      c.itemsRead.increment();
      c.bytesRead.add(b);
    }
    recorder.touch(t.ref(), "", key.partition(), false, b, false);
  }

  private void written(TableLayout t, Key key, Item item, int multiplier) {
    var c = recorder.table(t.ref());
    long b = bytes(t, item);
    long wcu = units(b, WRITE_UNIT);
    c.itemsWritten.increment();
    c.bytesWritten.add(b);
    c.writeUnits.add(wcu * multiplier);
    recorder.demand(t.ref(), wcu * multiplier, 0);
    recorder.touch(t.ref(), "", key.partition(), false, b, false);
    for (IndexLayout ix : t.indexes()) {
      AttributeValue v = item.attributes().get(ix.partitionAttribute());
      if (v instanceof KeyValue kv) {
        c.writeUnits.add(wcu * multiplier);
        recorder.demand(t.ref(), wcu * multiplier, 0);
        recorder.touch(t.ref(), ix.name(), kv, !ix.isNative(), b, false);
      }
    }
  }

  private void deleted(TableLayout t, Key key, Optional<StoredItem> previous, int multiplier) {
    var c = recorder.table(t.ref());
    c.itemsDeleted.increment();
    long wcu = units(previous.map(s -> bytes(t, s.item())).orElse(0L), WRITE_UNIT);
    c.writeUnits.add(wcu * multiplier);
    recorder.demand(t.ref(), wcu * multiplier, 0);
    recorder.touch(t.ref(), "", key.partition(), false, 0, false);
    if (previous.isPresent()) {
      Map<String, AttributeValue> a = previous.get().item().attributes();
      for (IndexLayout ix : t.indexes()) {
        if (a.get(ix.partitionAttribute()) instanceof KeyValue kv) {
          c.writeUnits.add(wcu * multiplier);
          recorder.demand(t.ref(), wcu * multiplier, 0);
          recorder.touch(t.ref(), ix.name(), kv, !ix.isNative(), 0, false);
        }
      }
    }
  }

  /** The write units a put of {@code item} asks for: its own and one copy per index it is in. */
  private long askedWrites(TableLayout t, Item item) {
    long wcu = units(bytes(t, item), WRITE_UNIT);
    long n = wcu;
    for (IndexLayout ix : t.indexes()) {
      if (item.attributes().get(ix.partitionAttribute()) instanceof KeyValue) {
        n += wcu;
      }
    }
    return n;
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    recorder.table(table.ref()).reads.increment();
    Optional<StoredItem> r =
        run(
            table,
            List.of(key),
            0,
            consistentRead ? 2 : 1,
            () -> delegate.get(table, key, consistentRead));
    read(table, key, r, consistentRead);
    return r;
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    recorder.table(table.ref()).reads.increment();
    BatchGetResult r =
        run(
            table,
            keys,
            0,
            keys.size() * (consistentRead ? 2L : 1L),
            () -> delegate.batchGet(table, keys, consistentRead));
    Set<Key> found = new HashSet<>();
    for (StoredItem s : r.items()) {
      Key k = keyOf(table, s.item());
      if (k != null) {
        found.add(k);
        read(table, k, Optional.of(s), consistentRead);
      }
    }
    Set<Key> unprocessed = Set.copyOf(r.unprocessed());
    for (Key k : keys) {
      if (!found.contains(k) && !unprocessed.contains(k)) {
        read(table, k, Optional.empty(), consistentRead);
      }
    }
    return r;
  }

  private static Key keyOf(TableLayout table, Item item) {
    try {
      return table.keySchema().keyOf(item);
    } catch (RuntimeException e) {
      return null; // an adopted item without its key attributes: counted in the totals only
    }
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    recorder.table(table.ref()).writes.increment();
    Key key = keyOf(table, item);
    List<Key> keys = key == null ? List.of() : List.of(key);
    WriteResult r =
        run(
            table,
            keys,
            askedWrites(table, item),
            0,
            () -> delegate.put(table, item, expect, returnPrevious));
    if (key != null) {
      written(table, key, item, 1);
    }
    return r;
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    recorder.table(table.ref()).writes.increment();
    WriteResult r =
        run(table, List.of(key), 1, 0, () -> delegate.delete(table, key, expect, returnPrevious));
    deleted(table, key, r.previous(), 1);
    return r;
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    recorder.table(table.ref()).writes.increment();
    List<Key> keys =
        writes.stream()
            .map(w -> w instanceof WriteOp.Put p ? p.key() : ((WriteOp.Delete) w).key())
            .toList();
    long asked = 0;
    for (WriteOp w : writes) {
      asked += w instanceof WriteOp.Put p ? askedWrites(table, p.item()) : 1;
    }
    BatchWriteResult r = run(table, keys, asked, 0, () -> delegate.batchWrite(table, writes));
    Set<WriteOp> left = Set.copyOf(r.unprocessed());
    for (WriteOp w : writes) {
      if (left.contains(w)) {
        continue;
      }
      if (w instanceof WriteOp.Put p) {
        written(table, p.key(), p.item(), 1);
      } else {
        deleted(table, ((WriteOp.Delete) w).key(), Optional.empty(), 1);
      }
    }
    return r;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    var c = recorder.table(table.ref());
    c.queries.increment();
    String index = query.index() == null ? "" : query.index();
    boolean synthesized = table.index(index).map(ix -> !ix.isNative()).orElse(false);
    QueryResult r;
    try {
      r = delegate.query(table, query);
    } catch (ThrottledException e) {
      c.throttled.increment();
      recorder.demand(table.ref(), 0, query.consistentRead() ? 2 : 1);
      recorder.touch(table.ref(), index, query.partition(), synthesized, 0, true);
      throw e;
    }
    long b = page(table, r, query.consistentRead());
    recorder.touch(table.ref(), index, query.partition(), synthesized, b, false);
    return r;
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    recorder.table(table.ref()).scans.increment();
    QueryResult r = run(table, List.of(), 0, 1, () -> delegate.scan(table, scan));
    page(table, r, scan.consistentRead());
    return r;
  }

  /** Counts a query or scan page; returns its bytes. */
  private long page(TableLayout table, QueryResult r, boolean consistent) {
    var c = recorder.table(table.ref());
    long b = 0;
    for (StoredItem s : r.items()) {
      b += bytes(table, s.item());
    }
    if (r.items().isEmpty()) {
      c.emptyPages.increment();
    }
    c.itemsRead.add(r.items().size());
    c.bytesRead.add(b);
    long half = units(b, READ_UNIT) * (consistent ? 2 : 1);
    c.halfReadUnits.add(half);
    recorder.demand(table.ref(), 0, half);
    return b;
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    for (TableLayout l : layouts) {
      recorder.table(l.ref()).writes.increment();
    }
    List<Key> keys = ops.stream().map(UsageDriver::txKey).toList();
    run(
        layouts.isEmpty() ? null : layouts.get(0),
        layouts.size() == 1 ? keys : List.of(),
        0,
        0,
        () -> {
          delegate.transactWrite(layouts, ops);
          return null;
        });
    for (TxOp op : ops) {
      TableLayout l = layout(layouts, txTable(op));
      if (l == null) {
        continue;
      }
      if (op instanceof TxOp.Put p) {
        written(l, p.key(), p.item(), 2);
      } else if (op instanceof TxOp.Delete d) {
        deleted(l, d.key(), Optional.empty(), 2);
      } else {
        recorder.table(l.ref()).halfReadUnits.add(4); // a check reads the item transactionally
      }
    }
  }

  private static Key txKey(TxOp op) {
    if (op instanceof TxOp.Put p) {
      return p.key();
    }
    return op instanceof TxOp.Delete d ? d.key() : ((TxOp.Check) op).key();
  }

  private static TableRef txTable(TxOp op) {
    if (op instanceof TxOp.Put p) {
      return p.table();
    }
    return op instanceof TxOp.Delete d ? d.table() : ((TxOp.Check) op).table();
  }

  private static TableLayout layout(List<TableLayout> layouts, TableRef ref) {
    for (TableLayout l : layouts) {
      if (l.ref().equals(ref)) {
        return l;
      }
    }
    return null;
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    recorder.table(table.ref()).writes.increment();
    StoredItem r =
        run(table, List.of(key), 1, 0, () -> delegate.updateNative(table, key, update, condition));
    written(table, key, r.item(), 1);
    return r;
  }
}
