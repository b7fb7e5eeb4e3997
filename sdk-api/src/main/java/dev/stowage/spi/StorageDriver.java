package dev.stowage.spi;

import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A backend: the primitive operations on encoded items that Stowage's core builds every feature on.
 * Implementations must be thread-safe, translate native errors into {@link
 * dev.stowage.StowageException} subclasses (keeping the cause), and report their limits and
 * capabilities truthfully. Items passed in have already been validated and fit {@link #limits()}.
 *
 * <p>A driver never retries on its own: it throws retryable exceptions and the core's retry policy
 * decides.
 */
public interface StorageDriver extends AutoCloseable {
  /** A short name such as {@code memory} or {@code dynamodb}, used in messages and metrics. */
  String name();

  /**
   * Where this driver's tables live, within its backend: for example the DynamoDB endpoint and
   * region, the Datastore host, project and database, the Azure Tables service endpoint (which
   * names the account), or an identity of one in-memory instance. Two drivers with the same {@link
   * #name()} and location address the same tables; tools such as the migrator record it to tell
   * stores apart (a checkpoint is only resumed against the stores it was written for, and a table
   * is never copied onto itself). Computed locally, without a request; free of secrets.
   *
   * <p>The default is {@link #name()}, which says that every instance of the driver addresses the
   * same tables: a driver that can point at different places overrides it. Decorators forward it.
   */
  default String location() {
    return name();
  }

  /** The backend's limits. */
  DriverLimits limits();

  /**
   * The limits of one table: {@link #limits()} unless the table's layout changes them (an adopted
   * table's native keys may have other limits than keys the driver encodes). The core checks the
   * table's keys, items and query values against these.
   */
  default DriverLimits limits(TableLayout table) {
    return limits();
  }

  /** The optional abilities this driver has. */
  Set<Capability> capabilities();

  /**
   * Creates the table and its indexes if missing; idempotent. If a table exists whose key schema or
   * indexes disagree with {@code layout}, throws {@link dev.stowage.InvalidRequestException} saying
   * how. For an {@linkplain TableLayout#adopted() adopted} table a driver creates nothing it would
   * not create for a new table of the same native layout, and may refuse to create the table.
   */
  void ensureTable(TableLayout layout);

  /**
   * Checks that the table exists and agrees with {@code layout}, creating and changing nothing.
   *
   * @throws dev.stowage.NotFoundException if the table does not exist, naming it and saying how to
   *     create it
   * @throws dev.stowage.InvalidRequestException if the table exists but its key schema or indexes
   *     disagree with {@code layout}, spelling out every difference
   */
  void openTable(TableLayout layout);

  /** Deletes the table and all its items if it exists; idempotent. */
  void dropTable(TableRef table);

  /** Reads one item. */
  Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead);

  /**
   * Reads up to {@link DriverLimits#maxBatchGet()} distinct keys. Missing items are simply absent
   * from the result.
   */
  BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead);

  /**
   * Stores an item (replacing any existing one) if {@code expect} holds, atomically.
   *
   * <p>With {@link Expectation#ANY} the previous item returned may be the one the driver read just
   * before writing (as Datastore and Azure Tables do, with one plain read that also gives the types
   * of its properties) instead of the one the write atomically replaced: a write that lands in
   * between is not seen. The core only releases the overflow blob of that item, which is safe
   * either way (the version in between keeps its blob until the sweeper collects it); a driver must
   * not spend a transaction or an extra request on exactness there.
   *
   * @param returnPrevious whether to return the replaced item
   * @throws dev.stowage.ConditionFailedException if the expectation does not hold
   */
  WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious);

  /**
   * Deletes an item if {@code expect} holds, atomically. Deleting a missing item with {@link
   * Expectation#ANY} succeeds.
   *
   * @param returnPrevious whether to return the deleted item
   * @throws dev.stowage.ConditionFailedException if the expectation does not hold
   */
  WriteResult delete(TableLayout table, Key key, Expectation expect, boolean returnPrevious);

  /**
   * Applies up to {@link DriverLimits#maxBatchWrite()} unconditional writes to distinct keys. Not
   * atomic as a whole; returns what was not applied.
   */
  BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes);

  /**
   * Whether queries of this index of the table can be strongly consistent ({@link
   * DriverQuery#consistentRead()}). By default, whether the driver declares {@link
   * Capability#CONSISTENT_INDEX_QUERIES}; a driver may answer per index, such as DynamoDB for a
   * native index that is a local secondary index, once the table was opened.
   */
  default boolean consistentIndexQueries(TableLayout table, String index) {
    return capabilities().contains(Capability.CONSISTENT_INDEX_QUERIES);
  }

  /** Queries one partition of the table or an index; see {@link DriverQuery}. */
  QueryResult query(TableLayout table, DriverQuery query);

  /** Scans the whole table; see {@link DriverScan}. */
  QueryResult scan(TableLayout table, DriverScan scan);

  /**
   * Applies the operations atomically: all or none, every expectation checked. Requires {@link
   * Capability#TRANSACTIONS} (and {@link Capability#CROSS_PARTITION_TRANSACTIONS} for operations
   * spanning partitions or tables).
   *
   * @param layouts the layout of each table the operations name, in any order
   * @throws dev.stowage.ConditionFailedException if an expectation does not hold
   * @throws UnsupportedCapabilityException if the backend cannot do this transaction
   */
  default void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    throw new UnsupportedCapabilityException(
        "TRANSACTIONS", name() + " has no multi-item transactions");
  }

  /**
   * Applies a conditional update natively and atomically, returning the whole new item. Only called
   * when the driver declares {@link Capability#NATIVE_UPDATES}, and only with updates and
   * conditions on plain attributes (no codecs, no index attributes, no overflowed item: the core
   * adds {@code not exists} guards for its reserved attributes to the condition). A {@link
   * dev.stowage.ConditionFailedException} makes the core re-check through its portable path.
   *
   * @param condition the condition to enforce, or null
   */
  default StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    throw new UnsupportedCapabilityException("NATIVE_UPDATES", name() + " has no native updates");
  }

  /** Releases resources the driver created (not clients the application passed in). */
  @Override
  void close();
}
