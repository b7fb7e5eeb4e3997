package dev.stowage.typed;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.internal.UpdateWithoutReadBack;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.typed.internal.Mapper;
import dev.stowage.typed.internal.Property;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** The typed table: maps instances on the way in and items on the way out, nothing more. */
final class DefaultTypedTable<T> implements TypedTable<T> {
  private final Table table;
  private final TypedSchema<T> schema;
  private final Mapper<T> mapper;
  private final String name;

  DefaultTypedTable(Table table, TypedSchema<T> schema) {
    this.table = table;
    this.schema = schema;
    this.mapper = schema.mapper;
    this.name = table.spec().name();
  }

  @Override
  public Table table() {
    return table;
  }

  @Override
  public TypedSchema<T> schema() {
    return schema;
  }

  @Override
  public Key keyOf(T item) {
    return mapper.keyOf(item);
  }

  @Override
  public Key key(Object partition) {
    return schema.key(partition);
  }

  @Override
  public Key key(Object partition, Object sort) {
    return schema.key(partition, sort);
  }

  private T read(Item item) {
    return mapper.fromItem(item, name);
  }

  @Override
  public Optional<T> get(Key key, ReadOptions options) {
    if (options.projection() != null) {
      throw new InvalidRequestException(
          "a typed get reads whole items; use table().get for a projection");
    }
    return table.get(key, options).map(this::read);
  }

  @Override
  public T put(T item, WriteOptions options) {
    Item stored = mapper.toItem(item);
    if (mapper.hasNested()) {
      return putMergingNested(item, stored, options);
    }
    return put(item, stored, options);
  }

  /** Attempts of a put of a class with nested maps that a concurrent writer of them outran. */
  private static final int NESTED_ATTEMPTS = 8;

  /**
   * A put of a class with nested records: a nested map is one attribute, and keys another writer
   * added to it must survive as top-level attributes do. The stored item is read, its nested maps'
   * unmapped keys merged into the instance's, and the update made conditional on those maps being
   * unchanged since (compressed or encrypted ones cannot be compared: the version check guards them
   * when the class has one); a concurrent change of one is retried with a fresh read.
   */
  private T putMergingNested(T item, Item stored, WriteOptions options) {
    Key key = mapper.keyOf(item);
    for (int attempt = 1; ; attempt++) {
      Item current = table.get(key, ReadOptions.CONSISTENT).orElse(null);
      Item merged = current == null ? stored : mapper.mergeNested(stored, current);
      Condition guard = mapper.nestedUnchanged(current);
      WriteOptions guarded = options;
      if (guard != null) {
        guarded =
            new WriteOptions(
                options.condition() == null ? guard : Condition.and(options.condition(), guard),
                options.requestId());
      }
      try {
        return put(item, merged, guarded);
      } catch (ConditionFailedException e) {
        // Retry only if a nested map changed in between; otherwise the caller's condition or the
        // version check failed, which a retry cannot cure.
        if (guard == null || attempt >= NESTED_ATTEMPTS || !nestedChanged(key, current)) {
          throw e;
        }
      }
    }
  }

  private boolean nestedChanged(Key key, Item before) {
    Item now = table.get(key, ReadOptions.CONSISTENT).orElse(null);
    return !mapper.sameNested(before, now);
  }

  private T put(T item, Item stored, WriteOptions options) {
    Update merge = mapper.mergeUpdate(stored);
    if (merge == null) {
      // Only key fields: there is nothing to set, so the item is created if absent and otherwise
      // left as it is (a condition or request id still needs the core's checked write).
      if (options.condition() == null && options.requestId() == null) {
        table.putIfAbsent(stored);
        return item;
      }
      return replace(item, options);
    }
    // An update, not a put: attributes the class does not map stay as they are. The core applies
    // it natively where it can (no read) and as a checked read-modify-write otherwise, with the
    // version check, compression, encryption, index values and overflow as for any update.
    Key key = mapper.keyOf(item);
    if (options.requestId() == null && table instanceof UpdateWithoutReadBack core) {
      // The update sets every mapped attribute to the value in stored (or removes it), so the
      // instance as stored reads from stored: a native update need not send the item back. (A
      // recognised request id returns the item as it is now, which only the backend knows.)
      Item after = core.updateWithoutReadBack(key, merge, options);
      return read(after != null ? after : stored);
    }
    return read(table.update(key, merge, options));
  }

  @Override
  public T replace(T item, WriteOptions options) {
    Item stored = mapper.toItem(item);
    table.put(stored, options);
    Property v = mapper.version();
    if (v == null) {
      return item;
    }
    // The core stored the expected version plus one (an absent or zero version counts as zero).
    BigDecimal expected =
        stored
            .find(v.attribute())
            .map(x -> ((AttributeValue.NumberValue) x).value())
            .orElse(BigDecimal.ZERO);
    return read(
        stored.toBuilder()
            .put(v.attribute(), AttributeValue.of(expected.add(BigDecimal.ONE)))
            .build());
  }

