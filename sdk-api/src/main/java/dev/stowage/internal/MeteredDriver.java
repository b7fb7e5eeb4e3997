package dev.stowage.internal;

import dev.stowage.KeySchema;
import dev.stowage.ThrottledException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.SizeModel;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.List;
import java.util.Optional;

/**
 * A driver that counts every request per table, operation and index into {@link Metrics}: requests
 * by outcome, items and bytes (as the backend's size model counts them) and time, and that adds the
 * request's partition key to a {@link ThrottledException} of a single-item request. Recording takes
 * a map lookup and a few striped adds per request and allocates nothing. Thread-safe if the
 * delegate is.
 *
 * <p>{@link #done} is the one place every data request passes with its table, operation and, for
 * single-item requests, partition key: per-key observers (hot keys) hook in there.
 */
public final class MeteredDriver extends ForwardingDriver {
  private final Metrics metrics;
  private final SizeModel sizes;

  /** Wraps {@code delegate}; closing this closes it. */
  public MeteredDriver(StorageDriver delegate, Metrics metrics) {
    super(delegate);
    this.metrics = metrics;
    this.sizes = delegate.limits().sizeModel();
  }

  private long bytes(Item item) {
    return ItemAccess.itemBytes(item, sizes);
  }

  private long bytes(List<StoredItem> items) {
    long n = 0;
    for (int i = 0; i < items.size(); i++) {
      n += bytes(items.get(i).item());
    }
    return n;
  }

  private static AttributeValue partitionOf(TableLayout table, Item item) {
    return item.get(table.keySchema().partitionName());
  }

  /**
   * Records a request that succeeded.
   *
   * @param partitionKey the partition key of a single-item request, null for others
   */
  private void done(
      OperationCounters c,
      long start,
      AttributeValue partitionKey,
      long itemsRead,
      long itemsWritten,
      long bytesRead,
      long bytesWritten) {
    c.succeeded(System.nanoTime() - start, itemsRead, itemsWritten, bytesRead, bytesWritten);
  }

  /** Records a failed request; returns the error to throw (a throttle gains the partition key). */
  private RuntimeException failed(
      OperationCounters c, long start, AttributeValue partitionKey, RuntimeException e) {
    c.failed(System.nanoTime() - start, e);
    if (e instanceof ThrottledException t
        && (partitionKey != null && t.details().partitionKey() == null
            || t.access() == ThrottledException.Access.UNKNOWN)) {
      // What the request was tells what the backend may not have: reads or writes, which key.
      ThrottledException.Details d =
          t.details()
              .orAccess(
                  c.op().reads()
                      ? ThrottledException.Access.READ
                      : ThrottledException.Access.WRITE);
      String message = t.getMessage();
      if (partitionKey != null && d.partitionKey() == null) {
        d = d.withPartitionKey(partitionKey);
        message += " [partition key " + partitionKey + "]";
      }
      ThrottledException keyed =
          new ThrottledException(message, t.retryAfter().orElse(null), d, t.getCause());
      keyed.setStackTrace(t.getStackTrace());
      return keyed;
    }
    return e;
  }

  private OperationCounters counters(TableLayout table, Op op) {
    return tableCounters(table).operation(op);
  }

  /** The last table asked for and its counters (tables' counters are never replaced). */
  private record LastTable(TableRef ref, Metrics.TableCounters counters) {}

  private volatile LastTable lastTable;

