package dev.stowage.memory;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.internal.ConditionEvaluator;
import dev.stowage.internal.UpdateApplier;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory reference driver: implements the whole SPI faithfully (key order, atomic
 * expectations, transactions across tables, index queries, limits configurable to mimic each
 * cloud). It is what the conformance kit measures every other driver against, and what applications
 * use in their own unit tests.
 *
 * <p>Thread-safe: each write is atomic under its table's lock; transactions lock every table they
 * touch in a fixed order. Data lives only as long as the driver.
 */
public final class MemoryDriver implements StorageDriver {
  private static final AtomicLong INSTANCES = new AtomicLong();
  private final String location = "instance " + INSTANCES.incrementAndGet();
  private final DriverLimits limits;
  private final Set<Capability> capabilities;
  private final Map<TableRef, MemoryTable> tables = new ConcurrentHashMap<>();

  /**
   * The highest version a dropped table wrote: a table created afterwards continues after it, so a
   * token of a dropped table is never the token of an item of a table created in its place.
   */
  private final java.util.concurrent.atomic.AtomicLong retiredVersions =
      new java.util.concurrent.atomic.AtomicLong();

  private MemoryDriver(DriverLimits limits, Set<Capability> capabilities) {
    this.limits = limits;
    this.capabilities = Set.copyOf(capabilities);
  }

  /** A driver with DynamoDB-like limits and every capability. */
  public static MemoryDriver create() {
    return builder().build();
  }

  /** A builder for a driver with chosen limits and capabilities. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return "memory";
  }

  /** This instance ({@code instance 3}): every memory driver holds tables of its own. */
  @Override
  public String location() {
    return location;
  }

  @Override
  public DriverLimits limits() {
    return limits;
  }

  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The memory backend has no indexes but the ones its layouts declare, so a native index (see
   * {@link dev.stowage.spi.IndexLayout#isNative()}) is created here like any other, over the plain
   * values of its attributes, and filled from the items already stored.
   */
  @Override
  public void ensureTable(TableLayout layout) {
    requireNativeIndexes(layout);
    // Created in the map's atomic step for the key, after any drop of the table has retired its
    // versions (see dropTable).
    MemoryTable[] created = new MemoryTable[1];
    MemoryTable current =
        tables.computeIfAbsent(
            layout.ref(), r -> created[0] = new MemoryTable(layout, limits, retiredVersions.get()));
    MemoryTable existing = current == created[0] ? null : current;
    if (existing != null && !existing.layout.keySchema().equals(layout.keySchema())) {
      throw new InvalidRequestException(
          "table '"
              + layout.ref()
              + "' exists with key schema "
              + existing.layout.keySchema()
              + ", not "
              + layout.keySchema());
    }
    if (existing != null) {
      existing.addIndexes(layout);
    }
  }

  private void requireNativeIndexes(TableLayout layout) {
    if (layout.hasNativeIndexes() && !capabilities.contains(Capability.NATIVE_INDEXES)) {
      var first = layout.indexes().stream().filter(i -> i.isNative()).findFirst().orElseThrow();
      throw new dev.stowage.UnsupportedCapabilityException(
          Capability.NATIVE_INDEXES.name(),
          "this memory driver was built without native indexes, like a backend that has no"
              + " secondary indexes of its own (Azure Table Storage), so index '"
              + first.name()
              + "' cannot map to native index '"
              + first.nativeName()
              + "'");
    }
  }

  @Override
  public void openTable(TableLayout layout) {
    requireNativeIndexes(layout);
    MemoryTable existing = tables.get(layout.ref());
    if (existing == null) {
      throw new NotFoundException(
          "table '"
              + layout.ref()
              + "' does not exist; create it with Stowage.ensureTable (opening never creates)");
    }
    List<String> problems = layout.differencesFrom(existing.layout);
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "table '" + layout.ref() + "' disagrees with its spec: " + String.join("; ", problems));
    }
  }

