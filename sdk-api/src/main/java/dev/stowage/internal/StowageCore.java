package dev.stowage.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.internal.RetryingBlobs;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared state behind a {@link Stowage} and its namespace views: driver, blob store, codecs,
 * cursor sealer, retry policy, and the tables already ensured. Thread-safe.
 */
public final class StowageCore {
  private final Shared shared;
  private final String namespace;

  /** Resources every namespace view shares. */
  static final class Shared {
    final StorageDriver driver;
    final BlobStore blobStore;
    final OverflowHandler overflow;
    final Codecs codecs;
    final CursorSealer sealer;
    final Duration cursorTtl;
    final Retrier retrier;
    final Clock clock;
    final Metrics metrics = new Metrics();
    final Map<TableRef, TableSpec> ensured = new ConcurrentHashMap<>();
    final boolean adaptiveRateLimiting;

    /** The driver as the store was given it (with its request listener), for tools. */
    final StorageDriver unmetered;

    Shared(
        StorageDriver driver,
        BlobStore blobStore,
        Codecs codecs,
        CursorKeys cursorKeys,
        Duration cursorTtl,
        RetryPolicy retryPolicy,
        Clock clock,
        boolean tableMetrics,
        boolean capacityMetrics,
        boolean adaptiveRateLimiting) {
      this.unmetered = driver;
      if (tableMetrics) {
        if (capacityMetrics) {
          // Billable units reported by the driver land in the table's counters. Without a
          // listener a driver whose backend must be asked for them (DynamoDB) does not ask.
          driver.capacityListener((t, index, r, w, d) -> metrics.table(t).consumed(index, r, w, d));
        }
        driver = new MeteredDriver(driver, metrics);
      }
      this.adaptiveRateLimiting = adaptiveRateLimiting;
      this.driver = driver;
      this.blobStore = blobStore;
      this.retrier = new Retrier(retryPolicy, metrics);
      this.overflow = Overflows.handler(blobStore, retrier);
      this.codecs = codecs == null ? Codecs.defaults() : codecs;
      this.sealer = new CursorSealer(cursorKeys, clock);
      this.cursorTtl = cursorTtl;
      this.clock = clock;
    }
  }

  private StowageCore(Shared shared, String namespace) {
    if (!TableRef.isValidNamespace(namespace)) {
      throw new IllegalArgumentException(
          "namespace '"
              + namespace
              + "' must be empty or 1 to 16 characters: a lowercase letter"
              + " followed by lowercase letters or digits");
    }
    this.shared = shared;
    this.namespace = namespace;
  }

  /** Creates the core behind a new {@link Stowage}. */
  public static StowageCore create(
      StorageDriver driver,
      BlobStore blobStore,
      Codecs codecs,
      CursorKeys cursorKeys,
      Duration cursorTtl,
      String namespace,
      RetryPolicy retryPolicy,
      Clock clock,
      boolean tableMetrics,
      boolean capacityMetrics,
      boolean adaptiveRateLimiting) {
    return new StowageCore(
        new Shared(
            driver,
            blobStore,
            codecs,
            cursorKeys,
            cursorTtl,
            retryPolicy,
            clock,
            tableMetrics,
            capacityMetrics,
            adaptiveRateLimiting),
        namespace);
  }

  /** The namespace. */
  public String namespace() {
    return namespace;
  }

  /**
   * The driver as the store was built over it (wrapped for its request listener, if any), without
   * the per-table metering: what tools call directly is not the application's traffic.
   */
  public StorageDriver driver() {
    return shared.unmetered;
  }

  /** The store's counters. */
  public Metrics metrics() {
    return shared.metrics;
  }

  /** A view in another namespace. */
  public StowageCore withNamespace(String ns) {
    return new StowageCore(shared, ns);
  }

  /** Opens an existing table, creating nothing. */
  public Table table(TableSpec spec) {
    return open(spec, false);
  }

  /** Opens a table, creating it and its indexes first if needed. */
  public Table ensureTable(TableSpec spec) {
    return open(spec, true);
  }

  private Table open(TableSpec spec, boolean create) {
    TableRef ref = new TableRef(namespace, spec.name());
    TableLayout layout = layout(ref, spec);
    requireNativeIndexes(spec, layout);
    // Every opened table shows in the metrics, with zeros until it overflows or compresses.
    Metrics.TableCounters counters = shared.metrics.table(ref);
    if (shared.adaptiveRateLimiting) {
      counters.ensureLimiter();
    }
    // A spec already checked (or created) on this store needs no further request.
    if (!spec.equals(shared.ensured.get(ref))) {
      if (create) {
        shared.retrier.run(() -> shared.driver.ensureTable(layout));
      } else {
        shared.retrier.run(() -> shared.driver.openTable(layout));
      }
      shared.ensured.put(ref, spec);
    }
    return new CoreTable(shared, ref, spec, layout);
  }

  /**
   * Refuses native indexes on a driver that does not declare them before it creates anything: a
   * driver unaware of them would take their plain attributes for synthesized ones. The driver's own
   * refusal, which says why its backend has none, is asked for with {@code openTable}, which never
   * creates or changes anything.
   */
  private void requireNativeIndexes(TableSpec spec, TableLayout layout) {
    var natives = spec.indexes().stream().filter(dev.stowage.IndexSpec::isNative).toList();
    if (!natives.isEmpty()
        && !shared.driver.capabilities().contains(dev.stowage.spi.Capability.NATIVE_INDEXES)) {
      try {
        shared.driver.openTable(layout);
      } catch (dev.stowage.UnsupportedCapabilityException refused) {
        throw refused;
      } catch (dev.stowage.StowageException other) {
        // Missing table, other disagreements: the refusal below says what matters first.
      }
      var first = natives.get(0);
      throw new dev.stowage.UnsupportedCapabilityException(
          dev.stowage.spi.Capability.NATIVE_INDEXES.name(),
          "the "
              + shared.driver.name()
              + " driver cannot use the backend's own secondary indexes, so table '"
              + spec.name()
              + "' cannot map index '"
              + first.name()
              + "' to native index '"
              + first.nativeIndex().name()
              + "'; declare it with IndexSpec.of instead, an index Stowage maintains itself");
    }
  }

  static TableLayout layout(TableRef ref, TableSpec spec) {
    return new TableLayout(
        ref,
        spec.keySchema(),
        spec.indexes().stream().map(IndexLayout::of).toList(),
        spec.adoptedName().orElse(null),
        spec.descendingQueries());
  }

  /** Drops a table and its overflow blobs. */
  public void dropTable(String tableName) {
    TableRef ref = new TableRef(namespace, tableName);
    shared.retrier.run(() -> shared.driver.dropTable(ref));
    shared.ensured.remove(ref);
    if (shared.blobStore != null) {
      RetryingBlobs blobs = new RetryingBlobs(shared.blobStore, shared.retrier);
      try (var listed = blobs.list(Overflows.blobPrefix(ref))) {
        blobs.deleteAll(listed.map(BlobStore.BlobInfo::key).toList());
      }
    }
  }

  /** Starts a transaction. */
  public Stowage.Transaction transaction() {
    return new TransactionImpl(shared);
  }

  /** Closes driver and blob store. */
  public void close() {
    try {
      shared.driver.close();
    } finally {
      if (shared.blobStore != null) {
        shared.blobStore.close();
      }
    }
  }
}
