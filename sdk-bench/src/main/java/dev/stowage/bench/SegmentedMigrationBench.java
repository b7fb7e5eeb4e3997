package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.migrate.Migrator;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Segmented migration between two tables of DynamoDB Local ({@code migrate}: {@link Migrator}
 * reading the source table in {@value #PARALLELISM} segments of DynamoDB's parallel scan on as many
 * threads and writing with {@value #PARALLELISM} writers; {@code migrateOneSegment}: the same with
 * one segment, the sequential read of earlier versions, for reference) against the slower side's
 * raw parallel write rate measured in the same run ({@code rawWrites}: the raw {@link
 * DynamoDbClient} writing the same items with BatchWriteItem in batches of 25 on {@value
 * #PARALLELISM} threads, unprocessed items re-sent). Writes are the slower side: a write costs
 * DynamoDB Local more than a scanned item. Every invocation copies the whole table again
 * (overwriting). Scores are per item. Target: at least 0.8 of the raw throughput.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@OperationsPerInvocation(SegmentedMigrationBench.ITEMS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Djmh.shutdownTimeout=1", "-Djmh.shutdownTimeout.step=1"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SegmentedMigrationBench {
  static final int ITEMS = 4000;
  static final int PARALLELISM = 4;
  static final String TABLE = "orders";
  private static final int BATCH = 25;

  private DynamoLocal local;
  private DynamoDbClient raw;
  private Migrator segmented;
  private Migrator oneSegment;
  private List<List<WriteRequest>> batches;
  private ExecutorService pool;

  /** Fills the source table, creates the target tables and prepares the raw batches. */
  @Setup(Level.Trial)
  public void start() {
    local = DynamoLocal.start();
    raw = local.client();
    TableSpec spec =
        TableSpec.builder(
                TABLE,
                KeySchema.of(
                    SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
            .build();
    DynamoDbDriver driver = DynamoDbDriver.create(raw);
    Table source = Stowage.builder(driver).namespace("src").build().ensureTable(spec);
    List<Item> items = new ArrayList<>(ITEMS);
    List<WriteRequest> writes = new ArrayList<>(ITEMS);
    for (int i = 0; i < ITEMS; i++) {
      String pk = SmallItems.partition("u", i / 10);
      items.add(SmallItems.stowage(pk, i % 10));
      writes.add(
          WriteRequest.builder()
              .putRequest(PutRequest.builder().item(SmallItems.raw(pk, i % 10)).build())
              .build());
    }
    source.batchPut(items);
    batches = new ArrayList<>();
    for (int i = 0; i < ITEMS; i += BATCH) {
      batches.add(writes.subList(i, Math.min(ITEMS, i + BATCH)));
    }
    driver.ensureTable(new TableLayout(new TableRef("raw", TABLE), spec.keySchema(), List.of()));
    segmented =
        Migrator.builder(spec)
            .source(driver, null, "src")
            .target(driver, null, "mig")
            .parallelism(PARALLELISM)
            .segments(PARALLELISM)
            .build();
    oneSegment =
        Migrator.builder(spec)
            .source(driver, null, "src")
            .target(driver, null, "one")
            .parallelism(PARALLELISM)
            .segments(1)
            .build();
    pool = Executors.newFixedThreadPool(PARALLELISM);
    migrate();
    migrateOneSegment();
    rawWrites();
    for (String table : List.of("mig", "one", "raw")) {
      long n = raw.scan(r -> r.tableName(table + "." + TABLE).select("COUNT")).count();
      if (n != ITEMS) {
        throw new IllegalStateException(table + " holds " + n + " of " + ITEMS + " items");
      }
    }
  }

  /** Stops the writer threads and DynamoDB Local. */
  @TearDown(Level.Trial)
  public void stop() {
    pool.shutdownNow();
    local.close();
  }

  @Benchmark
  public long migrate() {
    return copied(segmented.run());
  }

  @Benchmark
  public long migrateOneSegment() {
    return copied(oneSegment.run());
  }

  private static long copied(Migrator.Report report) {
    if (report.progress().itemsCopied() != ITEMS) {
      throw new IllegalStateException("migrated " + report.progress().itemsCopied() + " items");
    }
    return report.progress().itemsCopied();
  }

  @Benchmark
  public int rawWrites() {
    List<Future<Integer>> done = new ArrayList<>(batches.size());
    for (List<WriteRequest> batch : batches) {
      done.add(pool.submit(() -> writeFully(batch)));
    }
    int n = 0;
    try {
      for (Future<Integer> f : done) {
        n += f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    return n;
  }

  private int writeFully(List<WriteRequest> batch) {
    String table = "raw." + TABLE;
    Map<String, List<WriteRequest>> pending = Map.of(table, batch);
    while (!pending.isEmpty()) {
      Map<String, List<WriteRequest>> send = pending;
      pending = raw.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
    }
    return batch.size();
  }
}
