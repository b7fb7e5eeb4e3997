package dev.stowage.dynamodb;

import dev.stowage.dynamodb.internal.BatchOps;
import dev.stowage.dynamodb.internal.CapacityMeter;
import dev.stowage.dynamodb.internal.DynamoSizeModel;
import dev.stowage.dynamodb.internal.ItemOps;
import dev.stowage.dynamodb.internal.NativeIndexes;
import dev.stowage.dynamodb.internal.QueryRunner;
import dev.stowage.dynamodb.internal.SegmentScanner;
import dev.stowage.dynamodb.internal.TableNames;
import dev.stowage.dynamodb.internal.TableProvisioner;
import dev.stowage.dynamodb.internal.TransactionOps;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
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
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;

/**
 * Stowage's driver for Amazon DynamoDB.
 *
 * <p><b>Mapping.</b> Items are stored as native DynamoDB items: every Stowage value type maps to
 * its DynamoDB type (S, N, B, BOOL, NULL, L, M, SS, NS, BS), so a table written without codecs or
 * overflow is readable by any DynamoDB tool, and tables written by other tools can be read. The
 * only addition is the reserved attribute {@code stowage:tok}, a random token rewritten on every
 * write and used for compare-and-set; it never appears in returned items.
 *
 * <p><b>Naming.</b> {@link TableRef}{@code ("", t)} maps to the DynamoDB table {@code t} itself (so
 * existing tables can be adopted; see {@link Builder#adoptTable}), any other namespace {@code ns}
 * to {@code ns.t}. Each Stowage index is a GSI named {@code __ix_<index>} keyed on the binary
 * attributes {@code stowage:ix:<index>:p} (HASH) and {@code stowage:ix:<index>:s} (RANGE).
 *
 * <p><b>Errors.</b> Native errors are translated: throughput and request limits to {@link
 * dev.stowage.ThrottledException}, failed conditions to {@link
 * dev.stowage.ConditionFailedException}, missing tables to {@link dev.stowage.NotFoundException},
 * validation errors to {@link dev.stowage.InvalidRequestException} (with DynamoDB's message),
 * oversized items to {@link dev.stowage.ItemTooLargeException}, server errors and I/O failures to
 * {@link dev.stowage.UnavailableException}. The driver never retries; the core does.
 *
 * <p><b>Native indexes.</b> A native index ({@link dev.stowage.IndexSpec#nativeIndex}) is the
 * table's own GSI or LSI of that name, over plain attributes; opening the table checks its key
 * attributes and types, and the driver never creates it ({@link Capability#NATIVE_INDEXES}).
 *
 * <p><b>Consistency.</b> Gets, batch gets, table queries and scans are strongly consistent when
 * asked; GSI queries are always eventually consistent (DynamoDB offers nothing else), so {@link
 * Capability#CONSISTENT_INDEX_QUERIES} is not declared. Queries of a native index that is an LSI
 * can be consistent ({@link #consistentIndexQueries}).
 *
 * <p><b>Consumed capacity.</b> A request asks DynamoDB for the capacity it consumed ({@code
 * ReturnConsumedCapacity}) only when something uses the answer: a capacity listener (a store built
 * with {@link dev.stowage.Stowage.Builder#capacityMetrics(boolean)} or with usage tracking), or the
 * driver's own totals ({@link Builder#countConsumedCapacity(boolean)}, read with {@link
 * #consumedCapacity(TableRef)}). Otherwise it sends exactly the item and the concurrency token.
 *
 * <p>Thread-safe; arguments must not be null unless a parameter says otherwise. {@link #close()}
 * closes the DynamoDB client only if the driver built it.
 */
public final class DynamoDbDriver implements StorageDriver {
  /** DynamoDB's maximum item size, 400 KB. */
  public static final long MAX_ITEM_BYTES = 409_600;

  /**
   * The limit reported for indexed values: {@value}, the same on every backend ({@link
   * DriverLimits#PORTABLE_INDEXED_VALUE_BYTES}). The core refuses larger index values with {@link
   * dev.stowage.ItemTooLargeException} before anything is written.
   */
  public static final int MAX_INDEXED_VALUE_BYTES = DriverLimits.PORTABLE_INDEXED_VALUE_BYTES;

