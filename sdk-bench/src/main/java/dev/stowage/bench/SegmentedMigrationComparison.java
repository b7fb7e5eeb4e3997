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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link SegmentedMigrationBench}'s comparison in alternating turns in one JVM (a {@code main}, not
 * JMH), so that load on a shared machine moves both sides alike: each round times one {@link
 * Migrator} run copying {@value #ITEMS} small items between two tables of one DynamoDB Local
 * (source read in {@code parallelism} segments on as many threads, {@code parallelism} writers) and
 * one raw parallel write of the same items (BatchWriteItem, batches of 25, {@code parallelism}
 * threads, unprocessed items re-sent: the slower side's raw parallel write rate), which goes first
 * alternating with the round. Both overwrite the whole table every time. Prints per-round times and
 * a {@link Compare} line: medians, the median of the rounds' ratios and their range.
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.SegmentedMigrationComparison \
 *   [rounds] [parallelism] [items]
 * </pre>
 */
public final class SegmentedMigrationComparison {
  static final int ITEMS = 4000;
  private static final String TABLE = "orders";
  private static final int BATCH = 25;

  private SegmentedMigrationComparison() {}

  /** Runs the rounds and prints the comparison. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int items = args.length > 2 ? Integer.parseInt(args[2]) : ITEMS;
    try (DynamoLocal local = DynamoLocal.start()) {
      run(local.client(), rounds, parallelism, items);
    }
    System.exit(0); // DynamoDB Local leaves a non-daemon thread behind
  }

  private static void run(DynamoDbClient raw, int rounds, int parallelism, int n) throws Exception {
    TableSpec spec =
        TableSpec.builder(
                TABLE,
                KeySchema.of(
                    SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
            .build();
    DynamoDbDriver driver = DynamoDbDriver.create(raw);
    Table source = Stowage.builder(driver).namespace("src").build().ensureTable(spec);
    List<Item> items = new ArrayList<>(n);
    List<WriteRequest> writes = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String pk = SmallItems.partition("u", i / 10);
      items.add(SmallItems.stowage(pk, i % 10));
      writes.add(
          WriteRequest.builder()
              .putRequest(PutRequest.builder().item(SmallItems.raw(pk, i % 10)).build())
              .build());
    }
    source.batchPut(items);
    List<List<WriteRequest>> batches = new ArrayList<>();
    for (int i = 0; i < n; i += BATCH) {
      batches.add(writes.subList(i, Math.min(n, i + BATCH)));
    }
    driver.ensureTable(new TableLayout(new TableRef("raw", TABLE), spec.keySchema(), List.of()));
    Migrator migrator =
        Migrator.builder(spec)
            .source(driver, null, "src")
            .target(driver, null, "mig")
            .parallelism(parallelism)
            .segments(parallelism)
            .build();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    double[] migrate = new double[rounds];
    double[] rawWrites = new double[rounds];
    try {
      for (int round = 0; round <= rounds; round++) {
        for (int turn = 0; turn < 2; turn++) {
          boolean migrateTurn = (turn + round) % 2 == 0;
          long start = System.nanoTime();
          if (migrateTurn) {
            long copied = migrator.run().progress().itemsCopied();
            if (copied != n) {
              throw new IllegalStateException("migrated " + copied + " of " + n + " items");
            }
          } else {
            writeAll(raw, pool, batches);
          }
          double usPerItem = (System.nanoTime() - start) / 1e3 / n;
          System.out.printf(
              Locale.ROOT,
              "round %d %-9s %8.1f us/item%s%n",
              round,
              migrateTurn ? "migrate" : "rawWrites",
              usPerItem,
              round == 0 ? " (warm-up)" : "");
          if (round > 0) {
            (migrateTurn ? migrate : rawWrites)[round - 1] = usPerItem;
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    for (String table : List.of("mig", "raw")) {
      long count = raw.scan(r -> r.tableName(table + "." + TABLE).select("COUNT")).count();
      if (count != n) {
        throw new IllegalStateException(table + " holds " + count + " of " + n + " items");
      }
    }
    System.out.println();
    System.out.println("medians of " + rounds + " rounds");
    System.out.print(Compare.header("(rounds min-max)"));
    System.out.print(
        Compare.roundsLine(
            "segmented migration ddb->ddb vs raw parallel writes",
            "{items=" + n + ", parallelism=" + parallelism + "}",
            migrate,
            rawWrites,
            "us/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            0.8,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
  }

  private static void writeAll(
      DynamoDbClient raw, ExecutorService pool, List<List<WriteRequest>> batches) throws Exception {
    List<Future<?>> done = new ArrayList<>(batches.size());
    for (List<WriteRequest> batch : batches) {
      done.add(
          pool.submit(
              () -> {
                Map<String, List<WriteRequest>> pending = Map.of("raw." + TABLE, batch);
                while (!pending.isEmpty()) {
                  Map<String, List<WriteRequest>> send = pending;
                  pending = raw.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
  }
}
