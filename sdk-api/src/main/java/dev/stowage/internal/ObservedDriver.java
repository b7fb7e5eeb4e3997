package dev.stowage.internal;

import dev.stowage.RequestListener;
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
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A driver that reports every request to a {@link RequestListener}: operation, table, latency,
 * outcome, and the bytes of the items written and read as the backend's size model counts them.
 * Thread-safe if the delegate is.
 */
public final class ObservedDriver extends ForwardingDriver {
  private final Observed observed;

  /** Wraps {@code delegate}; closing this closes it. */
  public ObservedDriver(StorageDriver delegate, RequestListener listener) {
    super(delegate);
    this.observed = new Observed(listener, delegate.name(), RequestListener.Target.TABLE);
  }

  private long bytes(Item item) {
    return ItemAccess.itemBytes(item, delegate.limits().sizeModel());
  }

  private long bytes(List<StoredItem> items) {
    long n = 0;
    for (StoredItem s : items) {
      n += bytes(s.item());
    }
    return n;
  }

  private long bytes(Optional<StoredItem> item) {
    return item.map(s -> bytes(s.item())).orElse(0L);
  }

  @Override
  public void ensureTable(TableLayout layout) {
    TableRef t = layout.ref();
    observed.run("ensureTable", t.namespace(), t.table(), 0, () -> delegate.ensureTable(layout));
  }

  @Override
  public void openTable(TableLayout layout) {
    TableRef t = layout.ref();
    observed.run("openTable", t.namespace(), t.table(), 0, () -> delegate.openTable(layout));
  }

  @Override
  public void dropTable(TableRef table) {
    observed.run("dropTable", table.namespace(), table.table(), 0, () -> delegate.dropTable(table));
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    TableRef t = table.ref();
    return observed.call(
        "get",
        t.namespace(),
        t.table(),
        () -> delegate.get(table, key, consistentRead),
        r -> 0,
        this::bytes);
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    TableRef t = table.ref();
    return observed.call(
        "batchGet",
        t.namespace(),
        t.table(),
        () -> delegate.batchGet(table, keys, consistentRead),
        r -> 0,
        r -> bytes(r.items()));
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    TableRef t = table.ref();
    return observed.call(
        "put",
        t.namespace(),
        t.table(),
        () -> delegate.put(table, item, expect, returnPrevious),
        r -> bytes(item),
        r -> bytes(r.previous()));
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    TableRef t = table.ref();
    return observed.call(
        "delete",
        t.namespace(),
        t.table(),
        () -> delegate.delete(table, key, expect, returnPrevious),
        r -> 0,
        r -> bytes(r.previous()));
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    TableRef t = table.ref();
    return observed.call(
        "batchWrite",
        t.namespace(),
        t.table(),
        () -> delegate.batchWrite(table, writes),
        r -> {
          Set<WriteOp> left = Set.copyOf(r.unprocessed());
          long n = 0;
          for (WriteOp op : writes) {
            if (op instanceof WriteOp.Put p && !left.contains(op)) {
              n += bytes(p.item());
            }
          }
          return n;
        },
        r -> 0);
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    TableRef t = table.ref();
    return observed.call(
        "query",
        t.namespace(),
        t.table(),
        () -> delegate.query(table, query),
        r -> 0,
        r -> bytes(r.items()));
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    TableRef t = table.ref();
    return observed.call(
        "scan",
        t.namespace(),
        t.table(),
        () -> delegate.scan(table, scan),
        r -> 0,
        r -> bytes(r.items()));
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    TableRef t = table.ref();
    return observed.call(
        "scan",
        t.namespace(),
        t.table(),
        () -> delegate.scanSegment(table, scan),
        r -> 0,
        r -> bytes(r.items()));
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    TableRef only = layouts.size() == 1 ? layouts.get(0).ref() : null;
    long written = 0;
    for (TxOp op : ops) {
      if (op instanceof TxOp.Put p) {
        written += bytes(p.item());
      }
    }
    observed.run(
        "transactWrite",
        only == null ? "" : only.namespace(),
        only == null ? "" : only.table(),
        written,
        () -> delegate.transactWrite(layouts, ops));
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    TableRef t = table.ref();
    return observed.call(
        "updateNative",
        t.namespace(),
        t.table(),
        () -> delegate.updateNative(table, key, update, condition),
        r -> bytes(r.item()),
        r -> 0);
  }
}