  /**
   * Longest synthesized index value the driver stores as it is: 1024 bytes, DynamoDB's limit for a
   * GSI sort key (GSI partition keys may hold 2048). Longer ones are written in their long form
   * (docs/FORMAT.md, "Long index values").
   */
  public static final int MAX_INDEX_TUPLE_BYTES = 1024;

  private static final DriverLimits LIMITS =
      new DriverLimits(
          MAX_ITEM_BYTES,
          MAX_ITEM_BYTES,
          Integer.MAX_VALUE,
          MAX_INDEXED_VALUE_BYTES,
          MAX_INDEX_TUPLE_BYTES,
          2048,
          1024,
          100,
          25,
          TransactionOps.MAX_ITEMS,
          new DynamoSizeModel());

  private static final Set<Capability> CAPABILITIES =
      Set.copyOf(
          EnumSet.of(
              Capability.TRANSACTIONS,
              Capability.CROSS_PARTITION_TRANSACTIONS,
              Capability.NATIVE_UPDATES,
              Capability.NATIVE_INDEXES,
              Capability.SEGMENTED_SCANS));

  private final DynamoDbClient client;
  private final boolean ownsClient;
  private final TableNames names;
  private final CapacityMeter meter;
  private final NativeIndexes natives = new NativeIndexes();
  private final TableProvisioner provisioner;
  private final ItemOps items;
  private final BatchOps batches;
  private final QueryRunner queries;
  private final SegmentScanner segments;
  private final TransactionOps transactions;

  private DynamoDbDriver(Builder b, DynamoDbClient client, boolean ownsClient) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.names = new TableNames(b.adopted);
    this.meter = new CapacityMeter(b.countConsumedCapacity);
    ProvisionedThroughput throughput =
        b.readUnits == null
            ? null
            : ProvisionedThroughput.builder()
                .readCapacityUnits(b.readUnits)
                .writeCapacityUnits(b.writeUnits)
                .build();
    this.provisioner = new TableProvisioner(client, throughput, b.activeTimeout, natives);
    this.items = new ItemOps(client, meter);
    this.batches = new BatchOps(client, meter);
    this.queries = new QueryRunner(client, meter, natives, batches, provisioner);
    this.segments = new SegmentScanner(client, meter, queries);
    this.transactions = new TransactionOps(client, meter, names::physical);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** A driver on the application's client; the driver never closes it. */
  public static DynamoDbDriver create(DynamoDbClient client) {
    return builder().client(client).build();
  }

  /**
   * The DynamoDB table name a (namespace, table) pair maps to.
   *
   * @throws dev.stowage.InvalidRequestException if the name breaks DynamoDB's naming rules
   */
  public String physicalTableName(TableRef ref) {
    return names.physical(ref);
  }

  /**
   * Capacity consumed on a table (and its GSIs) since this driver was created, as DynamoDB reported
   * it. Needs a driver built with {@link Builder#countConsumedCapacity(boolean)
   * countConsumedCapacity(true)}: only then does every request ask for it.
   *
   * @throws IllegalStateException if the driver was built without counting consumed capacity
   */
  public CapacityUsage consumedCapacity(TableRef ref) {
    requireCounting();
    double[] rw = meter.of(names.physical(ref));
    return new CapacityUsage(rw[0], rw[1]);
  }

  /**
   * Capacity consumed per physical table name since this driver was created; needs {@link
   * Builder#countConsumedCapacity(boolean) countConsumedCapacity(true)} as {@link
   * #consumedCapacity(TableRef)} does.
   *
   * @throws IllegalStateException if the driver was built without counting consumed capacity
   */
  public Map<String, CapacityUsage> consumedCapacity() {
    requireCounting();
    Map<String, CapacityUsage> out = new LinkedHashMap<>();
    meter.all().forEach((t, rw) -> out.put(t, new CapacityUsage(rw[0], rw[1])));
    return out;
  }

