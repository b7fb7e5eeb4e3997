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
   * <p>With {@link Expectation#ANY} the previous item returned may be a version the driver saw
   * earlier instead of the one the write atomically replaced: the one it read just before writing,
   * or (Datastore) the entity it last wrote under that key. A version written since by another
   * writer is then not seen. The core only releases the overflow blob of that item, which is safe
   * either way (a version not seen keeps its blob until the sweeper collects it; the version
   * returned is certainly no longer stored once the write has landed); a driver must not spend a
   * transaction or an extra request on exactness there.
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
   * Writes stored items copied from another table (the migrator's batches), as {@link #batchWrite}:
   * the same stored forms, tokens and guarantees. A copy is written once, so a driver that keeps
   * what it wrote for later writes of the same items (the Datastore driver keeps recent entities as
   * templates) may keep nothing of these, only forgetting what it kept of the items they replace;
   * holding a whole table's worth costs memory and collection time for nothing. Default: {@link
   * #batchWrite}.
   */
  default BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> writes) {
    return batchWrite(table, writes);
  }

  /**
   * Most writes one call of {@link #batchWriteCopies} takes for this table. Default: {@link
   * #limits(TableLayout)}'s {@link DriverLimits#maxBatchWrite()}, as for {@link #batchWrite}.
   *
   * <p>A driver that groups a call's writes into its own requests by partition (Azure Tables sends
   * one entity-group transaction, of up to 100 rows, per partition of a call) may take more, so
   * that a copy's writes of one partition arrive in one call and fill its requests where calls of
   * {@code maxBatchWrite} writes of several partitions each would send part-filled ones. It must
   * then take calls of up to this many writes to any number of partitions, with every guarantee of
   * {@link #batchWrite}. The migrator hands a page's writes to the target in calls of at most this
   * many (its checkpoint records each call), so a failed call is retried whole.
   *
   * <p>A decorator that forwards {@code batchWriteCopies} forwards this too; {@link
   * ForwardingDriver}, which sends copies to its own {@link #batchWrite} (where subclasses
   * intercept writes), keeps the default.
   */
  default int maxBatchWriteCopies(TableLayout table) {
    return limits(table).maxBatchWrite();
  }

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
   * Plans a segmented scan: divides the table, or the items of one of its indexes, into exactly
   * {@code total} {@linkplain ScanSegment segments} that together hold every item exactly once, to
   * be read independently and in parallel with {@link #scanSegment}. Requires {@link
   * Capability#SEGMENTED_SCANS}.
   *
   * <p><b>Coverage.</b> An item stored when the plan is made and not written again until every
   * segment has been read is returned by exactly one segment, exactly once. Segments may be empty
   * (more segments than items, or an uneven key distribution); how evenly items spread over the
   * segments is the driver's best effort (DynamoDB's own hashing, or key ranges from a sample).
   *
   * <p><b>Concurrent writes.</b> Segments of the table are fixed parts of the key space (or of
   * DynamoDB's key hash space), so an item never moves between segments: an item written or deleted
   * while the scan runs is returned at most once, in its old or its new version, and one created
   * meanwhile may or may not be returned. Segments of an index hold the items that are in the index
   * (they have its attributes, of the index's types): on backends that scan the index itself
   * (DynamoDB) an item whose index values change while the scan runs may be returned twice or not
   * at all; on backends that scan the table's key ranges and keep the items in the index (memory,
   * Datastore, Azure Tables) such an item is returned at most once, like a table segment's.
   *
   * <p>Planning may read the table (a sample of keys) but never writes. A plan stays valid while
   * the table exists: items written later fall into exactly one of its segments.
   *
   * @param index the index whose items to divide, or null for the whole table
   * @param total how many segments, 1 to {@link ScanSegment#MAX_TOTAL}
   * @return {@code total} segments, numbered 0 to {@code total - 1} in order
   * @throws UnsupportedCapabilityException if the backend cannot scan in segments (or cannot scan
   *     that index in segments), with the reason
   * @throws IllegalArgumentException if {@code total} is out of range or the table has no such
   *     index
   */
  default java.util.List<ScanSegment> segments(TableLayout table, String index, int total) {
    throw new UnsupportedCapabilityException(
        Capability.SEGMENTED_SCANS.name(), name() + " has no segmented scans");
  }

  /**
   * Reads the next page of a segment planned by {@link #segments} for this table: up to {@link
   * SegmentScan#limit()} items after {@link SegmentScan#checkpoint()}, and the checkpoint that
   * continues after them. Reading a segment page by page from its start to a page with {@link
   * SegmentPage#done()} returns each of its items once (see {@link #segments} for writes made
   * meanwhile); a read resumed from any page's checkpoint — in another process, after a crash —
   * continues exactly where that page ended. Several segments may be read at once from any threads.
   *
   * @throws UnsupportedCapabilityException if the backend cannot scan in segments
   * @throws IllegalArgumentException if the segment or checkpoint was not made by this driver for
   *     this table (a driver detects what it can)
   */
  default SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    throw new UnsupportedCapabilityException(
        Capability.SEGMENTED_SCANS.name(), name() + " has no segmented scans");
  }

  /**
   * Splits the unread part of a segment in two at about {@code fraction} of its items, so a segment
   * that turned out large can be shared out while it is being read (a Beam runner's dynamic work
   * rebalancing). The unread part is what a read of {@code segment} resumed from {@code checkpoint}
   * (null: from its start) would return; the split point lies strictly after the checkpoint, so the
   * {@linkplain SegmentSplit#primary() primary}, read on from the same checkpoint, keeps at least
   * the first key after it and the {@linkplain SegmentSplit#residual() residual} the keys from the
   * split point on (Azure Tables cuts only between partitions). Every item the unsplit segment
   * would return after the checkpoint is returned by exactly one of the two (writes made meanwhile
   * as in {@link #segments}).
   *
   * <p>Only segments that are key ranges can be split (memory, local, Datastore, Azure Tables): the
   * driver finds a key about {@code fraction} of the way through the keys after the checkpoint
   * (counted, or from a sample where counting would read the whole range). DynamoDB's parallel-scan
   * segments are parts of its own hash space with no key to split at; there, as on any driver
   * without key-range segments, the answer is empty and a finer division comes from planning more
   * segments. Planning the split reads keys but never writes.
   *
   * @param segment a segment this driver planned for the table, or a part of one it split
   * @param checkpoint the checkpoint of the last page read of {@code segment}, or null if none was
   * @param fraction the share of the unread items the primary keeps, strictly between 0 and 1
   * @return the two parts, or empty when this segment cannot be split (a backend without key-range
   *     segments) or when fewer than two keys (Azure Tables: partitions) are left after the
   *     checkpoint
   * @throws IllegalArgumentException if {@code fraction} is not strictly between 0 and 1, or the
   *     segment or checkpoint was not made by this driver for this table
   */
  default java.util.Optional<SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    requireSplitFraction(fraction);
    return java.util.Optional.empty();
  }

  /**
   * Checks a {@link #splitSegment} fraction: strictly between 0 and 1.
   *
   * @throws IllegalArgumentException if it is not
   */
  static void requireSplitFraction(double fraction) {
    if (!(fraction > 0 && fraction < 1)) {
      throw new IllegalArgumentException(
          "a split keeps a fraction strictly between 0 and 1 of the segment, not " + fraction);
    }
  }

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

  /**
   * Applies a conditional update as {@link #updateNative} does, for a caller that does not need the
   * item back (it knows what it wrote), so that a backend that can leave the item out of its
   * response does. The default calls {@link #updateNative} and drops the item, which is what a
   * driver that decorates {@link #updateNative} (counting, fault injection) and not this method
   * gets as well.
   *
   * @param condition the condition to enforce, or null
   */
  default void updateNativeWithoutItem(
      TableLayout table, Key key, Update update, Condition condition) {
    updateNative(table, key, update, condition);
  }

  /**
   * Where to report the billable units of each request ({@link CapacityListener}); the core sets it
   * once when a store that counts capacity is built over this driver ({@code
   * Stowage.Builder.capacityMetrics}, usage tracking), before any request, and never otherwise. A
   * driver whose backend bills by request units reports them; one whose backend must be asked for
   * them in each request (DynamoDB's {@code ReturnConsumedCapacity}) asks only while a listener
   * other than {@link CapacityListener#NONE} is set. The default ignores the listener (the memory
   * driver bills nothing). A driver shared by several stores reports to the last one set.
   */
  default void capacityListener(CapacityListener listener) {}

  /** Releases resources the driver created (not clients the application passed in). */
  @Override
  void close();
}
