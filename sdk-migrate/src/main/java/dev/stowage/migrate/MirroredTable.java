package dev.stowage.migrate;

import dev.stowage.DeleteJob;
import dev.stowage.MaintenanceJob;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.internal.MirroredJobs;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.UpdateResult;
import dev.stowage.query.WriteOptions;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A table that keeps an old and a new table in step during a zero-downtime migration: every write
 * goes to both, reads come from the old table, the new one, or both with differences reported —
 * switched at run time with {@link #readFrom(ReadFrom)}.
 *
 * <p>Cut-over: wrap the live table with its copy ({@code readFrom(OLD)}), run {@code stowage
 * migrate} to copy what existed before, switch to {@code COMPARE} and watch the difference
 * listener, then to {@code NEW}, then drop the old table.
 *
 * <p>Writes: the old table is authoritative. Each write (with its condition, version check and
 * request id) is applied to the old table first; once it succeeded, its outcome is mirrored to the
 * new table unconditionally — a put or delete of the same item, or for an update the put of the
 * item the old table returned — so both hold the same item even when the new one lagged. A failed
 * mirror write goes to the {@link Builder#onMirrorFailure} listener if one is set, else it is
 * thrown (the old table has the write then; retrying the call is safe). Open the new table with the
 * same spec but without a version attribute, since versions are enforced by the old one.
 *
 * <p>Reads in {@code COMPARE} mode read both tables, report each difference to the listener and
 * return the old table's answer. Query pages are compared by their items. Cursors are sealed by the
 * store that issued them: give both stores the same cursor AEAD (and namespace) so cursors survive
 * the switch; {@link #page} reads from the table reads currently come from ({@code OLD} for
 * compare).
 *
 * <p>Thread-safe if both tables are; the read mode is volatile.
 */
public final class MirroredTable implements Table {
  /** Where reads come from. */
  public enum ReadFrom {
    /** The old table only. */
    OLD,
    /** The new table only. */
    NEW,
    /** Both tables; differences are reported and the old table's answer is returned. */
    COMPARE
  }

  /**
   * A read whose answers differed between the tables.
   *
   * @param operation the read, for example {@code get Key("u1")}
   * @param oldAnswer what the old table returned (rendered with {@code toString})
   * @param newAnswer what the new table returned
   */
  public record Difference(String operation, String oldAnswer, String newAnswer) {}

  /**
   * A write that succeeded on the old table but failed on the new one.
   *
   * @param operation the write, for example {@code put Key("u1")}
   * @param error the new table's error
   */
  public record MirrorFailure(String operation, RuntimeException error) {}

  private final Table oldTable;
  private final Table newTable;
  private final Consumer<Difference> onDifference;
  private final Consumer<MirrorFailure> onMirrorFailure;
  private volatile ReadFrom readFrom;

  private MirroredTable(Builder b) {
    this.oldTable = b.oldTable;
    this.newTable = b.newTable;
    this.onDifference = b.onDifference;
    this.onMirrorFailure = b.onMirrorFailure;
    this.readFrom = b.readFrom;
    if (!oldTable.spec().keySchema().equals(newTable.spec().keySchema())) {
      throw new IllegalArgumentException(
          "old and new tables have different key schemas: "
              + oldTable.spec().keySchema()
              + " and "
              + newTable.spec().keySchema());
    }
  }

  /** Starts a mirrored table over the live (old) table and its copy (new). */
  public static Builder builder(Table oldTable, Table newTable) {
    return new Builder(oldTable, newTable);
  }

  /** Switches where reads come from. */
  public void readFrom(ReadFrom mode) {
    this.readFrom = Objects.requireNonNull(mode, "mode");
  }

  /** Where reads come from now. */
  public ReadFrom readFrom() {
    return readFrom;
  }

  /** The old table. */
  public Table oldTable() {
    return oldTable;
  }

  /** The new table. */
  public Table newTable() {
    return newTable;
  }

  @Override
  public TableSpec spec() {
    return oldTable.spec();
  }

  @Override
  public String namespace() {
    return oldTable.namespace();
  }

  private Table reader() {
    return readFrom == ReadFrom.NEW ? newTable : oldTable;
  }

  private <T> T read(String operation, java.util.function.Function<Table, T> call) {
    if (readFrom != ReadFrom.COMPARE) {
      return call.apply(reader());
    }
    T a = call.apply(oldTable);
    T b = call.apply(newTable);
    if (!Objects.equals(comparable(a), comparable(b))) {
      onDifference.accept(new Difference(operation, String.valueOf(a), String.valueOf(b)));
    }
    return a;
  }

  private static Object comparable(Object answer) {
    return answer instanceof Page p ? p.items() : answer;
  }

  private void mirror(String operation, Runnable write) {
    try {
      write.run();
    } catch (RuntimeException e) {
      if (onMirrorFailure == null) {
        throw e;
      }
      onMirrorFailure.accept(new MirrorFailure(operation, e));
    }
  }

  @Override
  public Optional<Item> get(Key key, ReadOptions options) {
    return read("get " + key, t -> t.get(key, options));
  }

  @Override
  public void put(Item item, WriteOptions options) {
    oldTable.put(item, options);
    mirror("put " + spec().keySchema().keyOf(item), () -> newTable.put(item));
  }

  @Override
  public boolean putIfAbsent(Item item) {
    boolean stored = oldTable.putIfAbsent(item);
    if (stored) {
      mirror("put " + spec().keySchema().keyOf(item), () -> newTable.put(item));
    }
    return stored;
  }

  @Override
  public boolean delete(Key key, WriteOptions options) {
    boolean deleted = oldTable.delete(key, options);
    mirror("delete " + key, () -> newTable.delete(key));
    return deleted;
  }

  @Override
  public UpdateResult updateWithResult(Key key, Update update, WriteOptions options) {
    UpdateResult result = oldTable.updateWithResult(key, update, options);
    mirror("update " + key, () -> newTable.put(result.item()));
    return result;
  }

  @Override
  public Map<Key, Item> batchGet(Collection<Key> keys, ReadOptions options) {
    return read("batchGet of " + keys.size() + " keys", t -> t.batchGet(keys, options));
  }

  @Override
  public void batchPut(List<Item> items) {
    oldTable.batchPut(items);
    mirror("batchPut of " + items.size() + " items", () -> newTable.batchPut(items));
  }

  @Override
  public void batchDelete(Collection<Key> keys) {
    oldTable.batchDelete(keys);
    mirror("batchDelete of " + keys.size() + " keys", () -> newTable.batchDelete(keys));
  }

  @Override
  public Page query(Query query) {
    return read("query " + query, t -> t.query(query));
  }

  @Override
  public Page page(String cursor) {
    return reader().page(cursor);
  }

  @Override
  public Stream<Item> queryAll(Query query) {
    if (readFrom != ReadFrom.COMPARE) {
      return reader().queryAll(query);
    }
    List<Item> all = read("queryAll " + query, t -> t.queryAll(query).toList());
    return all.stream();
  }

  @Override
  public Page scan(Scan scan) {
    return read("scan " + scan, t -> t.scan(scan));
  }

  /**
   * Deletes what the query matches from the old table, then from the new one. Progress reports
   * count both; a mirrored job cannot be resumed as a whole (see {@link #resumeDelete}).
   */
  @Override
  public DeleteJob deleteWhere(Query query, DeleteJob.Options options) {
    return MirroredJobs.deleteWhere(oldTable, newTable, query, options);
  }

  /**
   * Not supported: a token names a position in one table only. Resume the interrupted side with
   * {@code oldTable().resumeDelete(token, …)} and run the same query on the other side.
   *
   * @throws UnsupportedCapabilityException always
   */
  @Override
  public DeleteJob resumeDelete(String resumeToken, DeleteJob.Options options) {
    throw new UnsupportedCapabilityException(
        "MIRRORED_DELETE_RESUME",
        "a delete token names a position in one table; resume it on oldTable() or newTable()");
  }

  /** Backfills the old table's indexes, then the new one's; progress reports count both. */
  @Override
  public MaintenanceJob backfillIndexes(MaintenanceJob.Options options) {
    return MirroredJobs.maintenance(oldTable, newTable, options, (t, o) -> t.backfillIndexes(o));
  }

  /** Verifies the old table's indexes, then the new one's; progress reports count both. */
  @Override
  public MaintenanceJob verifyIndexes(MaintenanceJob.Options options) {
    return MirroredJobs.maintenance(oldTable, newTable, options, (t, o) -> t.verifyIndexes(o));
  }

  /** Re-encrypts the old table, then the new one; progress reports count both. */
  @Override
  public MaintenanceJob reencrypt(MaintenanceJob.Options options) {
    return MirroredJobs.maintenance(oldTable, newTable, options, (t, o) -> t.reencrypt(o));
  }

  /**
   * Not supported: a token names a position in one table only; resume on {@link #oldTable()} or
   * {@link #newTable()}.
   *
   * @throws UnsupportedCapabilityException always
   */
  @Override
  public MaintenanceJob resumeMaintenance(String resumeToken, MaintenanceJob.Options options) {
    throw new UnsupportedCapabilityException(
        "MIRRORED_MAINTENANCE_RESUME",
        "a maintenance token names a position in one table; resume it on oldTable() or newTable()");
  }

  /**
   * Sweeps the old table's orphaned overflow blobs, then the new one's.
   *
   * @return the two reports' counts added up (prefix and cutoff of the old table)
   */
  @Override
  public OverflowSweeper.Report sweepOverflow(Duration gracePeriod, boolean dryRun) {
    OverflowSweeper.Report a = oldTable.sweepOverflow(gracePeriod, dryRun);
    OverflowSweeper.Report b = newTable.sweepOverflow(gracePeriod, dryRun);
    return new OverflowSweeper.Report(
        a.prefix(),
        dryRun,
        a.cutoff(),
        a.listed() + b.listed(),
        a.referenced() + b.referenced(),
        a.tooYoung() + b.tooYoung(),
        a.orphaned() + b.orphaned(),
        a.deleted() + b.deleted(),
        a.bytesDeleted() + b.bytesDeleted(),
        a.elapsed().plus(b.elapsed()),
        a.done() && b.done());
  }

  /** Configures a {@link MirroredTable}; not thread-safe. */
  public static final class Builder {
    private final Table oldTable;
    private final Table newTable;
    private ReadFrom readFrom = ReadFrom.OLD;
    private Consumer<Difference> onDifference = d -> {};
    private Consumer<MirrorFailure> onMirrorFailure;

    private Builder(Table oldTable, Table newTable) {
      this.oldTable = Objects.requireNonNull(oldTable, "oldTable");
      this.newTable = Objects.requireNonNull(newTable, "newTable");
    }

    /** Where reads come from at first; default {@link ReadFrom#OLD}. */
    public Builder readFrom(ReadFrom mode) {
      this.readFrom = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** Receives the differences {@code COMPARE} reads find; default: ignore them. */
    public Builder onDifference(Consumer<Difference> listener) {
      this.onDifference = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives failed mirror writes instead of having them thrown. */
    public Builder onMirrorFailure(Consumer<MirrorFailure> listener) {
      this.onMirrorFailure = listener;
      return this;
    }

    /**
     * The table.
     *
     * @throws IllegalArgumentException if the key schemas differ
     */
    public MirroredTable build() {
      return new MirroredTable(this);
    }
  }
}
