package dev.stowage.spi;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A driver that forwards every call to another; subclasses override what they decorate (counting,
 * recording, fault injection, routing). Thread-safe if the delegate is.
 */
public abstract class ForwardingDriver implements StorageDriver {
  /** The driver calls go to. */
  protected final StorageDriver delegate;

  /** Forwards to {@code delegate}. */
  protected ForwardingDriver(StorageDriver delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public DriverLimits limits() {
    return delegate.limits();
  }

  @Override
  public DriverLimits limits(TableLayout table) {
    return delegate.limits(table);
  }

  @Override
  public Set<Capability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public void capacityListener(CapacityListener listener) {
    delegate.capacityListener(listener);
  }

  @Override
  public void ensureTable(TableLayout layout) {
    delegate.ensureTable(layout);
  }

  @Override
  public void openTable(TableLayout layout) {
    delegate.openTable(layout);
  }

  @Override
  public void dropTable(TableRef table) {
    delegate.dropTable(table);
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    return delegate.get(table, key, consistentRead);
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    return delegate.batchGet(table, keys, consistentRead);
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    return delegate.put(table, item, expect, returnPrevious);
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    return delegate.delete(table, key, expect, returnPrevious);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    return delegate.batchWrite(table, writes);
  }

  @Override
  public boolean consistentIndexQueries(TableLayout table, String index) {
    return delegate.consistentIndexQueries(table, index);
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    return delegate.query(table, query);
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    return delegate.scan(table, scan);
  }

  @Override
  public List<ScanSegment> segments(TableLayout table, String index, int total) {
    return delegate.segments(table, index, total);
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    return delegate.scanSegment(table, scan);
  }

  @Override
  public java.util.Optional<SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    return delegate.splitSegment(table, segment, checkpoint, fraction);
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    delegate.transactWrite(layouts, ops);
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    return delegate.updateNative(table, key, update, condition);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
