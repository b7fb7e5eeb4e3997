package dev.stowage;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.UpdateResult;
import dev.stowage.query.WriteOptions;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One logical table in one namespace: the item API applications program against.
 *
 * <p>Thread-safe. Every method validates its input before anything is written and throws {@link
 * InvalidRequestException} (or {@link IllegalArgumentException} from value constructors) for bad
 * input. Retryable failures are retried by the store's {@link RetryPolicy} before they surface.
 * Compression, encryption and overflow are applied transparently on every path.
 *
 * <p>Consistency: single-item reads with {@link ReadOptions#CONSISTENT} and writes are strongly
 * consistent on every backend; eventually consistent reads and index queries may lag writes where
 * the backend says so (DynamoDB GSIs).
 */
public interface Table {
  /** The table's spec. */
  TableSpec spec();

  /** The namespace this view belongs to (empty for the root namespace). */
  String namespace();

  /**
   * Reads an item, eventually consistent where the backend distinguishes (DynamoDB): {@code
   * get(key, ReadOptions.CONSISTENT)} reads the latest write.
   */
  default Optional<Item> get(Key key) {
    return get(key, ReadOptions.DEFAULT);
  }

  /** Reads an item with a projection or consistency option. */
  Optional<Item> get(Key key, ReadOptions options);

  /**
   * Stores an item, replacing any existing one with the same key. On a table with a {@linkplain
   * TableSpec.Builder#versionAttribute version attribute} the item's version must equal the stored
   * one (absent or zero: no item stored, or one without a version), and the stored item gets it
   * plus one.
   *
   * @throws ConditionFailedException if the version check fails
   */
  default void put(Item item) {
    put(item, WriteOptions.NONE);
  }

  /**
   * Stores an item if the condition holds.
   *
   * @throws ConditionFailedException if the condition (or the version check) fails
   * @throws ItemTooLargeException if it cannot fit even with overflow
   */
  void put(Item item, WriteOptions options);

  /** Stores an item only if none exists with its key. @return false if one existed */
  boolean putIfAbsent(Item item);

  /**
   * Deletes an item.
   *
   * <p>A delete whose response is lost in transit is sent again under the store's {@link
   * RetryPolicy}; the item is gone either way, but if the lost attempt had deleted it, the attempt
   * that answers finds nothing and this returns false. Where the answer itself matters (a claim, a
   * lease), delete with a condition (for example {@link dev.stowage.query.Condition#exists} of the
   * partition key attribute): a conditional delete whose response is lost reads the item again to
   * settle what happened, and answers true when that read finds the item gone.
   *
   * @return true if the delete that answered removed an item
   */
  default boolean delete(Key key) {
    return delete(key, WriteOptions.NONE);
  }

  /**
   * Deletes an item if the condition holds.
   *
   * @return true if an item was deleted
   * @throws ConditionFailedException if the condition fails
   */
  boolean delete(Key key, WriteOptions options);

  /** Applies an update, creating the item if absent. @return the item after the update */
  default Item update(Key key, Update update) {
    return update(key, update, WriteOptions.NONE);
  }

  /**
   * Applies an update atomically if the condition holds. With a request id that was already
   * applied, nothing changes and the current item is returned.
   *
   * @return the item after the update
   * @throws ConditionFailedException if the condition fails
   */
  default Item update(Key key, Update update, WriteOptions options) {
    return updateWithResult(key, update, options).item();
  }

  /**
   * Applies an update as {@link #update(Key, Update, WriteOptions)} does, and says what happened:
   * whether the change was applied or its request id recognised, and which request id, if any, the
   * item stopped remembering to make room for this one.
   *
   * <p>Idempotency contract: each item remembers the request ids of its last {@link
   * dev.stowage.TableSpec#idempotencyWindow()} idempotent writes (default 32). A write repeated
   * with a remembered id changes nothing; one repeated after that many other idempotent writes to
   * the same item is applied again. Choose the window larger than the number of distinct requests
   * that may hit one item while a client can still retry.
   *
   * @throws ConditionFailedException if the condition fails
   */
  UpdateResult updateWithResult(Key key, Update update, WriteOptions options);

  /** Reads many items; keys may exceed any backend's batch limit. @return found items by key */
  default Map<Key, Item> batchGet(Collection<Key> keys) {
    return batchGet(keys, ReadOptions.DEFAULT);
  }

  /** Reads many items with options. */
  Map<Key, Item> batchGet(Collection<Key> keys, ReadOptions options);

  /**
   * Stores many items (distinct keys), chunked to the backend's limits; items the backend leaves
   * unprocessed are retried. Not atomic as a whole: on failure some items may be stored.
   */
  void batchPut(List<Item> items);

  /** Deletes many items, chunked and retried like {@link #batchPut}. */
  void batchDelete(Collection<Key> keys);

  /** The first page of a query. */
  Page query(Query query);

  /**
   * The page a cursor leads to.
   *
   * @throws InvalidCursorException if the cursor is malformed, altered, expired or foreign, sealed
   *     under a cursor key this store does not hold, a job resume token rather than a page cursor,
   *     or continues a query of an index that was redefined since; {@link
   *     InvalidCursorException#reason()} says which
   */
  Page page(String cursor);

  /** Every item a query matches, fetched page by page as the stream is consumed. */
  Stream<Item> queryAll(Query query);

  /** The first page of a scan. */
  Page scan(Scan scan);

  /**
   * Starts a job deleting every item a query matches (ignoring its limit), overflow blobs too. Call
   * {@link DeleteJob#run()} to execute.
   */
  DeleteJob deleteWhere(Query query, DeleteJob.Options options);

  /**
   * Resumes a delete job from the token its progress reported.
   *
   * @throws InvalidCursorException if the token is not valid for this table
   */
  DeleteJob resumeDelete(String resumeToken, DeleteJob.Options options);

  /**
   * A job that writes the index values of every item that lacks or has stale ones, for example
   * after an index was added to a table that already holds data, or redefined with other attributes
   * (online: the table stays usable and concurrent writes are never overwritten). Until it has run,
   * queries of a redefined index return only items written since the change: values written under
   * another definition never match (see docs/FORMAT.md, "Index tuples").
   */
  MaintenanceJob backfillIndexes(MaintenanceJob.Options options);

  /**
   * A job that finds and repairs index values that disagree with the items holding them, for tables
   * other tools write too. Stowage keeps an item's index values (its synthesized {@code
   * stowage:ix:<index>:p} and {@code :s} attributes) in step on every write it makes; a native
   * write by another tool (a DynamoDB {@code UpdateItem} of an indexed attribute, say) changes the
   * attribute and leaves those values as they were. Index queries never return such an item for
   * values it no longer has (the core checks every hit against the item itself), but they do not
   * find it under its new values either until its index values are rewritten.
   *
   * <p>The job walks the table in scan order and rewrites every item whose index values are
   * <em>stale</em> (they disagree with its attributes) or <em>missing</em> (its attributes give
   * values it lacks), counting each kind in {@link MaintenanceJob.Progress}; a dry run only counts.
   * Each rewrite is conditional on the item being unchanged since it was read, so concurrent writes
   * are never overwritten. An indexed value that no index can hold (not a string, number or binary
   * value, or over the backend's limit) leaves the item out of that index. It is the same walk as
   * {@link #backfillIndexes}, reported as a verification; {@link #resumeMaintenance} continues it
   * from a progress token.
   */
  default MaintenanceJob verifyIndexes(MaintenanceJob.Options options) {
    return backfillIndexes(options);
  }

  /**
   * A job that re-encrypts every encrypted value that is not under the current primary key of the
   * store's key provider, after a key rotation.
   */
  MaintenanceJob reencrypt(MaintenanceJob.Options options);

  /**
   * Resumes a maintenance job from its last progress token.
   *
   * @throws InvalidCursorException if the token is not valid for this table
   */
  MaintenanceJob resumeMaintenance(String resumeToken, MaintenanceJob.Options options);

  /**
   * Deletes this table's overflow blobs that no item references and that are older than the grace
   * period (younger ones may belong to writes in flight). Walks the whole table.
   *
   * @param gracePeriod minimum age of a blob to be deleted, for example one hour
   * @param dryRun only count the orphans
   * @return what the sweep found and deleted
   */
  dev.stowage.overflow.OverflowSweeper.Report sweepOverflow(
      java.time.Duration gracePeriod, boolean dryRun);
}
