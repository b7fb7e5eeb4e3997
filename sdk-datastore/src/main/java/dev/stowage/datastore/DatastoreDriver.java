package dev.stowage.datastore;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.datastore.Entity;
import com.google.cloud.http.HttpTransportOptions;
import dev.stowage.datastore.internal.Billing;
import dev.stowage.datastore.internal.DatastoreSizeModel;
import dev.stowage.datastore.internal.Entities;
import dev.stowage.datastore.internal.Errors;
import dev.stowage.datastore.internal.KeyNames;
import dev.stowage.datastore.internal.Queries;
import dev.stowage.datastore.internal.Segments;
import dev.stowage.datastore.internal.TableCatalog;
import dev.stowage.datastore.internal.Writes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Stowage's driver for Google Cloud Datastore (Firestore in Datastore mode).
 *
 * <p>A table is a kind, a Stowage namespace the native Datastore namespace (the root namespace is
 * Datastore's default namespace), and an item key an entity key whose name encodes partition and
 * sort key order-preservingly, so a partition is one {@code __key__} range. Every property Stowage
 * types is excluded from indexes except the synthesized index attributes, whose queries need the
 * composite indexes that {@link DatastoreIndexes#yaml} lists; values other applications wrote keep
 * their native type and index flag through Stowage's writes. An {@linkplain TableLayout#adopted()
 * adopted} kind is used by its own name, its entities keyed by their own name or numeric id, with
 * no table record. See {@code docs/datastore.md}.
 *
 * <p>Conditional writes are read-check-write inside a Datastore transaction; contention surfaces as
 * {@link dev.stowage.ConflictException} and is never retried here. All reads are strongly
 * consistent (Firestore in Datastore mode offers nothing weaker that is cheaper).
 *
 * <p>Thread-safe. Arguments must not be null unless stated. {@link #close()} closes the client only
 * if this driver built it.
 */
public final class DatastoreDriver implements StorageDriver {
  /** Most keys per lookup. */
  public static final int MAX_LOOKUP_KEYS = 1000;

  /** Most mutations per commit. */
  public static final int MAX_MUTATIONS = 500;

  /** Largest entity Datastore stores, in its own byte count. */
  public static final long MAX_ENTITY_BYTES = 1_048_572;

  /** Largest unindexed string property. */
  public static final long MAX_PROPERTY_BYTES = 1_048_487;

  /**
   * Largest value of an indexed property, and so the longest synthesized index value the driver
   * stores as it is; longer ones are written in their long form (docs/FORMAT.md, "Long index
   * values"). Applications may index values of {@link DriverLimits#PORTABLE_INDEXED_VALUE_BYTES}.
   */
  public static final long MAX_INDEXED_BYTES = 1500;

  private static final DriverLimits LIMITS =
      new DriverLimits(
          MAX_ENTITY_BYTES,
          MAX_PROPERTY_BYTES,
          20_000,
          DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
          MAX_INDEXED_BYTES,
          KeyNames.MAX_PARTITION_BYTES,
          KeyNames.MAX_SORT_BYTES,
          MAX_LOOKUP_KEYS,
          MAX_MUTATIONS,
          MAX_MUTATIONS,
          new DatastoreSizeModel());

  /**
   * An adopted kind's key is the entity's own name, up to Datastore's 1,500 bytes (there is no
   * encoded key name to share with a sort key, and adopted kinds have none); everything else is as
   * for Stowage's own tables.
   */
  private static final DriverLimits ADOPTED_LIMITS =
      new DriverLimits(
          MAX_ENTITY_BYTES,
          MAX_PROPERTY_BYTES,
          20_000,
          DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
          MAX_INDEXED_BYTES,
          (int) MAX_INDEXED_BYTES,
          KeyNames.MAX_SORT_BYTES,
          MAX_LOOKUP_KEYS,
          MAX_MUTATIONS,
          MAX_MUTATIONS,
          new DatastoreSizeModel());

  private final Datastore datastore;
  private final boolean owned;
  private final Entities entities;
  private final TableCatalog catalog;
  private final Queries queries;
  private final Segments segments;
  private final Writes writes;
  private final Billing billing = new Billing();

  private DatastoreDriver(Datastore datastore, boolean owned) {
    this.datastore = Objects.requireNonNull(datastore, "datastore");
    this.owned = owned;
    DatastoreOptions options = datastore.getOptions();
    this.entities = new Entities(options.getProjectId(), options.getDatabaseId());
    this.catalog = new TableCatalog(datastore);
    this.queries = new Queries(datastore, entities, billing);
    this.segments = new Segments(datastore, entities);
    this.writes = new Writes(datastore, entities, billing);
  }

  /**
   * A driver over the application's client, which stays the application's to close. Configure it
   * without client-side retries ({@code ServiceOptions.getNoRetrySettings()}) to leave retrying to
   * Stowage's retry policy.
   */
  public static DatastoreDriver of(Datastore datastore) {
    return new DatastoreDriver(datastore, false);
  }

  /** A builder for a driver that creates (and closes) its own client. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return "datastore";
  }

  /**
   * The client's host, project and database: {@code https://datastore.googleapis.com project acme}
   * or {@code localhost:8081 project test database orders}.
   */
  @Override
  public String location() {
    DatastoreOptions o = datastore.getOptions();
    String db = o.getDatabaseId();
    return o.getHost()
        + " project "
        + o.getProjectId()
        + (db == null || db.isEmpty() ? "" : " database " + db);
  }

  @Override
  public DriverLimits limits() {
    return LIMITS;
  }

  /** Stowage's own tables: {@link #limits()}; adopted kinds: key names of up to 1,500 bytes. */
  @Override
  public DriverLimits limits(TableLayout table) {
    return table.adopted() ? ADOPTED_LIMITS : LIMITS;
  }

  @Override
  public Set<Capability> capabilities() {
    return EnumSet.of(
        Capability.TRANSACTIONS,
        Capability.CROSS_PARTITION_TRANSACTIONS,
        Capability.CONSISTENT_INDEX_QUERIES,
        Capability.NATIVE_INDEXES,
        Capability.SEGMENTED_SCANS);
  }

  @Override
  public void ensureTable(TableLayout layout) {
    catalog.ensure(layout);
  }

  @Override
  public void openTable(TableLayout layout) {
    catalog.open(layout);
  }

  @Override
  public void dropTable(TableRef table) {
    catalog.drop(table);
    entities.forgetTemplates();
  }

  /**
   * Reports each request's billable operations to {@code listener}: entity reads, writes and
   * deletes as Firestore in Datastore mode bills them (see {@link Billing}).
   */
  @Override
  public void capacityListener(dev.stowage.spi.CapacityListener listener) {
    billing.listener(listener);
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    catalog.require(table);
    try {
      Entity e = datastore.get(entities.key(table, key));
      billing.reads(table, 1);
      return Optional.ofNullable(e).map(x -> entities.fromEntity(table, x));
    } catch (DatastoreException e) {
      throw Errors.translate("reading " + Entities.describe(table) + " " + key, e);
    }
  }

  /**
   * Looks the keys up in one call. The client itself re-requests keys the service deferred, so
   * {@link BatchGetResult#unprocessed()} is always empty.
   */
  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    catalog.require(table);
    List<com.google.cloud.datastore.Key> dsKeys = new ArrayList<>(keys.size());
    keys.forEach(k -> dsKeys.add(entities.key(table, k)));
    try {
      List<StoredItem> found = new ArrayList<>();
      Iterator<Entity> it = datastore.get(dsKeys);
      it.forEachRemaining(e -> found.add(entities.fromEntity(table, e)));
      billing.reads(table, keys.size());
      return new BatchGetResult(found, List.of());
    } catch (DatastoreException e) {
      throw Errors.translate(
          "batch read of " + keys.size() + " keys from " + Entities.describe(table), e);
    }
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    catalog.require(table);
    return writes.put(table, item, expect, returnPrevious);
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    catalog.require(table);
    return writes.delete(table, key, expect, returnPrevious);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writeOps) {
    catalog.require(table);
    return writes.batch(table, writeOps, true);
  }

  /**
   * {@inheritDoc} The written entities are not kept as templates: an item written again later is
   * written in Stowage's own form (or, on an adopted kind, over the entity read first), and an
   * entity kept for a key before is forgotten.
   */
  @Override
  public BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> writeOps) {
    catalog.require(table);
    return writes.batch(table, writeOps, false);
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    catalog.require(table);
    return queries.query(table, query);
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    catalog.require(table);
    return queries.scan(table, scan);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Datastore segments are {@code __key__} ranges with boundaries from a {@code __scatter__}
   * sample of the kind's keys, or from every key when the sample is too small (a small kind, or the
   * emulator); index segments are the same ranges of the kind, keeping the items in the index.
   */
  @Override
  public List<ScanSegment> segments(TableLayout table, String index, int total) {
    catalog.require(table);
    return segments.plan(table, index, total);
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    catalog.require(table);
    return segments.scan(table, scan);
  }

  /**
   * {@inheritDoc} Reads the keys after the checkpoint (a keys-only query, up to 100,000) and cuts
   * at the fraction of them; a longer remainder is cut by the scatter sample.
   */
  @Override
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    catalog.require(table);
    return segments.split(table, segment, checkpoint, fraction);
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    layouts.forEach(catalog::require);
    writes.transact(layouts, ops);
  }

  @Override
  public void close() {
    // The HTTP transport has no channels, and its client logs a warning with a stack trace when
    // asked to close them; only a gRPC client holds channels to close.
    if (owned && !(datastore.getOptions().getTransportOptions() instanceof HttpTransportOptions)) {
      try {
        datastore.close();
      } catch (Exception e) {
        throw new dev.stowage.UnavailableException("closing the Datastore client failed", e);
      }
    }
  }

  /** Builds a driver with its own client; not thread-safe. */
  public static final class Builder {
    private String projectId;
    private String emulatorHost;
    private String databaseId = "";

    private Builder() {}

    /** The Google Cloud project; required unless the environment provides a default. */
    public Builder projectId(String projectId) {
      this.projectId = Objects.requireNonNull(projectId, "projectId");
      return this;
    }

    /** Talk to an emulator at {@code host:port} without credentials. */
    public Builder emulatorHost(String hostAndPort) {
      this.emulatorHost = Objects.requireNonNull(hostAndPort, "hostAndPort");
      return this;
    }

    /** A named database instead of the default one. */
    public Builder databaseId(String databaseId) {
      this.databaseId = Objects.requireNonNull(databaseId, "databaseId");
      return this;
    }

    /** The driver; its client uses no client-side retries (the core retries). */
    public DatastoreDriver build() {
      DatastoreOptions.Builder b =
          DatastoreOptions.newBuilder()
              .setRetrySettings(ServiceOptions.getNoRetrySettings())
              .setDatabaseId(databaseId);
      if (projectId != null) {
        b.setProjectId(projectId);
      }
      if (emulatorHost != null) {
        b.setHost(emulatorHost).setCredentials(NoCredentials.getInstance());
      }
      return new DatastoreDriver(b.build().getService(), true);
    }
  }
}