  private void requireCounting() {
    if (!meter.keepsTotals()) {
      throw new IllegalStateException(
          "this driver does not count consumed capacity: build it with"
              + " DynamoDbDriver.builder().countConsumedCapacity(true)");
    }
  }

  /**
   * Reports each request's consumed capacity to {@code listener}, per logical table and, for tables
   * with indexes, per index. While a listener is set every request asks DynamoDB for its consumed
   * capacity ({@code ReturnConsumedCapacity=INDEXES} for tables with indexes, {@code TOTAL}
   * otherwise); with none set ({@code null} or {@link dev.stowage.spi.CapacityListener#NONE}) a
   * request asks only if the driver counts consumed capacity itself ({@link
   * Builder#countConsumedCapacity(boolean)}). A store sets one when it counts capacity ({@link
   * dev.stowage.Stowage.Builder#capacityMetrics(boolean)}, or usage tracking).
   */
  @Override
  public void capacityListener(dev.stowage.spi.CapacityListener listener) {
    meter.listener(listener);
  }

  @Override
  public String name() {
    return "dynamodb";
  }

  /**
   * The client's region, after its endpoint override if it has one: {@code region eu-west-1} or
   * {@code http://localhost:8000 region us-east-1}. The AWS account is not part of it (the client
   * cannot tell it without a request).
   */
  @Override
  public String location() {
    try {
      var config = client.serviceClientConfiguration();
      String region = "region " + config.region();
      return config.endpointOverride().map(e -> e + " " + region).orElse(region);
    } catch (UnsupportedOperationException e) {
      return name(); // a client that does not describe its configuration
    }
  }

  @Override
  public DriverLimits limits() {
    return LIMITS;
  }

  @Override
  public Set<Capability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public void ensureTable(TableLayout layout) {
    provisioner.ensure(layout, names.physical(layout));
  }

  @Override
  public void openTable(TableLayout layout) {
    provisioner.open(layout, names.physical(layout));
  }

  @Override
  public void dropTable(TableRef table) {
    provisioner.drop(names.physical(table));
  }

