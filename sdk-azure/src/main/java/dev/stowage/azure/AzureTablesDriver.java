package dev.stowage.azure;

import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.azure.internal.AzureErrors;
import dev.stowage.azure.internal.AzureKeys;
import dev.stowage.azure.internal.AzureSizeModel;
import dev.stowage.azure.internal.BatchReads;
import dev.stowage.azure.internal.Batches;
import dev.stowage.azure.internal.IndexEntries;
import dev.stowage.azure.internal.ItemStore;
import dev.stowage.azure.internal.ItemWriter;
import dev.stowage.azure.internal.Queries;
import dev.stowage.azure.internal.Row;
import dev.stowage.azure.internal.Segments;
import dev.stowage.azure.internal.Tables;
import dev.stowage.azure.internal.TransactionMeter;
import dev.stowage.azure.internal.WriteStep;
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
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stowage's driver for Azure Table Storage (and Azurite).
 *
 * <p>Each logical table maps to one Azure table (plus one for its index entries); keys of every
 * Stowage type are encoded into PartitionKey and RowKey order-preservingly; items with a sort key
 * of a table whose spec declares {@link dev.stowage.TableSpec.Builder#descendingQueries} keep a
 * mirror row for descending queries; secondary indexes are maintained as index entities with read
 * repair; transactions cover one partition of one table. {@code docs/azure.md} describes every
 * encoding and its costs.
 *
 * <p>An adopted table ({@link dev.stowage.TableSpec.Builder#adopt}) is an existing Azure table used
 * as it is: its PartitionKey and RowKey strings are the spec's STRING partition and sort keys,
 * Stowage writes nothing into it but its items' properties, and its index entries live in a table
 * of Stowage's ({@code docs/azure.md}, "Adopting an existing table").
 *
 * <p>Thread-safe. The driver never retries: throttling ({@code 503 ServerBusy}) surfaces as {@link
 * dev.stowage.ThrottledException}, timeouts and I/O errors as {@link
 * dev.stowage.UnavailableException}, and Stowage's core retries them. When you pass your own {@link
 * TableServiceClient}, configure its retry policy to not retry either (as {@link
 * #fromConnectionString} does), or requests are retried twice.
 */
public final class AzureTablesDriver implements StorageDriver {
  /**
   * Longest synthesized index value stored as it is, in bytes: 255, which encodes to 340
   * characters. An index entry's PartitionKey holds the index name (at most 32 characters) and the
   * partition value; its RowKey holds the sort value, the item's key (cut to what is left, see
   * {@link AzureKeys#storedKeyPart}) and a nonce, within {@value AzureKeys#MAX_KEY_CHARS}
   * characters. Longer index values are written in their long form (docs/FORMAT.md, "Long index
   * values"); applications may index values of {@link DriverLimits#PORTABLE_INDEXED_VALUE_BYTES}.
   */
  static final int INDEX_TUPLE_BYTES = 255;

  private static final DriverLimits LIMITS =
      new DriverLimits(
          1024 * 1024,
          64 * 1024,
          252,
          DriverLimits.PORTABLE_INDEXED_VALUE_BYTES,
          INDEX_TUPLE_BYTES,
          AzureKeys.maxRawPartitionKeyBytes(),
          AzureKeys.maxRawKeyBytes(),
          100,
          100,
          Batches.MAX_ACTIONS / 2,
          new AzureSizeModel());

  /**
   * Largest key value of an adopted table, in UTF-8 bytes: Azure allows 512 UTF-16 code units per
   * PartitionKey or RowKey, which take at most 3 UTF-8 bytes each. The driver checks the exact rule
   * (code units, and the characters Azure refuses) before sending anything.
   */
  private static final int NATIVE_KEY_BYTES = 3 * AzureKeys.MAX_KEY_CHARS;

  private static final DriverLimits ADOPTED_LIMITS =
      new DriverLimits(
          LIMITS.maxItemBytes(),
          LIMITS.maxAttributeBytes(),
          LIMITS.maxAttributes(),
          LIMITS.maxIndexedValueBytes(),
          LIMITS.maxIndexTupleBytes(),
          NATIVE_KEY_BYTES,
          NATIVE_KEY_BYTES,
          LIMITS.maxBatchGet(),
          LIMITS.maxBatchWrite(),
          LIMITS.maxTransactionItems(),
          LIMITS.sizeModel());

  private final ExecutorService executor;
  private final ItemStore store;
  private final ItemWriter writer;
  private final Queries queries;
  private final Segments segments;
  private final Batches batches;
  private final Tables tables;
  private final BatchReads batchReads;
  private final String location;
  private final TransactionMeter meter;

  AzureTablesDriver(TableServiceClient service, WriteStep.Hook hook) {
    this(service, hook, new TransactionMeter());
  }

  AzureTablesDriver(TableServiceClient service, WriteStep.Hook hook, TransactionMeter meter) {
    this(service, hook, meter, Segments.PLAN_ROWS);
  }

  /** With segment plans counting tables of at most {@code planRows} rows (tests: fewer). */
  AzureTablesDriver(
      TableServiceClient service, WriteStep.Hook hook, TransactionMeter meter, int planRows) {
    this(service, hook, meter, planRows, java.time.Clock.systemUTC());
  }

  /**
   * With read repair telling the age of index entries by {@code clock} (tests: one they move on;
   * see {@link Queries#REPAIR_GRACE}).
   */
  AzureTablesDriver(
      TableServiceClient service,
      WriteStep.Hook hook,
      TransactionMeter meter,
      int planRows,
      java.time.Clock clock) {
    Objects.requireNonNull(service, "service");
    this.meter = meter;
    this.location = service.getServiceEndpoint().split("\\?", 2)[0]; // never a SAS query
    AtomicInteger threads = new AtomicInteger();
    this.executor =
        Executors.newFixedThreadPool(
            8,
            r -> {
              Thread t = new Thread(r, "stowage-azure-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.tables = new Tables(service);
    this.store = new ItemStore(tables);
    IndexEntries index = new IndexEntries(tables);
    this.writer = new ItemWriter(store, index, hook);
    this.queries = new Queries(tables, store, index, executor, clock);
    this.segments = new Segments(tables, planRows);
    this.batchReads = queries.batchReads();
    this.batches = new Batches(tables, store, index, batchReads, hook, executor);
  }

  /**
   * A driver over the application's client. Closing the driver does not close the client.
   *
   * @param service the Table service client; not null
   */
  public static AzureTablesDriver of(TableServiceClient service) {
    return new AzureTablesDriver(service, WriteStep.Hook.NONE);
  }

  /**
   * A driver over a new client for {@code connectionString}, with the SDK's own retries switched
   * off (Stowage's core retries).
   *
   * @param connectionString an Azure Storage connection string; not null
   */
  public static AzureTablesDriver fromConnectionString(String connectionString) {
    return of(
        new TableServiceClientBuilder()
            .connectionString(Objects.requireNonNull(connectionString, "connectionString"))
            .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1)))));
  }

  /**
   * A driver over a new client from the application's builder (credentials, endpoint, HTTP client,
   * retry options as it configured them), with a policy added that counts the storage transactions
   * each table's requests cost ({@link dev.stowage.StowageMetrics.CapacityMetrics}). A driver made
   * {@link #of(TableServiceClient) of a built client} cannot add it and reports no transactions.
   * Configure the builder's retries off, as {@link #fromConnectionString} does.
   *
   * @param builder the Table service client builder; not null; the driver adds a policy to it
   */
  public static AzureTablesDriver of(TableServiceClientBuilder builder) {
    TransactionMeter meter = new TransactionMeter();
    TableServiceClient service =
        Objects.requireNonNull(builder, "builder").addPolicy(meter).buildClient();
    return new AzureTablesDriver(service, WriteStep.Hook.NONE, meter);
  }

  /**
   * Reports each request's storage transactions to {@code listener} (only for a driver whose client
   * it built: {@link #fromConnectionString}, {@link #of(TableServiceClientBuilder)}).
   */
  @Override
  public void capacityListener(dev.stowage.spi.CapacityListener listener) {
    meter.listener(listener);
  }

  @Override
  public String name() {
    return "azure";
  }

  /**
   * The Table service endpoint, which names the account: {@code
   * https://acme.table.core.windows.net} or {@code http://127.0.0.1:10002/devstoreaccount1}.
   */
  @Override
  public String location() {
    return location;
  }

  /**
   * Azure's limits: 1 MiB per entity, 64 KiB per property, 252 Stowage attributes (255 properties
   * minus PartitionKey, RowKey and Timestamp; key attributes live in the keys, one property is the
   * driver's nonce), keys of at most {@value AzureKeys#MAX_KEY_CHARS} characters after encoding
   * (the byte limits reported here keep composite index keys within that).
   */
  @Override
  public DriverLimits limits() {
    return LIMITS;
  }

  /**
   * An adopted table's limits: as {@link #limits()}, except that its keys are the application's
   * strings, up to Azure's own 1 KiB (512 UTF-16 code units, reported as {@value #NATIVE_KEY_BYTES}
   * UTF-8 bytes, the most such a key can take; the driver refuses longer keys and the characters
   * Azure forbids with {@link dev.stowage.InvalidRequestException} before sending). Indexes are
   * Stowage's own index entries, as on any table: the same {@code maxIndexedValueBytes} and {@code
   * maxIndexTupleBytes}, and an entry's RowKey holds the item's key cut to fit (the whole key in
   * the entry's {@code _0_k} property), so items with keys up to Azure's limit can be indexed.
   */
  @Override
  public DriverLimits limits(TableLayout table) {
    return table.adopted() ? ADOPTED_LIMITS : LIMITS;
  }

  /** Single-partition transactions and strongly consistent (verified) index queries. */
  @Override
  public Set<Capability> capabilities() {
    return EnumSet.of(
        Capability.TRANSACTIONS, Capability.CONSISTENT_INDEX_QUERIES, Capability.SEGMENTED_SCANS);
  }

  @Override
  public void ensureTable(TableLayout layout) {
    refuseNativeIndexes(layout);
    meter.learn(layout);
    AzureErrors.guard("creating table " + layout.ref(), () -> tables.ensure(layout));
  }

  @Override
  public void openTable(TableLayout layout) {
    refuseNativeIndexes(layout);
    meter.learn(layout);
    AzureErrors.guard("opening table " + layout.ref(), () -> tables.open(layout));
  }

  /**
   * Azure Table Storage indexes nothing but PartitionKey and RowKey, so there is no native
   * secondary index to map a Stowage index to; the driver keeps Stowage's own indexes as index rows
   * instead.
   */
  private static void refuseNativeIndexes(TableLayout layout) {
    for (var ix : layout.indexes()) {
      if (ix.isNative()) {
        throw new UnsupportedCapabilityException(
            Capability.NATIVE_INDEXES.name(),
            "Azure Table Storage has no secondary indexes (it indexes only PartitionKey and"
                + " RowKey), so index '"
                + ix.name()
                + "' cannot map to native index '"
                + ix.nativeName()
                + "'; declare it with IndexSpec.of, an index Stowage maintains as index rows");
      }
    }
  }

  @Override
  public void dropTable(TableRef table) {
    AzureErrors.guard("dropping table " + table, () -> tables.drop(table));
    store.forgetTemplates();
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    table.keySchema().validate(key);
    return AzureErrors.guard("get", () -> store.get(table, key).map(Row::stored));
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    keys.forEach(table.keySchema()::validate);
    return AzureErrors.guard(
        "batch get", () -> new BatchGetResult(batchReads.get(table, keys), List.of()));
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    return AzureErrors.guard("put", () -> writer.put(table, item, expect, returnPrevious));
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    return AzureErrors.guard("delete", () -> writer.delete(table, key, expect, returnPrevious));
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    return AzureErrors.guard("batch write", () -> batches.batchWrite(table, writes));
  }

  /**
   * {@value Batches#MAX_COPY_WRITES}: a call's writes are grouped by partition into transactions of
   * up to 100 rows, item rows and index rows alike, so larger calls send fuller transactions.
   */
  @Override
  public int maxBatchWriteCopies(TableLayout table) {
    return Batches.MAX_COPY_WRITES;
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    return AzureErrors.guard("query", () -> queries.query(table, query));
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    return AzureErrors.guard("scan", () -> queries.scan(table, scan));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Azure segments are PartitionKey ranges; a partition is never divided. A table of up to
   * 10,000 rows is planned by count, from one listing of its PartitionKeys; the boundaries of a
   * larger one come from probing the key space (Azure Tables can neither count nor sample). Index
   * segments are the same ranges of the table, keeping the items in the index.
   */
  @Override
  public List<ScanSegment> segments(TableLayout table, String index, int total) {
    return AzureErrors.guard("planning segments", () -> segments.plan(table, index, total));
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    return AzureErrors.guard("segment scan", () -> segments.scan(table, scan));
  }

  /**
   * {@inheritDoc} Cuts at the start of a partition after the checkpoint's (a partition is never
   * divided), placed by the rows left (up to 10,000 read) or, beyond that, by probing
   * PartitionKeys.
   */
  @Override
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    return AzureErrors.guard(
        "segment split", () -> segments.split(table, segment, checkpoint, fraction));
  }

  /**
   * Applies the operations in one Azure entity-group transaction. All operations must address one
   * partition of one table, else {@link dev.stowage.UnsupportedCapabilityException} (the real
   * service rejects other transactions, although Azurite accepts them). At most {@code
   * limits().maxTransactionItems()} operations; a token check gives the checked item a new token;
   * an "absent" check or delete is unsupported.
   */
  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    AzureErrors.guard("transaction", () -> batches.transactWrite(layouts, ops));
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
