package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Issue 5: get, put and query of small items through Stowage ({@code stowage*}) against the raw
 * {@link DynamoDbClient} ({@code raw*}, the anchor) and the DynamoDB Enhanced Client ({@code
 * enhanced*}), on one DynamoDB Local instance over HTTP in this JVM, one shared client, one table.
 * Target: Stowage's latency at most 1.05 times the raw client's.
 *
 * <p>The table is created through Stowage (so it is the table Stowage would use) and filled through
 * the raw client with {@value #PARTITIONS} partitions of {@value #PER_PARTITION} items. Gets read a
 * rotating key (eventually consistent, each side's default); queries read one whole partition
 * ({@value #PER_PARTITION} items, page size 25, so one request on every side); puts overwrite a
 * rotating key in each side's own partition range. Each side builds its request from plain values
 * on every call, as an application would.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// DynamoDB Local leaves a non-daemon scheduler thread behind after stop(); without a short
// shutdown timeout JMH waits 30 s for it at the end of every fork.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Djmh.shutdownTimeout=1", "-Djmh.shutdownTimeout.step=1"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class DynamoDbBench {
  static final String TABLE = "bench_users";
  static final int PARTITIONS = 20;
  static final int PER_PARTITION = 10;
  static final int PAGE = 25;

  private DynamoLocal local;
  private DynamoDbClient raw;
  private DynamoDbTable<BenchUser> enhanced;
  private Stowage stowage;
  private Table table;
  private int next;

  /** Starts DynamoDB Local, creates the table through Stowage and loads it. */
  @Setup(Level.Trial)
  public void start() {
    local = DynamoLocal.start();
    raw = local.client();
    stowage = Stowage.builder(DynamoDbDriver.create(raw)).build();
    table =
        stowage.ensureTable(
            TableSpec.builder(
                    TABLE,
                    KeySchema.of(
                        SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
                .build());
    enhanced =
        DynamoDbEnhancedClient.builder()
            .dynamoDbClient(raw)
            .build()
            .table(TABLE, TableSchema.fromBean(BenchUser.class));
    List<WriteRequest> batch = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (int s = 0; s < PER_PARTITION; s++) {
        batch.add(
            WriteRequest.builder()
                .putRequest(
                    PutRequest.builder()
                        .item(SmallItems.raw(SmallItems.partition("u", p), s))
                        .build())
                .build());
        if (batch.size() == 25) {
          flush(batch);
        }
      }
    }
    flush(batch);
    verifySidesAgree();
  }

  private void flush(List<WriteRequest> batch) {
    if (batch.isEmpty()) {
      return;
    }
    var unprocessed =
        raw.batchWriteItem(
                BatchWriteItemRequest.builder()
                    .requestItems(Map.of(TABLE, List.copyOf(batch)))
                    .build())
            .unprocessedItems();
    if (!unprocessed.isEmpty()) {
      throw new IllegalStateException("DynamoDB Local left items unprocessed while loading");
    }
    batch.clear();
  }

  /** Fails the trial if the three sides do not read the same data (a benchmark of wrong work). */
  private void verifySidesAgree() {
    String pk = SmallItems.partition("u", 7);
    Item viaStowage = table.get(dev.stowage.item.Key.of(pk, 3)).orElseThrow();
    if (!viaStowage.equals(SmallItems.stowage(pk, 3))) {
      throw new IllegalStateException("Stowage read " + viaStowage);
    }
    BenchUser viaEnhanced = enhanced.getItem(Key.builder().partitionValue(pk).sortValue(3).build());
    if (!viaEnhanced.getEmail().equals(SmallItems.bean(pk, 3).getEmail())) {
      throw new IllegalStateException("Enhanced Client read " + viaEnhanced.getEmail());
    }
    if (stowageQuery().size() != PER_PARTITION || rawQuery().count() != PER_PARTITION) {
      throw new IllegalStateException("queries do not return the whole partition");
    }
    StringBuilder report = new StringBuilder("requests per operation:");
    report
        .append(requests("raw get", this::rawGet))
        .append(requests("enhanced get", this::enhancedGet));
    report
        .append(requests("stowage get", this::stowageGet))
        .append(requests("raw put", this::rawPut));
    report
        .append(requests("enhanced put", this::enhancedPut))
        .append(requests("stowage put", this::stowagePut));
    report
        .append(requests("raw query", this::rawQuery))
        .append(requests("enhanced query", this::enhancedQuery));
    report.append(requests("stowage query", this::stowageQuery));
    System.out.println(report);
  }

  private static String requests(String what, Runnable op) {
    long before = total();
    for (int i = 0; i < 5; i++) {
      op.run();
    }
    return String.format(java.util.Locale.ROOT, " %s %.2f;", what, (total() - before) / 5.0);
  }

  private static long total() {
    return DynamoLocal.COUNTER.snapshot().values().stream().mapToLong(Long::longValue).sum();
  }

  /** Stops DynamoDB Local. */
  @TearDown(Level.Trial)
  public void stop() {
    local.close();
  }

  private int rotate() {
    return next++ & 0x7fffffff;
  }

  // ---- get ----

  @Benchmark
  public GetItemResponse rawGet() {
    int i = rotate();
    return raw.getItem(
        r ->
            r.tableName(TABLE)
                .key(
                    Map.of(
                        SmallItems.PK,
                        AttributeValue.fromS(SmallItems.partition("u", i % PARTITIONS)),
                        SmallItems.SK,
                        AttributeValue.fromN(Integer.toString(i % PER_PARTITION)))));
  }

  @Benchmark
  public BenchUser enhancedGet() {
    int i = rotate();
    return enhanced.getItem(
        Key.builder()
            .partitionValue(SmallItems.partition("u", i % PARTITIONS))
            .sortValue(i % PER_PARTITION)
            .build());
  }

  @Benchmark
  public Optional<Item> stowageGet() {
    int i = rotate();
    return table.get(
        dev.stowage.item.Key.of(SmallItems.partition("u", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- put ----

  @Benchmark
  public PutItemResponse rawPut() {
    int i = rotate();
    return raw.putItem(
        r ->
            r.tableName(TABLE)
                .item(
                    SmallItems.raw(
                        SmallItems.partition("raw", i % PARTITIONS), i % PER_PARTITION)));
  }

  @Benchmark
  public void enhancedPut() {
    int i = rotate();
    enhanced.putItem(
        SmallItems.bean(SmallItems.partition("enh", i % PARTITIONS), i % PER_PARTITION));
  }

  @Benchmark
  public void stowagePut() {
    int i = rotate();
    table.put(SmallItems.stowage(SmallItems.partition("sto", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- query ----

  @Benchmark
  public QueryResponse rawQuery() {
    int i = rotate();
    return raw.query(
        r ->
            r.tableName(TABLE)
                .keyConditionExpression("#p = :p")
                .expressionAttributeNames(Map.of("#p", SmallItems.PK))
                .expressionAttributeValues(
                    Map.of(":p", AttributeValue.fromS(SmallItems.partition("u", i % PARTITIONS))))
                .limit(PAGE));
  }

  @Benchmark
  public List<BenchUser> enhancedQuery() {
    int i = rotate();
    return enhanced
        .query(
            r ->
                r.queryConditional(
                        QueryConditional.keyEqualTo(
                            Key.builder()
                                .partitionValue(SmallItems.partition("u", i % PARTITIONS))
                                .build()))
                    .limit(PAGE))
        .iterator()
        .next()
        .items();
  }

  @Benchmark
  public Page stowageQuery() {
    int i = rotate();
    return table.query(
        Query.partition(SmallItems.partition("u", i % PARTITIONS)).limit(PAGE).build());
  }
}