  @Override
  public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
    return items.get(table, names.physical(table), key, consistentRead);
  }

  @Override
  public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
    return batches.get(table, names.physical(table), keys, consistentRead);
  }

  @Override
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    return items.put(table, names.physical(table), item, expect, returnPrevious);
  }

  @Override
  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    return items.delete(table, names.physical(table), key, expect, returnPrevious);
  }

  @Override
  public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
    return batches.write(table, names.physical(table), writes);
  }

  /**
   * True for a native index that is a local secondary index of a table this driver opened: LSIs can
   * be read strongly consistently, GSIs (Stowage's own included) cannot.
   */
  @Override
  public boolean consistentIndexQueries(TableLayout table, String index) {
    return table.index(index).filter(i -> i.isNative()).isPresent()
        && natives.info(names.physical(table), index).map(NativeIndexes.Info::local).orElse(false);
  }

  @Override
  public QueryResult query(TableLayout table, DriverQuery query) {
    return queries.query(table, names.physical(table), query);
  }

  @Override
  public QueryResult scan(TableLayout table, DriverScan scan) {
    return queries.scan(table, names.physical(table), scan);
  }

  /**
   * {@inheritDoc}
   *
   * <p>DynamoDB's native parallel scan: segment {@code i} of {@code total} is a Scan with {@code
   * Segment} and {@code TotalSegments}, of the table or of the index's GSI (or the application's
   * own GSI or LSI for a native index); planning sends no request.
   */
  @Override
  public List<ScanSegment> segments(TableLayout table, String index, int total) {
    return segments.plan(table, index, total);
  }

  @Override
  public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
    return segments.scan(table, names.physical(table), scan);
  }

  /**
   * {@inheritDoc} Always empty: a parallel-scan segment is a part of DynamoDB's own hash space,
   * read through opaque {@code LastEvaluatedKey}s, with no key to cut it at. Plan more segments for
   * a finer division.
   */
  @Override
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, ScanSegment segment, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    return java.util.Optional.empty();
  }

  @Override
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    transactions.write(layouts, ops);
  }

  @Override
  public StoredItem updateNative(TableLayout table, Key key, Update update, Condition condition) {
    return items.update(table, names.physical(table), key, update, condition);
  }

  @Override
  public void updateNativeWithoutItem(
      TableLayout table, Key key, Update update, Condition condition) {
    items.update(table, names.physical(table), key, update, condition, false);
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  /**
   * Builds a {@link DynamoDbDriver}: either on the application's {@link DynamoDbClient} or on one
   * it builds from a region, endpoint and credentials. Not thread-safe.
   */
  public static final class Builder {
    private DynamoDbClient client;
    private Region region;
    private URI endpoint;
    private AwsCredentialsProvider credentials;
    private Long readUnits;
    private Long writeUnits;
    private Duration activeTimeout = Duration.ofMinutes(5);
    private boolean countConsumedCapacity;
    private final Map<String, String> adopted = new HashMap<>();

    private Builder() {}

    /** Use the application's client; the driver does not close it. */
    public Builder client(DynamoDbClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** Region for a client the driver builds. */
    public Builder region(Region region) {
      this.region = Objects.requireNonNull(region, "region");
      return this;
    }

    /** Endpoint override (DynamoDB Local, VPC endpoints) for a client the driver builds. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
      return this;
    }

    /** Credentials for a client the driver builds; default: the SDK's default chain. */
    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /**
     * Create tables (and their GSIs) with provisioned throughput instead of on-demand billing.
     *
     * @throws IllegalArgumentException unless both are positive
     */
    public Builder provisionedThroughput(long readUnits, long writeUnits) {
      if (readUnits < 1 || writeUnits < 1) {
        throw new IllegalArgumentException("provisioned read and write units must be positive");
      }
      this.readUnits = readUnits;
      this.writeUnits = writeUnits;
      return this;
    }

    /**
     * Address the root-namespace logical table {@code logicalName} as the existing DynamoDB table
     * {@code physicalName}, for tables whose names Stowage's logical names cannot spell (upper case
     * letters, dots). Without this, a root-namespace table is addressed by its logical name.
     */
    public Builder adoptTable(String logicalName, String physicalName) {
      TableNames.validate(Objects.requireNonNull(physicalName, "physicalName"));
      adopted.put(new TableRef("", logicalName).table(), physicalName);
      return this;
    }

    /**
     * Whether every request asks DynamoDB for the capacity it consumed ({@code
     * ReturnConsumedCapacity=TOTAL}) and the driver keeps totals per table for {@link
     * DynamoDbDriver#consumedCapacity(TableRef)}; default off. Off, requests ask only while a
     * capacity listener is set (a store counting capacity: {@link
     * dev.stowage.Stowage.Builder#capacityMetrics(boolean)} or usage tracking). Asking is not free:
     * on DynamoDB Local a put that asks costs 12% more CPU (docs/benchmarks.md).
     */
    public Builder countConsumedCapacity(boolean count) {
      this.countConsumedCapacity = count;
      return this;
    }

    /** How long {@link #ensureTable} waits for a table to become ACTIVE; default 5 minutes. */
    public Builder tableActiveTimeout(Duration timeout) {
      this.activeTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /**
     * The driver. A client the driver builds has the SDK's own retries turned off: Stowage's core
     * retries (with backoff) whatever is retryable, and retrying twice would multiply waits.
     *
     * @throws IllegalStateException if neither a client nor a region was given
     */
    public DynamoDbDriver build() {
      if (client != null) {
        return new DynamoDbDriver(this, client, false);
      }
      if (region == null) {
        throw new IllegalStateException("give the driver a DynamoDbClient or a region");
      }
      DynamoDbClientBuilder b =
          DynamoDbClient.builder()
              .region(region)
              .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
      if (endpoint != null) {
        b.endpointOverride(endpoint);
      }
      if (credentials != null) {
        b.credentialsProvider(credentials);
      }
      return new DynamoDbDriver(this, b.build(), true);
    }
  }
}
