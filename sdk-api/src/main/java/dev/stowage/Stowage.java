package dev.stowage;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import dev.stowage.codec.Codecs;
import dev.stowage.internal.CursorKeys;
import dev.stowage.internal.Metrics;
import dev.stowage.internal.ObservedBlobStore;
import dev.stowage.internal.ObservedDriver;
import dev.stowage.internal.OperationCounters;
import dev.stowage.internal.StowageAccess;
import dev.stowage.internal.StowageCore;
import dev.stowage.internal.usage.UsageDriver;
import dev.stowage.internal.usage.UsageSession;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The entry point: a store over one backend driver and blob store, seen through one namespace.
 *
 * <pre>{@code
 * Stowage store = Stowage.builder(MemoryDriver.create()).blobStore(new MemoryBlobStore()).build();
 * Table users = store.ensureTable(TableSpec.builder("users", KeySchema.of("id", STRING)).build());
 * users.put(Item.builder().put("id", "u1").put("name", "Ada").build());
 * }</pre>
 *
 * <p>Thread-safe; create one per application and share it. {@link #namespace(String)} returns a
 * view of the same backend in another namespace (tables, blobs and cursors of one namespace are
 * invisible to the others). {@link #close()} closes the driver and blob store.
 */
public final class Stowage implements AutoCloseable {
  static {
    StowageAccess.install(s -> s.core.metrics());
  }

  private final StowageCore core;
  private final UsageSession usage;

  private Stowage(StowageCore core, UsageSession usage) {
    this.core = core;
    this.usage = usage;
  }

  /** Starts a store over a driver. */
  public static Builder builder(StorageDriver driver) {
    return new Builder(driver);
  }

  /** The namespace of this view (empty string for the root namespace). */
  public String namespace() {
    return core.namespace();
  }

  /**
   * A view of the same backend in another namespace, sharing the driver, blob store and keys.
   * Closing a view closes the shared resources too.
   *
   * @param namespace empty, or 1 to 16 characters: a lowercase letter followed by lowercase letters
   *     or digits
   */
  public Stowage namespace(String namespace) {
    return new Stowage(core.withNamespace(namespace), usage);
  }

  /**
   * Opens an existing table. Creates nothing: use {@link #ensureTable} to create a table that may
   * not exist yet.
   *
   * @throws NotFoundException if the table does not exist
   * @throws InvalidRequestException if the table exists but its key schema or indexes disagree with
   *     {@code spec}; the message names every difference
   */
  public Table table(TableSpec spec) {
    return core.table(spec);
  }

  /**
   * Opens a table, creating it and its indexes on the backend first if they do not exist. Indexes
   * added to an existing table are created too; {@link Table#backfillIndexes} fills them for items
   * written before. Idempotent and safe to call concurrently.
   *
   * @throws InvalidRequestException if a table exists whose key schema disagrees with {@code spec}
   */
  public Table ensureTable(TableSpec spec) {
    return core.ensureTable(spec);
  }

  /**
   * Opens an existing table as a typed table of {@code type}, whose annotations describe the table
   * (see {@link dev.stowage.typed.TypedSchema}). Creates nothing.
   *
   * @throws InvalidRequestException if the class cannot be mapped (naming the class and field), or
   *     the table exists with a key schema or indexes that disagree with the class
   * @throws NotFoundException if the table does not exist
   */
  public <T> dev.stowage.typed.TypedTable<T> table(Class<T> type) {
    return table(dev.stowage.typed.TypedSchema.of(type));
  }

  /** Opens an existing table as a typed table with this schema. Creates nothing. */
  public <T> dev.stowage.typed.TypedTable<T> table(dev.stowage.typed.TypedSchema<T> schema) {
    return dev.stowage.typed.TypedTable.of(table(schema.spec()), schema);
  }

  /**
   * Opens a typed table of {@code type}, creating the table and its indexes first if they do not
   * exist, as {@link #ensureTable(TableSpec)} does with the spec the class implies.
   *
   * @throws InvalidRequestException if the class cannot be mapped, naming the class and field
   */
  public <T> dev.stowage.typed.TypedTable<T> ensureTable(Class<T> type) {
    return ensureTable(dev.stowage.typed.TypedSchema.of(type));
  }

  /** Opens a typed table with this schema, creating it first if it does not exist. */
  public <T> dev.stowage.typed.TypedTable<T> ensureTable(dev.stowage.typed.TypedSchema<T> schema) {
    return dev.stowage.typed.TypedTable.of(ensureTable(schema.spec()), schema);
  }

  /** Deletes a table and every item in it from this namespace. Overflow blobs are deleted too. */
  public void dropTable(String tableName) {
    core.dropTable(tableName);
  }

  /** Starts an atomic multi-item write (where the backend supports transactions). */
  public Transaction transaction() {
    return core.transaction();
  }

  /** The driver's name, for example {@code dynamodb}. */
  public String backend() {
    return core.driver().name();
  }

  /**
   * The store's counters so far: requests, and overflow and compression per table; {@code
   * dev.stowage.micrometer.MicrometerMetrics.bind} exports them to Micrometer, and {@link
   * Builder#requestListener} reports every request.
   */
  public StowageMetrics metrics() {
    var m = core.metrics();
    return new StowageMetrics(
        m.reads(),
        m.writes(),
        m.queries(),
        m.throttledRequests(),
        m.casRetries(),
        m.requestIdsForgotten(),
        m.staleIndexHits(),
        m.tables().stream().map(Stowage::snapshot).toList(),
        m.retries(),
        byReason(m::throttledRequests));
  }

  private static Map<ThrottledException.Reason, Long> byReason(
      java.util.function.ToLongFunction<ThrottledException.Reason> count) {
    Map<ThrottledException.Reason, Long> out = new EnumMap<>(ThrottledException.Reason.class);
    for (ThrottledException.Reason r : ThrottledException.Reason.values()) {
      out.put(r, count.applyAsLong(r));
    }
    return out;
  }

  private static StowageMetrics.TableMetrics snapshot(Metrics.TableCounters c) {
    List<StowageMetrics.OperationMetrics> ops = new ArrayList<>();
    for (OperationCounters o : c.operations()) {
      if (o.requests() == 0) {
        continue;
      }
      ops.add(
          new StowageMetrics.OperationMetrics(
              o.op().tag(),
              o.index(),
              o.requests(),
              o.throttled(),
              o.conflicts(),
              o.conditionFailures(),
              o.errors(),
              o.itemsRead(),
              o.itemsWritten(),
              o.bytesRead(),
              o.bytesWritten(),
              Duration.ofNanos(o.nanos())));
    }
    List<StowageMetrics.CapacityMetrics> capacity = new ArrayList<>();
    c.capacity()
        .forEach(
            (index, u) ->
                capacity.add(new StowageMetrics.CapacityMetrics(index, u[0], u[1], u[2])));
    var limiter = c.limiter();
    return new StowageMetrics.TableMetrics(
        c.table().namespace(),
        c.table().table(),
        c.overflowBlobsWritten(),
        c.overflowBytesWritten(),
        c.overflowBlobsRead(),
        c.overflowBytesRead(),
        c.compressedValues(),
        c.bytesBeforeCompression(),
        c.bytesAfterCompression(),
        ops,
        capacity,
        c.retries(),
        byReason(c::throttled),
        limiter == null ? Double.POSITIVE_INFINITY : limiter.rate());
  }

  /**
   * What the store's tables used since it was built and their hot keys now, for every namespace
   * view (see {@link dev.stowage.usage.UsageSnapshot}).
   *
   * @throws IllegalStateException if the store was built without {@link Builder#usageTracking}
   */
  public dev.stowage.usage.UsageSnapshot usage() {
    if (usage == null) {
      throw new IllegalStateException(
          "usage tracking is off: build the store with Stowage.Builder.usageTracking");
    }
    return usage.recorder().snapshot();
  }

  /** Low-level access for tools: the driver. */
  public StorageDriver driver() {
    return core.driver();
  }

  /** Closes the driver and blob store. */
  @Override
  public void close() {
    try {
      if (usage != null) {
        usage.close();
      }
    } finally {
      core.close();
    }
  }

  /** Configures a {@link Stowage}; not thread-safe. */
  public static final class Builder {
    final StorageDriver driver;
    BlobStore blobStore;
    Codecs codecs;
    Aead cursorAead;
    KeysetHandle cursorKeys;
    Duration cursorTtl = Duration.ofHours(24);
    String namespace = "";
    RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    Clock clock = Clock.systemUTC();
    RequestListener requestListener;
    dev.stowage.usage.UsageTracking usageTracking;
    boolean tableMetrics = true;
    boolean capacityMetrics;
    boolean adaptiveRateLimiting;

    private Builder(StorageDriver driver) {
      this.driver = Objects.requireNonNull(driver, "driver");
    }

    /**
     * Where oversized items overflow to. Without one, oversized items fail with {@link
     * ItemTooLargeException}.
     */
    public Builder blobStore(BlobStore store) {
      this.blobStore = store;
      return this;
    }

    /** Compression and encryption settings; default: compression only, no encryption keys. */
    public Builder codecs(Codecs codecs) {
      this.codecs = codecs;
      return this;
    }

    /**
     * The Tink AEAD keyset (AES-256-GCM, for example) that seals page cursors and job resume
     * tokens. Give every instance that serves the same clients the same keyset; to rotate, add a
     * new primary key and keep the old one while its cursors are to stay valid. A cursor sealed
     * under a key the keyset does not hold fails with {@link
     * InvalidCursorException.Reason#UNKNOWN_KEY}.
     *
     * <p>Default, when neither this nor {@link #cursorAead} is set: the codec keyset ({@link
     * Codecs.Builder#keys}) if one is configured and held in the process (not a KMS envelope
     * provider), used through its own Tink AEAD under the cursors' associated data, so instances
     * sharing a codec keyset share cursors; otherwise a random key generated once per process,
     * whose cursors other processes, and this one after a restart, reject as {@code UNKNOWN_KEY}.
     *
     * @throws IllegalArgumentException if the keyset holds no usable AEAD primary key
     */
    public Builder cursorKeys(KeysetHandle keyset) {
      this.cursorKeys = Objects.requireNonNull(keyset, "keyset");
      CursorKeys.ofKeyset(keyset, "the cursor keyset"); // validates it now
      return this;
    }

    /**
     * An AEAD that seals page cursors, for keys Stowage cannot enumerate. Prefer {@link
     * #cursorKeys}: with an opaque AEAD a cursor sealed under a key it does not hold cannot be told
     * from an altered one and fails as {@link InvalidCursorException.Reason#TAMPERED}. Use a key
     * shared by every instance that serves the same clients. Ignored when {@link #cursorKeys} is
     * set; for the default see there.
     */
    public Builder cursorAead(Aead aead) {
      this.cursorAead = aead;
      return this;
    }

    /** How long a cursor stays valid; default 24 hours. */
    public Builder cursorTtl(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("cursor ttl must be positive");
      }
      this.cursorTtl = ttl;
      return this;
    }

    /** The namespace; default the root namespace {@code ""}. */
    public Builder namespace(String ns) {
      this.namespace = Objects.requireNonNull(ns, "namespace");
      return this;
    }

    /** How retryable errors are retried; default {@link RetryPolicy#DEFAULT}. */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The clock for cursor expiry and job timings; for tests. */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * Receives every request the store sends to its driver and blob store, with its latency,
     * outcome and bytes (for example {@code MicrometerMetrics.of(registry)}); default none.
     */
    public Builder requestListener(RequestListener listener) {
      this.requestListener = listener;
      return this;
    }

    /**
     * Tracks what each table uses and its hot partition keys, read with {@link Stowage#usage()};
     * default off (see {@link dev.stowage.usage.UsageTracking}). Tracking takes the billable units
     * the backend reports, so it turns on {@link #capacityMetrics} as well.
     */
    public Builder usageTracking(dev.stowage.usage.UsageTracking tracking) {
      this.usageTracking = tracking;
      return this;
    }

    /**
     * Whether to count every request per table, operation and index (requests by outcome, items,
     * bytes, time: {@link StowageMetrics.TableMetrics}); default on. Off, only the store-wide
     * counters and overflow and compression per table are kept, and no capacity is counted (see
     * {@link #capacityMetrics}). Counting costs a few striped counter increments per request
     * (docs/metrics.md).
     */
    public Builder tableMetrics(boolean enabled) {
      this.tableMetrics = enabled;
      return this;
    }

    /**
     * Whether table metrics also count the billable units each request consumed under its backend's
     * pricing model ({@link StowageMetrics.TableMetrics#capacity()}: DynamoDB's consumed capacity,
     * Datastore's entity operations, Azure's storage transactions); default off, and then those
     * read zero. On DynamoDB the units have to be asked for: with this on every request sends
     * {@code ReturnConsumedCapacity} ({@code INDEXES} for tables with indexes, {@code TOTAL}
     * otherwise), which on DynamoDB Local costs a put about 12% more CPU; off, a request sends only
     * the item and its concurrency token. {@link #usageTracking} turns it on (the usage's cost
     * estimate prices the units the backend reports). No effect with {@link #tableMetrics}{@code
     * (false)}.
     */
    public Builder capacityMetrics(boolean enabled) {
      this.capacityMetrics = enabled;
      return this;
    }

    /**
     * Client-side adaptive rate limiting per table; default off. When on, each table has a token
     * bucket that lets everything through until the backend first throttles a request of that
     * table; from then on its rate drops on every throttle (to 70% of the rate measured) and grows
     * back along a cubic curve while requests succeed, as the AWS SDK's adaptive retry mode does. A
     * burst the backend refuses thus slows down instead of turning into a retry storm; callers wait
     * for their token on their own thread. The current rate of each table shows in {@link
     * StowageMetrics.TableMetrics#rateLimit()}.
     */
    public Builder adaptiveRateLimiting(boolean enabled) {
      this.adaptiveRateLimiting = enabled;
      return this;
    }

    /** Builds the store. @throws IllegalArgumentException on an invalid namespace */
    public Stowage build() {
      StorageDriver d = driver;
      BlobStore blobs = blobStore;
      UsageSession usage = null;
      if (usageTracking != null) {
        usage = new UsageSession(usageTracking, clock, driver.name());
        d = new UsageDriver(d, usage.recorder());
        blobs =
            blobs == null ? null : new ObservedBlobStore(blobs, driver.name(), usage.recorder());
      }
      if (requestListener != null) {
        d = new ObservedDriver(d, requestListener);
        blobs = blobs == null ? null : new ObservedBlobStore(blobs, driver.name(), requestListener);
      }
      return new Stowage(
          StowageCore.create(
              d,
              blobs,
              codecs,
              CursorKeys.choose(cursorKeys, cursorAead, codecs),
              cursorTtl,
              namespace,
              retryPolicy,
              clock,
              tableMetrics,
              capacityMetrics || usageTracking != null,
              adaptiveRateLimiting),
          usage);
    }
  }

  /**
   * An atomic write of several items, possibly in several tables. Conditions are checked atomically
   * with the writes. Requires a backend with transactions; Azure Table Storage allows only one
   * partition of one table per transaction.
   */
  public interface Transaction {
    /** Adds a put. */
    Transaction put(Table table, dev.stowage.item.Item item, dev.stowage.query.Condition condition);

    /** Adds a delete. */
    Transaction delete(
        Table table, dev.stowage.item.Key key, dev.stowage.query.Condition condition);

    /** Adds a check that writes nothing. */
    Transaction check(Table table, dev.stowage.item.Key key, dev.stowage.query.Condition condition);

    /**
     * Commits all or nothing.
     *
     * @throws ConditionFailedException if a condition fails
     * @throws UnsupportedCapabilityException if the backend cannot run this transaction
     */
    void commit();

    /** The operations added so far, for messages. */
    List<String> describe();
  }
}
