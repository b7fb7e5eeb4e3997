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
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link SegmentedMigrationBench}'s comparison in alternating turns in one JVM (a {@code main}, not
 * JMH), so that load on a shared machine moves both sides alike: each round times one {@link
 * Migrator} run copying {@value #ITEMS} small items between two tables of one DynamoDB Local
 * (source read in {@code parallelism} segments on as many threads, {@code parallelism} writers) and
 * one raw parallel write of the same items (BatchWriteItem, batches of 25, {@code parallelism}
 * threads, unprocessed items re-sent: the slower side's raw parallel write rate), in turns whose
 * order rotates with the round. For reference a third turn sends the raw write in the form every
 * Stowage write to DynamoDB has: each item with a fresh {@code stowage:tok} token attribute (and no
 * {@code ReturnConsumedCapacity}: the migrator's stores do not count capacity). On DynamoDB Local
 * the token costs its single SQLite thread more per item than the bare write, so the migrator's
 * ratio to that turn says how far the migrator is from the request it has to send. Each turn also
 * reports the CPU time of DynamoDB Local's SQLite thread per item (it serves every request on that
 * one thread, in this JVM): what the turn cost the emulator, which other load on the machine does
 * not change as it changes the times. Every turn overwrites its whole table every time. Prints
 * per-round times and {@link Compare} lines: medians, the median of the rounds' ratios and their
 * range.
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
  private static final String TOKEN = "stowage:tok";
  private static final SecureRandom RANDOM = new SecureRandom();

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
    List<WriteRequest> tokened = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String pk = SmallItems.partition("u", i / 10);
      items.add(SmallItems.stowage(pk, i % 10));
      writes.add(
          WriteRequest.builder()
              .putRequest(PutRequest.builder().item(SmallItems.raw(pk, i % 10)).build())
              .build());
      Map<String, AttributeValue> withToken = new HashMap<>(SmallItems.raw(pk, i % 10));
      withToken.put(TOKEN, AttributeValue.fromS(token()));
      tokened.add(
          WriteRequest.builder().putRequest(PutRequest.builder().item(withToken).build()).build());
    }
    source.batchPut(items);
    List<List<WriteRequest>> batches = batches(writes);
    List<List<WriteRequest>> tokenedBatches = batches(tokened);
    driver.ensureTable(new TableLayout(new TableRef("raw", TABLE), spec.keySchema(), List.of()));
    driver.ensureTable(new TableLayout(new TableRef("same", TABLE), spec.keySchema(), List.of()));
    Migrator migrator =
        Migrator.builder(spec)
            .source(driver, null, "src")
            .target(driver, null, "mig")
            .parallelism(parallelism)
            .segments(parallelism)
            .build();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    String[] turns = {"migrate", "rawWrites", "rawSameRequest"};
    double[][] times = new double[turns.length][rounds];
    double[][] sqlite = new double[turns.length][rounds];
    try {
      for (int round = 0; round <= rounds; round++) {
        for (int k = 0; k < turns.length; k++) {
          int turn = (k + round) % turns.length;
          long sqliteStart = sqliteCpuNanos();
          long start = System.nanoTime();
          switch (turn) {
            case 0 -> {
              long copied = migrator.run().progress().itemsCopied();
              if (copied != n) {
                throw new IllegalStateException("migrated " + copied + " of " + n + " items");
              }
            }
            case 1 -> writeAll(raw, pool, "raw", batches, ReturnConsumedCapacity.NONE);
            default -> writeAll(raw, pool, "same", tokenedBatches, ReturnConsumedCapacity.NONE);
          }
          double usPerItem = (System.nanoTime() - start) / 1e3 / n;
          double sqliteUs = (sqliteCpuNanos() - sqliteStart) / 1e3 / n;
          System.out.printf(
              Locale.ROOT,
              "round %d %-14s %8.1f us/item   DynamoDB Local's SQLite thread %6.1f us/item%s%n",
              round,
              turns[turn],
              usPerItem,
              sqliteUs,
              round == 0 ? " (warm-up)" : "");
          if (round > 0) {
            times[turn][round - 1] = usPerItem;
            sqlite[turn][round - 1] = sqliteUs;
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    for (String table : List.of("mig", "raw", "same")) {
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
            times[0],
            times[1],
            "us/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            0.8,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
    System.out.print(
        Compare.roundsLine(
            "  (migration vs raw, same request: item + token)",
            "",
            times[0],
            times[2],
            "us/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
    System.out.print(
        Compare.roundsLine(
            "  (raw, same request vs raw)",
            "",
            times[2],
            times[1],
            "us/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
    // DynamoDB Local serves every read and write on one SQLite thread: its CPU time per item is
    // what each side costs the emulator, whatever else the machine runs.
    System.out.print(
        Compare.roundsLine(
            "  (SQLite thread per item: migration vs raw)",
            "",
            sqlite[0],
            sqlite[1],
            "us/item",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN,
            "raw/stowage CPU"));
    System.out.print(
        Compare.roundsLine(
            "  (SQLite thread per item: migration vs same request)",
            "",
            sqlite[0],
            sqlite[2],
            "us/item",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN,
            "raw/stowage CPU"));
  }

  /** CPU time of DynamoDB Local's SQLite threads (it runs in this JVM) so far. */
  private static long sqliteCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("SQLiteQueue")) {
        long cpu = threads.getThreadCpuTime(t.getId());
        sum += Math.max(0, cpu);
      }
    }
    return sum;
  }

  private static List<List<WriteRequest>> batches(List<WriteRequest> writes) {
    List<List<WriteRequest>> batches = new ArrayList<>();
    for (int i = 0; i < writes.size(); i += BATCH) {
      batches.add(writes.subList(i, Math.min(writes.size(), i + BATCH)));
    }
    return batches;
  }

  /** A token as the driver makes them: base64url of 16 random bytes. */
  private static String token() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static void writeAll(
      DynamoDbClient raw,
      ExecutorService pool,
      String namespace,
      List<List<WriteRequest>> batches,
      ReturnConsumedCapacity capacity)
      throws Exception {
    List<Future<?>> done = new ArrayList<>(batches.size());
    for (List<WriteRequest> batch : batches) {
      done.add(
          pool.submit(
              () -> {
                Map<String, List<WriteRequest>> pending = Map.of(namespace + "." + TABLE, batch);
                while (!pending.isEmpty()) {
                  Map<String, List<WriteRequest>> send = pending;
                  pending =
                      raw.batchWriteItem(r -> r.requestItems(send).returnConsumedCapacity(capacity))
                          .unprocessedItems();
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
  }
}
