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

  /** The backend's limits. */
  DriverLimits limits();

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
