package dev.stowage.local;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.local.internal.Database;
import dev.stowage.local.internal.LocalOps;
import dev.stowage.memory.MemoryLimits;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The local store: a persistent driver keeping every table of every namespace in one SQLite file,
 * for development machines, tools and tests that must outlive a process. It behaves as the memory
 * driver does (key order, atomic expectations, transactions across tables, indexes, limits that
 * mimic a cloud; see {@link MemoryLimits}), and keeps what it stores across restarts.
 *
 * <pre>{@code
 * Path file = Path.of(System.getProperty("user.home"), ".stowage", "dev.db");
 * try (Stowage store = Stowage.builder(LocalDriver.open(file))
 *         .blobStore(new FileBlobStore(LocalDriver.blobDirectory(file)))
 *         .build()) {
 *   ...
 * }
 * }</pre>
 *
 * <p><b>Concurrency.</b> Thread-safe. Several drivers, in this process or in others, may open the
 * same file at once: every write is one SQLite transaction that takes the file's write lock first,
 * so a conditional write or a transaction sees the latest committed data of every process, and
 * reads see a consistent snapshot (WAL mode: readers never wait for a writer). A writer waits up to
 * {@link Builder#busyTimeout} for another process's write; past it the write fails with a retryable
 * {@link dev.stowage.ConflictException} having written nothing. Failed expectations throw {@link
 * ConditionFailedException}, as the memory driver does.
 *
 * <p><b>Durability.</b> A write is in the file when it returns; a crash of the process at any point
 * loses no committed write and leaves no part of an uncommitted one. By default a power loss may
 * undo the last commits (SQLite's {@code synchronous=NORMAL} in WAL mode, never a corrupt file);
 * {@link Builder#durable} makes each commit wait for the disk.
 *
 * <p><b>Capabilities.</b> Transactions (also across partitions and tables), consistent index
 * queries, native indexes (created from the layouts, as the memory driver does) and segmented scans
 * (key ranges, as the memory driver plans them). Not {@link Capability#NATIVE_UPDATES}: updates
 * take the core's conditional read-modify-write path, which a local file serves as fast.
 */
public final class LocalDriver implements StorageDriver {
  /** What this driver can do; {@link Builder#capabilities} narrows it. */
  public static final Set<Capability> SUPPORTED =
      Set.of(
          Capability.TRANSACTIONS,
          Capability.CROSS_PARTITION_TRANSACTIONS,
          Capability.CONSISTENT_INDEX_QUERIES,
          Capability.NATIVE_INDEXES,
          Capability.SEGMENTED_SCANS);

  private final Database db;
  private final LocalOps ops;
  private final DriverLimits limits;
  private final Set<Capability> capabilities;

  private LocalDriver(Builder b) {
    this.limits = b.limits;
    this.capabilities = Set.copyOf(b.capabilities);
    this.db = new Database(b.file, b.busyTimeout, b.durable);
    this.ops = new LocalOps(db, limits);
  }

  /**
   * A driver on {@code file} (created with its directories when missing) with DynamoDB-like limits
   * and every capability it supports.
   *
   * @throws dev.stowage.UnavailableException if the file cannot be opened or created
   */
  public static LocalDriver open(Path file) {
    return builder(file).build();
  }

  /** A builder for a driver on {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(Objects.requireNonNull(file, "file"));
  }

  /**
   * The directory beside a store file where its overflow blobs go by convention: {@code orders.db}
   * → {@code orders.blobs}. Give it to a {@link dev.stowage.overflow.FileBlobStore}.
   */
  public static Path blobDirectory(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    String name = abs.getFileName().toString();
    String base = name.endsWith(".db") ? name.substring(0, name.length() - 3) : name;
    return abs.resolveSibling(base + ".blobs");
  }

  /** The store's file. */
  public Path file() {
    return db.file();
  }

  @Override
  public String name() {
    return "local";
  }

  /** The file's absolute path: drivers on the same file address the same tables. */
  @Override
  public String location() {
    return db.file().toString();
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
   * <p>A native index (see {@link dev.stowage.spi.IndexLayout#isNative()}) is created here like any
   * other, over the plain values of its attributes, and filled from the items already stored.
   * Indexes the table has and {@code layout} does not name are kept.
   */
  @Override
  public void ensureTable(TableLayout layout) {
    requireNativeIndexes(layout);
    ops.ensureTable(layout);
  }

  @Override
  public void openTable(TableLayout layout) {
    requireNativeIndexes(layout);
    ops.openTable(layout);
  }

  private void requireNativeIndexes(TableLayout layout) {
    if (layout.hasNativeIndexes() && !capabilities.contains(Capability.NATIVE_INDEXES)) {
      var first = layout.indexes().stream().filter(i -> i.isNative()).findFirst().orElseThrow();
      throw new UnsupportedCapabilityException(
          Capability.NATIVE_INDEXES.name(),
          "this local store was built without native indexes, like a backend that has no"
              + " secondary indexes of its own (Azure Table Storage), so index '"
              + first.name()
              + "' cannot map to native index '"
              + first.nativeName()
              + "'");
    }
  }

  @Override
  public void dropTable(TableRef table) {
    ops.dropTable(table);
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    return ops.get(table, key);
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    if (keys.size() > limits.maxBatchGet()) {
      throw new InvalidRequestException(
          "batch get of " + keys.size() + " keys exceeds " + limits.maxBatchGet());
    }
    return new BatchGetResult(ops.batchGet(table, keys), List.of());
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    return ops.put(table, item, expect, returnPrevious);
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    return ops.delete(table, key, expect, returnPrevious);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    if (writes.size() > limits.maxBatchWrite()) {
      throw new InvalidRequestException(
          "batch write of " + writes.size() + " exceeds " + limits.maxBatchWrite());
    }
    ops.batchWrite(table, writes);
    return BatchWriteResult.DONE;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    return ops.query(table, query);
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    return ops.scan(table, scan);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The local store divides the key space at keys evenly spread through the items present, as
   * the memory driver does.
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
    return ops.segments(table, index, total);
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    if (!capabilities.contains(Capability.SEGMENTED_SCANS)) {
      return StorageDriver.super.scanSegment(table, scan);
    }
    return ops.scanSegment(table, scan);
  }

  /** {@inheritDoc} Counts the keys left after the checkpoint and cuts at the fraction of them. */
  @Override
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    if (!capabilities.contains(Capability.SEGMENTED_SCANS)) {
      return StorageDriver.super.splitSegment(table, segment, checkpoint, fraction);
    }
    return ops.splitSegment(table, segment, checkpoint, fraction);
  }

  /** {@inheritDoc} All in one SQLite transaction: every expectation checked, then every write. */
  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> txOps) {
    if (!capabilities.contains(Capability.TRANSACTIONS)) {
      StorageDriver.super.transactWrite(layouts, txOps);
    }
    ops.transactWrite(layouts, txOps);
  }

  /** Closes the file's connections; the data stays in the file. Idempotent. */
  @Override
  public void close() {
    db.close();
  }

  @Override
  public String toString() {
    return "LocalDriver[" + db.file() + "]";
  }

  /** Configures a {@link LocalDriver}. Not thread-safe. */
  public static final class Builder {
    private final Path file;
    private DriverLimits limits = MemoryLimits.dynamoDb();
    private final Set<Capability> capabilities = EnumSet.copyOf(SUPPORTED);
    private Duration busyTimeout = Duration.ofSeconds(10);
    private boolean durable;

    private Builder(Path file) {
      this.file = file;
    }

    /**
     * The limits to enforce (default: DynamoDB's), for example a preset of {@link MemoryLimits} to
     * mimic the cloud an application runs on in production.
     */
    public Builder limits(DriverLimits l) {
      this.limits = Objects.requireNonNull(l, "limits");
      return this;
    }

    /**
     * Exactly these capabilities, as far as the driver has them ({@link #SUPPORTED}): a backend's
     * preset from {@link MemoryLimits} refuses here what that backend refuses. {@link
     * Capability#NATIVE_UPDATES} in the set is left out (updates then take the core's portable
     * path, with the same results).
     */
    public Builder capabilities(Set<Capability> c) {
      capabilities.clear();
      for (Capability x : c) {
        if (SUPPORTED.contains(x)) {
          capabilities.add(x);
        }
      }
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

    /**
     * How long a write waits for another process holding the file's write lock (default 10 seconds)
     * before it fails with a retryable {@link dev.stowage.ConflictException}.
     */
    public Builder busyTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("busy timeout must not be negative");
      }
      this.busyTimeout = timeout;
      return this;
    }

    /**
     * Whether every commit waits until it is on disk (default false: a commit survives the process
     * crashing at once, and a power loss within moments of it may undo it).
     */
    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /**
     * The driver, with the file opened (and created with its directories when missing).
     *
     * @throws dev.stowage.UnavailableException if the file cannot be opened or created
     * @throws dev.stowage.InvalidRequestException if the file holds a format this version cannot
     *     read
     */
    public LocalDriver build() {
      return new LocalDriver(this);
    }
  }
}
