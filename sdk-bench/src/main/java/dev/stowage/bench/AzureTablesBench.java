package dev.stowage.bench;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

/**
 * Get, put and query of small items through Stowage's Azure Tables driver ({@code *Stowage})
 * against the raw {@link TableClient} ({@code *Raw}, the anchor), on one Azurite, one shared HTTP
 * pipeline, no blob store.
 *
 * <p>Both sides use a table with a string partition key and a number sort key, 20 partitions of 10
 * items, the {@link SmallItems} item. Stowage's table is its own layout (encoded keys), created
 * through Stowage with the default spec (no {@code descendingQueries}, so no mirror rows); the raw
 * side's table is what an application would write by hand: PartitionKey the partition string,
 * RowKey the sort number zero-padded, the other attributes as properties. Gets read a rotating key,
 * queries read one whole partition (10 items, limit 25: one request on each side), puts overwrite a
 * rotating key in each side's own partitions. Each side builds its request from plain values on
 * every call.
 *
 * <p>Not forked ({@code @Fork(0)}): every benchmark runs in the JVM that runs JMH, sharing one
 * Azurite started on first use, and the methods are named so that JMH's alphabetical order
 * alternates the sides ({@code getRaw}, {@code getStowage}, {@code putRaw}, ...); with {@code
 * ROUNDS=N} the whole selection repeats, so load on the shared machine moves both sides alike.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(0)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class AzureTablesBench {
  static final int PARTITIONS = 20;
  static final int PER_PARTITION = 10;
  static final int PAGE = 25;

  /** Requests sent through the shared pipeline. */
  static final AtomicLong REQUESTS = new AtomicLong();

  private static Shared shared;

  private TableClient raw;
  private Table table;
  private int next;

  /** Everything the benchmarks share in this JVM, built once. */
  private record Shared(TableClient raw, Table table) {}

  /** Starts Azurite (once per JVM), creates and loads both tables. */
  @Setup(Level.Trial)
  public void start() {
    synchronized (AzureTablesBench.class) {
      if (shared == null) {
        shared = create();
      }
    }
    raw = shared.raw();
    table = shared.table();
  }

  private static Shared create() {
    HttpPipelinePolicy counter =
        new HttpPipelinePolicy() {
          @Override
          public Mono<HttpResponse> process(
              HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            REQUESTS.incrementAndGet();
            return next.process();
          }
        };
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
            .addPolicy(counter)
            .buildClient();
    Stowage stowage = Stowage.builder(AzureTablesDriver.of(service)).build();
    Table table =
        stowage.ensureTable(
            TableSpec.builder(
                    "bench_users",
                    KeySchema.of(
                        SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
                .build());
    service.createTableIfNotExists("benchraw");
    TableClient raw = service.getTableClient("benchraw");
    for (int p = 0; p < PARTITIONS; p++) {
      List<Item> items = new ArrayList<>();
      List<TableTransactionAction> actions = new ArrayList<>();
      for (int s = 0; s < PER_PARTITION; s++) {
        items.add(SmallItems.stowage(SmallItems.partition("u", p), s));
        actions.add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                entity(SmallItems.partition("u", p), s)));
      }
      table.batchPut(items);
      raw.submitTransaction(actions);
    }
    Shared s = new Shared(raw, table);
    verifySidesAgree(s);
    return s;
  }

  /** The item as the raw side writes it ('#' is not allowed in a PartitionKey: '-' instead). */
  static TableEntity entity(String pk, long sk) {
    Item i = SmallItems.stowage(pk, sk);
    return new TableEntity(rawPartition(pk), rowKey(sk))
        .addProperty("name", i.getString("name"))
        .addProperty("email", i.getString("email"))
        .addProperty("age", i.getLong("age"))
        .addProperty("active", i.getBoolean("active"))
        .addProperty("score", i.getLong("score"))
        .addProperty("city", i.getString("city"));
  }

  static String rawPartition(String pk) {
    return pk.replace('#', '-');
  }

  static String rowKey(long sk) {
    return String.format(Locale.ROOT, "%010d", sk);
  }

  /** Fails the trial if the sides do not read the same data; prints requests per operation. */
  private static void verifySidesAgree(Shared s) {
    String pk = SmallItems.partition("u", 7);
    Item viaStowage = s.table().get(dev.stowage.item.Key.of(pk, 3)).orElseThrow();
    if (!viaStowage.equals(SmallItems.stowage(pk, 3))) {
      throw new IllegalStateException("Stowage read " + viaStowage);
    }
    TableEntity viaRaw = s.raw().getEntity(rawPartition(pk), rowKey(3));
    if (!viaStowage.getString("email").equals(viaRaw.getProperty("email"))) {
      throw new IllegalStateException("raw read " + viaRaw.getProperties());
    }
    AzureTablesBench b = new AzureTablesBench();
    b.raw = s.raw();
    b.table = s.table();
    if (b.queryStowage().items().size() != PER_PARTITION || b.queryRaw() != PER_PARTITION) {
      throw new IllegalStateException("queries do not return the whole partition");
    }
    System.out.println(
        "requests per operation:"
            + requests("raw get", b::getRaw)
            + requests("stowage get", b::getStowage)
            + requests("raw put", b::putRaw)
            + requests("stowage put", b::putStowage)
            + requests("raw query", b::queryRaw)
            + requests("stowage query", b::queryStowage));
  }

  private static String requests(String what, Runnable op) {
    long before = REQUESTS.get();
    for (int i = 0; i < 5; i++) {
      op.run();
    }
    return String.format(Locale.ROOT, " %s %.2f;", what, (REQUESTS.get() - before) / 5.0);
  }

  private int rotate() {
    return next++ & 0x7fffffff;
  }

  // ---- get ----

  @Benchmark
  public TableEntity getRaw() {
    int i = rotate();
    return raw.getEntity(
        rawPartition(SmallItems.partition("u", i % PARTITIONS)), rowKey(i % PER_PARTITION));
  }

  @Benchmark
  public Optional<Item> getStowage() {
    int i = rotate();
    return table.get(
        dev.stowage.item.Key.of(SmallItems.partition("u", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- put ----

  @Benchmark
  public void putRaw() {
    int i = rotate();
    raw.upsertEntityWithResponse(
        entity(SmallItems.partition("raw", i % PARTITIONS), i % PER_PARTITION),
        TableEntityUpdateMode.REPLACE,
        null,
        null);
  }

  @Benchmark
  public void putStowage() {
    int i = rotate();
    table.put(SmallItems.stowage(SmallItems.partition("sto", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- query ----

  @Benchmark
  public int queryRaw() {
    int i = rotate();
    String pk = rawPartition(SmallItems.partition("u", i % PARTITIONS));
    PagedResponse<TableEntity> page =
        raw.listEntities(
                new ListEntitiesOptions().setFilter("PartitionKey eq '" + pk + "'").setTop(PAGE),
                null,
                null)
            .iterableByPage()
            .iterator()
            .next();
    return page.getValue().size();
  }

  @Benchmark
  public Page queryStowage() {
    int i = rotate();
    return table.query(
        Query.partition(SmallItems.partition("u", i % PARTITIONS)).limit(PAGE).build());
  }
}
