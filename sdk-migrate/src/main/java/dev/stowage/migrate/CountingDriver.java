package dev.stowage.migrate;

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
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * A driver decorator that counts the requests a store sends to its backend and the bytes of the
 * items it writes (as the backend's size model counts them). Thread-safe.
 */
public final class CountingDriver extends ForwardingDriver {
  private final boolean closeDelegate;
  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder queries = new LongAdder();
  private final LongAdder itemsWritten = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();
  private final LongAdder itemsRead = new LongAdder();

  /** Wraps {@code delegate}; closing this closes it. */
  public CountingDriver(StorageDriver delegate) {
    this(delegate, true);
  }

  /** Wraps {@code delegate}; closing this closes it only if {@code closeDelegate}. */
  public CountingDriver(StorageDriver delegate, boolean closeDelegate) {
    super(delegate);
    this.closeDelegate = closeDelegate;
  }

  /** The counts so far. */
  public Counts counts() {
    return new Counts(
        reads.sum(),
        writes.sum(),
        queries.sum(),
        itemsRead.sum(),
        itemsWritten.sum(),
        bytesWritten.sum());
  }

  /**
   * Request and byte counts.
   *
   * @param reads get and batch-get requests
   * @param writes put, delete, batch-write, transaction and update requests
   * @param queries query and scan requests
   * @param itemsRead items returned by reads, queries and scans
   * @param itemsWritten items put (singly, in batches or in transactions)
   * @param bytesWritten stored bytes of the items put, as the backend counts them
   */
  public record Counts(
      long reads, long writes, long queries, long itemsRead, long itemsWritten, long bytesWritten) {
    /** The counts accumulated since {@code earlier}. */
    public Counts minus(Counts earlier) {
      return new Counts(
          reads - earlier.reads,
          writes - earlier.writes,
          queries - earlier.queries,
          itemsRead - earlier.itemsRead,
          itemsWritten - earlier.itemsWritten,
          bytesWritten - earlier.bytesWritten);
    }

    /** All requests. */
    public long requests() {
      return reads + writes + queries;
    }
  }

  private void wrote(Item item) {
    itemsWritten.increment();
    bytesWritten.add(delegate.limits().sizeModel().itemBytes(item));
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    reads.increment();
    Optional<StoredItem> r = delegate.get(table, key, consistentRead);
    r.ifPresent(x -> itemsRead.increment());
    return r;
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    reads.increment();
    BatchGetResult r = delegate.batchGet(table, keys, consistentRead);
    itemsRead.add(r.items().size());
    return r;
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    writes.increment();
    WriteResult r = delegate.put(table, item, expect, returnPrevious);
    wrote(item);
    return r;
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    writes.increment();
    return delegate.delete(table, key, expect, returnPrevious);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
    writes.increment();
    return counted(ops, delegate.batchWrite(table, ops));
  }

  /** Counted as {@link #batchWrite}; the delegate writes them as copies. */
  @Override
  public BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> ops) {
    writes.increment();
    return counted(ops, delegate.batchWriteCopies(table, ops));
  }

  /** The delegate's, as copies go to its {@code batchWriteCopies}. */
  @Override
  public int maxBatchWriteCopies(TableLayout table) {
    return delegate.maxBatchWriteCopies(table);
  }

  private BatchWriteResult counted(List<WriteOp> ops, BatchWriteResult r) {
    Set<WriteOp> left = Set.copyOf(r.unprocessed());
    for (WriteOp op : ops) {
      if (op instanceof WriteOp.Put p && !left.contains(op)) {
        wrote(p.item());
      }
    }
    return r;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    queries.increment();
    QueryResult r = delegate.query(table, query);
    itemsRead.add(r.items().size());
    return r;
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    queries.increment();
    QueryResult r = delegate.scan(table, scan);
    itemsRead.add(r.items().size());
    return r;
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    writes.increment();
    delegate.transactWrite(layouts, ops);
    for (TxOp op : ops) {
      if (op instanceof TxOp.Put p) {
        wrote(p.item());
      }
    }
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    writes.increment();
    StoredItem r = delegate.updateNative(table, key, update, condition);
    wrote(r.item());
    return r;
  }

  @Override
  public void close() {
    if (closeDelegate) {
      delegate.close();
    }
  }
}
