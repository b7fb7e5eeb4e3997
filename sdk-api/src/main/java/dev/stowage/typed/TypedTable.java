package dev.stowage.typed;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.Table;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.typed.internal.SpecDifferences;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A {@link Table} seen through an application class: items are put and read as instances of {@code
 * T}, mapped by its {@link TypedSchema}.
 *
 * <pre>
 * &#64;StowageTable("orders")
 * record Order(&#64;PartitionKey String tenant, &#64;SortKey Instant placedAt,
 *              &#64;Indexed(name = "byStatus") Status status,
 *              &#64;Compressed String notes, &#64;Version long version, List&lt;Line&gt; lines) {}
 *
 * TypedTable&lt;Order&gt; orders = store.ensureTable(Order.class);
 * Order stored = orders.put(order);                    // version 0 -&gt; 1
 * TypedPage&lt;Order&gt; page = orders.query(q -&gt; q.partition("t1").descending().limit(25));
 * orders.update(orders.key("t1", placedAt), orders.update().set("status", SHIPPED).build());
 * </pre>
 *
 * <p>Everything the untyped table does applies: compression, encryption and overflow, retries,
 * consistency, the same sealed cursors. Conditions and updates name fields, checked against the
 * class ({@link #field}, {@link #update()}).
 *
 * <p>A {@link #put} writes what the class maps and nothing else: attributes of the stored item that
 * the class does not map (written by another tool, another version of the application, or the
 * untyped API) are kept, so a typed get, modify and put loses nothing. {@link #replace} is the
 * explicit whole-item overwrite, like {@link Table#put}.
 *
 * <p>Thread-safe. Errors are the untyped table's, plus {@link InvalidRequestException} for a value
 * that does not fit its field (naming the field) and for a stored item that does not fit the class
 * (naming the item's key and the attribute).
 *
 * @param <T> the stored class
 */
public interface TypedTable<T> {
  /**
   * A typed view of an open table. The table's spec must agree with the one the class implies (key,
   * version attribute, compressed and encrypted attributes, and every index the class declares); it
   * may add native indexes, adoption and the idempotency window.
   *
   * @throws InvalidRequestException if they disagree; the message lists every difference
   */
  static <T> TypedTable<T> of(Table table, TypedSchema<T> schema) {
    List<String> diff = SpecDifferences.between(schema.spec(), schema.mapper.named(), table.spec());
    if (!diff.isEmpty()) {
      throw new InvalidRequestException(
          "class "
              + schema.type().getName()
              + " and the spec of table '"
              + table.spec().name()
              + "' disagree: "
              + String.join("; ", diff));
    }
    return new DefaultTypedTable<>(table, schema);
  }

  /** {@link #of(Table, TypedSchema)} with the class's default schema. */
  static <T> TypedTable<T> of(Table table, Class<T> type) {
    return of(table, TypedSchema.of(type));
  }

  /** The untyped table underneath. */
  Table table();

  /** The class's schema. */
  TypedSchema<T> schema();

  /** The key of an instance. */
  Key keyOf(T item);

  /** The key with this partition key value (a class without a sort key). */
  Key key(Object partition);

  /** The key with these partition and sort key values. */
  Key key(Object partition, Object sort);

  /** Reads an item. */
  default Optional<T> get(Key key) {
    return get(key, ReadOptions.DEFAULT);
  }

  /** Reads an item, strongly consistent if the options say so. Projections are not allowed. */
  Optional<T> get(Key key, ReadOptions options);

  /**
   * Stores an instance: its fields are written and the attributes the class does not map are kept.
   * Each non-key field is set to its value, or removed from the stored item when it is null or an
   * empty {@code Optional}, and the earlier names ({@link Attribute#aliases()}) of renamed fields
   * are removed; an item that does not exist yet is created. With a {@link Version} field the
   * stored version must equal the instance's (zero or null: no item stored yet).
   *
   * <p>It is applied as an update ({@link Table#update}): one native request where the backend has
   * native updates and the written fields are neither compressed, encrypted nor indexed and the
   * class has no version; otherwise a read and a write conditional on the item being unchanged.
   * {@link #replace} writes blindly.
   *
   * @return the instance as stored: with a version field, a copy holding the new version
   * @throws ConditionFailedException if the version check or the condition fails
   */
  default T put(T item) {
    return put(item, WriteOptions.NONE);
  }

  /** Stores an instance, as {@link #put(Object)}, if the condition holds (see {@link #field}). */
  default T put(T item, Condition condition) {
    return put(item, WriteOptions.when(condition));
  }

  /** Stores an instance, as {@link #put(Object)}, with a condition and/or request id. */
  T put(T item, WriteOptions options);

  /**
   * Stores an instance as the whole item, replacing any item with its key, like {@link Table#put}:
   * attributes the class does not map are <em>not</em> kept. For items only this class writes, or
   * to drop what other writers added. With a {@link Version} field the stored version must equal
   * the instance's (zero or null: no item stored yet).
   *
   * @return the instance as stored: with a version field, a copy holding the new version
   * @throws ConditionFailedException if the version check fails
   */
  default T replace(T item) {
    return replace(item, WriteOptions.NONE);
  }

  /** Replaces the whole item, as {@link #replace(Object)}, with a condition and/or request id. */
  T replace(T item, WriteOptions options);

  /** Stores an instance only if no item has its key. @return false if one existed */
  boolean putIfAbsent(T item);

  /**
   * Adds a whole-item write of an instance to a transaction (as {@link #replace} writes it: the
   * stored item becomes exactly the instance's attributes). With a {@link Version} field, the write
   * is checked against the stored version as a put is (zero or null: no item may be stored) and the
   * committed item holds the instance's version plus one. Nothing is written before {@link
   * dev.stowage.Stowage.Transaction#commit()}.
   *
   * @param condition a further condition on the stored item, or null
   * @return {@code tx}
   * @throws InvalidRequestException if a key field is null, a value has no stored form, or {@code
   *     tx} belongs to another store
   */
  dev.stowage.Stowage.Transaction replace(
      dev.stowage.Stowage.Transaction tx, T item, dev.stowage.query.Condition condition);

  /**
   * Adds a delete of an instance's item to a transaction; with a {@link Version} field, only if the
   * stored version equals the instance's (as {@link #delete(Object)}).
   *
   * @return {@code tx}
   */
  dev.stowage.Stowage.Transaction delete(dev.stowage.Stowage.Transaction tx, T item);

  /**
   * Adds a check of the item with this key to a transaction: the transaction commits only if the
   * condition (for example one made with {@link #field}) holds.
   *
   * @return {@code tx}
   */
  dev.stowage.Stowage.Transaction check(
      dev.stowage.Stowage.Transaction tx, Key key, dev.stowage.query.Condition condition);

  /**
   * Deletes an instance's item. With a {@link Version} field the item is deleted only if its stored
   * version equals the instance's.
   *
   * @return true if an item was deleted
   * @throws ConditionFailedException if the version check fails
   */
  boolean delete(T item);

  /** Deletes the item with this key. @return true if an item was deleted */
  default boolean delete(Key key) {
    return delete(key, WriteOptions.NONE);
  }

  /** Deletes the item with this key if the condition holds. */
  boolean delete(Key key, WriteOptions options);

  /** Starts an update by field name. */
  TypedUpdate<T> update();

  /** Applies an update (creating the item if absent). @return the item after the update */
  default T update(Key key, Update update) {
    return update(key, update, WriteOptions.NONE);
  }

  /** Applies an update if the condition holds. @return the item after the update */
  T update(Key key, Update update, WriteOptions options);

  /**
   * Conditions on a field, by its Java name.
   *
   * @throws InvalidRequestException naming the class's fields if it stores none of this name
   */
  TypedField<T> field(String name);

  /** Reads many items. @return found items by key */
  default Map<Key, T> batchGet(Collection<Key> keys) {
    return batchGet(keys, ReadOptions.DEFAULT);
  }

  /** Reads many items with options. */
  Map<Key, T> batchGet(Collection<Key> keys, ReadOptions options);

  /**
   * Stores many instances (distinct keys), as {@link Table#batchPut}: each replaces its whole item
   * like {@link #replace}, so attributes the class does not map are not kept. No version checks.
   */
  void batchPut(List<T> items);

  /** Deletes many items. */
  void batchDelete(Collection<Key> keys);

  /**
   * The first page of a query, described by field values: {@code q -> q.partition("t1").limit(25)}.
   */
  TypedPage<T> query(UnaryOperator<TypedQuery<T>> query);

  /** The first page of an untyped query. */
  TypedPage<T> query(Query query);

  /** The page a cursor of this table leads to. */
  TypedPage<T> page(String cursor);

  /** Every item a query matches, fetched page by page as the stream is consumed. */
  Stream<T> queryAll(UnaryOperator<TypedQuery<T>> query);

  /** Every item an untyped query matches. */
  Stream<T> queryAll(Query query);

  /** The first page of a scan. */
  TypedPage<T> scan(Scan scan);
}