  @Override
  public void dropTable(TableRef table) {
    MemoryTable t = tables.get(table);
    if (t != null) {
      // Its writes end and its versions are retired before it leaves the map, so a table created
      // in its place starts after every token it gave out.
      retiredVersions.accumulateAndGet(t.retire(), Math::max);
      tables.remove(table, t);
    }
  }

  /** The table the last request went to, by its reference (compared by identity). */
  private record LastTable(TableRef ref, MemoryTable table) {}

  private volatile LastTable lastTable;

  private MemoryTable table(TableLayout layout) {
    // Most requests go to the table the last one went to: no hash lookup for them.
    LastTable last = lastTable;
    if (last != null && last.ref() == layout.ref() && !last.table().dropped) {
      return last.table();
    }
    MemoryTable t = tables.get(layout.ref());
    if (t == null) {
      throw new NotFoundException("table '" + layout.ref() + "' does not exist");
    }
    lastTable = new LastTable(layout.ref(), t);
    return t;
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    return table(table).get(key);
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    if (keys.size() > limits.maxBatchGet()) {
      throw new InvalidRequestException(
          "batch get of " + keys.size() + " keys exceeds " + limits.maxBatchGet());
    }
    MemoryTable t = table(table);
    List<StoredItem> found = new ArrayList<>();
    keys.forEach(k -> t.get(k).ifPresent(found::add));
    return new BatchGetResult(found, List.of());
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    MemoryTable t = table(table);
    synchronized (t) {
      Key key = table.keySchema().keyOf(item);
      if (expect instanceof Expectation.Any) {
        // Nothing to check first: one walk of the ordered map stores and finds the replaced item.
        return t.put(key, item, returnPrevious);
      }
      StoredItem previous = t.find(key);
      check(key, previous, expect);
      String token = t.write(key, item);
      return new WriteResult(
          returnPrevious ? Optional.ofNullable(previous) : Optional.empty(), token);
    }
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    MemoryTable t = table(table);
    synchronized (t) {
      StoredItem previous = t.find(key);
      check(key, previous, expect);
      t.remove(key);
      return new WriteResult(
          returnPrevious ? Optional.ofNullable(previous) : Optional.empty(), null);
    }
  }

  private static void check(Key key, StoredItem current, Expectation expect) {
    if (expect instanceof Expectation.Absent && current != null) {
      throw new ConditionFailedException("item " + key + " exists");
    }
    if (expect instanceof Expectation.Token tok
        && (current == null || !current.token().equals(tok.token()))) {
      throw new ConditionFailedException("item " + key + " changed or is absent");
    }
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    if (writes.size() > limits.maxBatchWrite()) {
      throw new InvalidRequestException(
          "batch write of " + writes.size() + " exceeds " + limits.maxBatchWrite());
    }
    MemoryTable t = table(table);
    synchronized (t) {
      for (WriteOp op : writes) {
        if (op instanceof WriteOp.Put p) {
          t.write(p.key(), p.item());
        } else {
          t.remove(op.key());
        }
      }
    }
    return BatchWriteResult.DONE;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    return table(table).query(query);
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    return table(table).scan(scan);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The memory driver divides the key space at keys evenly spread through the items present (see
   * {@code MemorySegments}).
   */
  @Override
  public List<ScanSegment> segments(TableLayout table, String index, int total) {
    if (!capabilities.contains(Capability.SEGMENTED_SCANS)) {
      return StorageDriver.super.segments(table, index, total);
    }
    if (total < 1 || total > ScanSegment.MAX_TOTAL) {
      throw new IllegalArgumentException(
          "a plan has 1 to " + ScanSegment.MAX_TOTAL + " segments, not " + total);
    }
    return MemorySegments.plan(table(table), table, index, total);
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    if (!capabilities.contains(Capability.SEGMENTED_SCANS)) {
      return StorageDriver.super.scanSegment(table, scan);
    }
    return MemorySegments.scan(table(table), table, scan);
  }

  /** {@inheritDoc} Counts the keys left after the checkpoint and cuts at the fraction of them. */
  @Override
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    if (!capabilities.contains(Capability.SEGMENTED_SCANS)) {
      return StorageDriver.super.splitSegment(table, segment, checkpoint, fraction);
    }
    return MemorySegments.split(table(table), table, segment, checkpoint, fraction);
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    if (!capabilities.contains(Capability.TRANSACTIONS)) {
      StorageDriver.super.transactWrite(layouts, ops);
    }
    List<MemoryTable> locked = new ArrayList<>();
    for (TableLayout l : layouts) {
      locked.add(table(l));
    }
    locked.sort(Comparator.comparing(m -> m.layout.ref().toString()));
    lockAll(locked, 0, () -> applyTransaction(ops));
  }