  @Override
  public boolean putIfAbsent(T item) {
    return table.putIfAbsent(mapper.toItem(item));
  }

  @Override
  public boolean delete(T item) {
    Condition c = versionCheck(mapper.toItem(item));
    Key key = mapper.keyOf(item);
    return c == null ? table.delete(key) : table.delete(key, WriteOptions.when(c));
  }

  /**
   * The condition that the stored version equals the one in {@code stored} (an item {@link
   * Mapper#toItem} made), an absent or zero one meaning that no item is stored; null for a class
   * without a version field.
   */
  private Condition versionCheck(Item stored) {
    Property v = mapper.version();
    if (v == null) {
      return null;
    }
    AttributeValue version = stored.find(v.attribute()).orElse(null);
    return version == null || ((AttributeValue.NumberValue) version).value().signum() == 0
        ? Condition.notExists(v.attribute())
        : Condition.eq(v.attribute(), version);
  }

  @Override
  public Stowage.Transaction replace(Stowage.Transaction tx, T item, Condition condition) {
    Item stored = mapper.toItem(item);
    Property v = mapper.version();
    Condition c = condition;
    if (v != null) {
      // A transaction writes items as given, so the version check and increment are made here,
      // as the core makes them for a put: an absent or zero version expects no stored item.
      BigDecimal expected =
          stored
              .find(v.attribute())
              .map(x -> ((AttributeValue.NumberValue) x).value())
              .orElse(BigDecimal.ZERO);
      Condition check =
          expected.signum() == 0
              ? Condition.notExists(mapper.spec().keySchema().partitionName())
              : Condition.eq(v.attribute(), AttributeValue.of(expected));
      c = c == null ? check : Condition.and(c, check);
      stored =
          stored.toBuilder()
              .put(v.attribute(), AttributeValue.of(expected.add(BigDecimal.ONE)))
              .build();
    }
    return tx.put(table, stored, c);
  }

  @Override
  public Stowage.Transaction delete(Stowage.Transaction tx, T item) {
    return tx.delete(table, mapper.keyOf(item), versionCheck(mapper.toItem(item)));
  }

  @Override
  public Stowage.Transaction check(Stowage.Transaction tx, Key key, Condition condition) {
    return tx.check(table, key, condition);
  }

  @Override
  public boolean delete(Key key, WriteOptions options) {
    return table.delete(key, options);
  }

  @Override
  public TypedUpdate<T> update() {
    return new TypedUpdate<>(mapper);
  }

  @Override
  public T update(Key key, Update update, WriteOptions options) {
    return read(table.update(key, update, options));
  }

  @Override
  public TypedField<T> field(String fieldName) {
    return new TypedField<>(mapper, mapper.field(fieldName));
  }

  @Override
  public Map<Key, T> batchGet(Collection<Key> keys, ReadOptions options) {
    if (options.projection() != null) {
      throw new InvalidRequestException(
          "a typed batch get reads whole items; use table().batchGet for a projection");
    }
    Map<Key, T> out = new LinkedHashMap<>();
    table.batchGet(keys, options).forEach((k, i) -> out.put(k, read(i)));
    return out;
  }

  @Override
  public void batchPut(List<T> items) {
    List<Item> stored = new ArrayList<>(items.size());
    for (T t : items) {
      stored.add(mapper.toItem(t));
    }
    table.batchPut(stored);
  }

  @Override
  public void batchDelete(Collection<Key> keys) {
    table.batchDelete(keys);
  }

  private Query build(UnaryOperator<TypedQuery<T>> query) {
    return query.apply(new TypedQuery<>(mapper)).build();
  }

  private static void requireWhole(Query q) {
    if (q.projection().isPresent()) {
      throw new InvalidRequestException(
          "a typed query reads whole items; use table().query for a projection");
    }
  }

  private TypedPage<T> typed(Page page) {
    List<T> items = new ArrayList<>(page.size());
    for (Item i : page.items()) {
      items.add(read(i));
    }
    return new TypedPage<>(items, page.before(), page.hasBefore(), page.after(), page.hasAfter());
  }

  @Override
  public TypedPage<T> query(UnaryOperator<TypedQuery<T>> query) {
    return query(build(query));
  }

  @Override
  public TypedPage<T> query(Query query) {
    requireWhole(query);
    return typed(table.query(query));
  }

  @Override
  public TypedPage<T> page(String cursor) {
    return typed(table.page(cursor));
  }

  @Override
  public Stream<T> queryAll(UnaryOperator<TypedQuery<T>> query) {
    return queryAll(build(query));
  }

  @Override
  public Stream<T> queryAll(Query query) {
    requireWhole(query);
    return table.queryAll(query).map(this::read);
  }

  @Override
  public TypedPage<T> scan(Scan scan) {
    if (scan.projection() != null) {
      throw new InvalidRequestException(
          "a typed scan reads whole items; use table().scan for a projection");
    }
    return typed(table.scan(scan));
  }

  @Override
  public String toString() {
    return "TypedTable(" + schema.type().getName() + ", " + name + ")";
  }
}