  /** The table's counters: most requests go to the table the last one went to. */
  private Metrics.TableCounters tableCounters(TableLayout table) {
    LastTable last = lastTable;
    if (last != null && last.ref() == table.ref()) {
      return last.counters();
    }
    Metrics.TableCounters c = metrics.table(table.ref());
    lastTable = new LastTable(table.ref(), c);
    return c;
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    OperationCounters c = counters(table, Op.GET);
    long start = System.nanoTime();
    Optional<StoredItem> r;
    try {
      r = delegate.get(table, key, consistentRead);
    } catch (RuntimeException e) {
      throw failed(c, start, key.partition(), e);
    }
    if (r.isPresent()) {
      done(c, start, key.partition(), 1, 0, bytes(r.get().item()), 0);
    } else {
      done(c, start, key.partition(), 0, 0, 0, 0);
    }
    return r;
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    OperationCounters c = counters(table, Op.BATCH_GET);
    long start = System.nanoTime();
    BatchGetResult r;
    try {
      r = delegate.batchGet(table, keys, consistentRead);
    } catch (RuntimeException e) {
      throw failed(c, start, null, e);
    }
    done(c, start, null, r.items().size(), 0, bytes(r.items()), 0);
    return r;
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    OperationCounters c = counters(table, Op.PUT);
    long start = System.nanoTime();
    WriteResult r;
    try {
      r = delegate.put(table, item, expect, returnPrevious);
    } catch (RuntimeException e) {
      throw failed(c, start, partitionOf(table, item), e);
    }
    long read = r.previous().isPresent() ? bytes(r.previous().get().item()) : 0;
    // The core's stored item knows its key: no attribute lookup on the way back.
    done(
        c,
        start,
        table.keySchema().keyOf(item).partition(),
        r.previous().isPresent() ? 1 : 0,
        1,
        read,
        bytes(item));
    return r;
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    OperationCounters c = counters(table, Op.DELETE);
    long start = System.nanoTime();
    WriteResult r;
    try {
      r = delegate.delete(table, key, expect, returnPrevious);
    } catch (RuntimeException e) {
      throw failed(c, start, key.partition(), e);
    }
    boolean had = r.previous().isPresent();
    done(c, start, key.partition(), had ? 1 : 0, 1, had ? bytes(r.previous().get().item()) : 0, 0);
    return r;
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    OperationCounters c = counters(table, Op.BATCH_WRITE);
    long start = System.nanoTime();
    BatchWriteResult r;
    try {
      r = delegate.batchWrite(table, writes);
    } catch (RuntimeException e) {
      throw failed(c, start, null, e);
    }
    List<WriteOp> left = r.unprocessed();
    long items = 0;
    long written = 0;
    for (WriteOp op : writes) {
      if (left.isEmpty() || !left.contains(op)) {
        items++;
        if (op instanceof WriteOp.Put p) {
          written += bytes(p.item());
        }
      }
    }
    done(c, start, null, 0, items, 0, written);
    return r;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    OperationCounters c = tableCounters(table).query(query.index());
    long start = System.nanoTime();
    QueryResult r;
    try {
      r = delegate.query(table, query);
    } catch (RuntimeException e) {
      throw failed(c, start, null, e);
    }
    done(c, start, null, r.items().size(), 0, bytes(r.items()), 0);
    return r;
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    OperationCounters c = counters(table, Op.SCAN);
    long start = System.nanoTime();
    QueryResult r;
    try {
      r = delegate.scan(table, scan);
    } catch (RuntimeException e) {
      throw failed(c, start, null, e);
    }
    done(c, start, null, r.items().size(), 0, bytes(r.items()), 0);
    return r;
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    // Counted on the first table's counters: a transaction is one request however many tables.
    OperationCounters c = counters(layouts.get(0), Op.TRANSACT_WRITE);
    long start = System.nanoTime();
    try {
      delegate.transactWrite(layouts, ops);
    } catch (RuntimeException e) {
      throw failed(c, start, null, e);
    }
    long items = 0;
    long written = 0;
    for (TxOp op : ops) {
      if (op instanceof TxOp.Put p) {
        items++;
        written += bytes(p.item());
      } else if (op instanceof TxOp.Delete) {
        items++;
      }
    }
    done(c, start, null, 0, items, 0, written);
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    OperationCounters c = counters(table, Op.UPDATE_NATIVE);
    long start = System.nanoTime();
    StoredItem r;
    try {
      r = delegate.updateNative(table, key, update, condition);
    } catch (RuntimeException e) {
      throw failed(c, start, key.partition(), e);
    }
    done(c, start, key.partition(), 0, 1, 0, bytes(r.item()));
    return r;
  }

  /**
   * Without the item back, the bytes written are those of the key and of the values the update
   * writes (the attributes it leaves alone are not known here).
   */
  @Override
  public void updateNativeWithoutItem(
      TableLayout table, Key key, Update update, Condition condition) {
    OperationCounters c = counters(table, Op.UPDATE_NATIVE);
    long start = System.nanoTime();
    try {
      delegate.updateNativeWithoutItem(table, key, update, condition);
    } catch (RuntimeException e) {
      throw failed(c, start, key.partition(), e);
    }
    done(c, start, key.partition(), 0, 1, 0, bytes(table, key, update));
  }

  private long bytes(TableLayout table, Key key, Update update) {
    KeySchema ks = table.keySchema();
    long n = sizes.attributeBytes(ks.partitionName(), key.partition());
    if (key.sort().isPresent()) {
      n += sizes.attributeBytes(ks.sortName().orElseThrow(), key.sort().get());
    }
    for (Update.Action a : update.actions()) {
      AttributeValue v =
          a instanceof Update.Set s
              ? s.value()
              : a instanceof Update.Increment inc
                  ? AttributeValue.of(inc.delta())
                  : a instanceof Update.AddToSet ats
                      ? ats.elements()
                      : a instanceof Update.AppendToList app
                          ? AttributeValue.list(app.values())
                          : null;
      if (v != null) {
        n += sizes.attributeBytes(a.attribute(), v);
      }
    }
    return n;
  }
}
