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
  private final DriverLimits limits;
  private final Set<Capability> capabilities;
  private final Map<TableRef, MemoryTable> tables = new ConcurrentHashMap<>();

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

  @Override
  public DriverLimits limits() {
    return limits;
  }

  @Override
  public Set<Capability> capabilities() {
    return capabilities;
  }

  @Override
  public void ensureTable(TableLayout layout) {
    MemoryTable existing = tables.putIfAbsent(layout.ref(), new MemoryTable(layout, limits));
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

  @Override
  public void openTable(TableLayout layout) {
    MemoryTable existing = tables.get(layout.ref());
    if (existing == null) {
      throw new NotFoundException(
          "table '"
              + layout.ref()
              + "' does not exist; create it with Stowage.ensureTable (opening never creates)");
    }
    List<String> problems = new java.util.ArrayList<>();
    if (!existing.layout.keySchema().equals(layout.keySchema())) {
      problems.add(
          "key schema is " + existing.layout.keySchema() + ", the spec says " + layout.keySchema());
    }
    for (var index : layout.indexes()) {
      if (existing.layout.index(index.name()).isEmpty()) {
        problems.add("index '" + index.name() + "' is missing (ensureTable adds and backfills it)");
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "table '" + layout.ref() + "' disagrees with its spec: " + String.join("; ", problems));
    }
  }

  @Override
  public void dropTable(TableRef table) {
    tables.remove(table);
  }

  private MemoryTable table(TableLayout layout) {
    MemoryTable t = tables.get(layout.ref());
    if (t == null) {
      throw new NotFoundException("table '" + layout.ref() + "' does not exist");
    }
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
      StoredItem previous = t.get(key).orElse(null);
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
      StoredItem previous = t.get(key).orElse(null);
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
      check(op.key(), t.get(op.key()).orElse(null), op.expect());
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
      StoredItem current = t.get(key).orElse(null);
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

  /** Removes every table. */
  @Override
  public void close() {
    tables.clear();
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