  private void lockAll(List<MemoryTable> ts, int i, Runnable body) {
    if (i == ts.size()) {
      body.run();
      return;
    }
    synchronized (ts.get(i)) {
      lockAll(ts, i + 1, body);
    }
  }

  private void applyTransaction(List<TxOp> ops) {
    for (TxOp op : ops) {
      MemoryTable t = tableByRef(op.table());
      check(op.key(), t.find(op.key()), op.expect());
    }
    for (TxOp op : ops) {
      MemoryTable t = tableByRef(op.table());
      if (op instanceof TxOp.Put p) {
        t.write(p.key(), p.item());
      } else if (op instanceof TxOp.Delete) {
        t.remove(op.key());
      }
    }
  }

  private MemoryTable tableByRef(TableRef ref) {
    MemoryTable t = tables.get(ref);
    if (t == null) {
      throw new NotFoundException("table '" + ref + "' does not exist");
    }
    return t;
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    if (!capabilities.contains(Capability.NATIVE_UPDATES)) {
      return StorageDriver.super.updateNative(table, key, update, condition);
    }
    MemoryTable t = table(table);
    synchronized (t) {
      StoredItem current = t.find(key);
      Item base = current != null ? current.item() : keyItem(table, key);
      if (condition != null && !ConditionEvaluator.test(condition, current == null ? null : base)) {
        throw new ConditionFailedException("condition failed for " + key);
      }
      Item next = UpdateApplier.apply(base, update);
      String token = t.write(key, next);
      return new StoredItem(next, token);
    }
  }

  private static Item keyItem(TableLayout table, Key key) {
    Item.Builder b = Item.builder().put(table.keySchema().partitionName(), key.partition());
    table.keySchema().sortName().ifPresent(s -> b.put(s, key.sortOrNull()));
    return b.build();
  }

  /**
   * Removes every table, as {@link #dropTable} would each: the driver stays usable, and a table
   * created after starts after every token given out before.
   */
  @Override
  public void close() {
    tables.forEach((ref, t) -> dropTable(ref));
  }

  /** Configures a {@link MemoryDriver}. */
  public static final class Builder {
    private DriverLimits limits = MemoryLimits.dynamoDb();
    private final Set<Capability> capabilities = EnumSet.allOf(Capability.class);

    private Builder() {}

    /** The limits to enforce; see {@link MemoryLimits} for presets. */
    public Builder limits(DriverLimits l) {
      this.limits = l;
      return this;
    }

    /**
     * Exactly these capabilities (default: all), for example a backend's preset from {@link
     * MemoryLimits}.
     */
    public Builder capabilities(Set<Capability> c) {
      capabilities.clear();
      capabilities.addAll(c);
      return this;
    }

    /** Removes a capability, to test how an application copes without it. */
    public Builder without(Capability c) {
      capabilities.remove(c);
      if (c == Capability.TRANSACTIONS) {
        capabilities.remove(Capability.CROSS_PARTITION_TRANSACTIONS);
      }
      return this;
    }

    /** The driver. */
    public MemoryDriver build() {
      return new MemoryDriver(limits, capabilities);
    }
  }
}
