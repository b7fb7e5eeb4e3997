package dev.stowage.bench;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.migrate.Migrator;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What the three emulators of the cross-backend migration allow on this machine: in one JVM, in
 * rounds, each hop of {@code CrossBackendMigrationTest} (DynamoDB Local → Datastore emulator →
 * Azurite → DynamoDB Local, the ledger items without attachments or codecs, with the {@code byDay}
 * index) as a {@link Migrator} run, next to the raw client's parallel write of the same items into
 * the hop's target and the raw client's parallel read of them from each store, all at the same
 * parallelism. The raw sides:
 *
 * <ul>
 *   <li>DynamoDB Local: {@code BatchWriteItem} of 25 items (unprocessed ones re-sent) into a table
 *       with a {@code byDay} global secondary index as the migrator's target has; a parallel {@code
 *       Scan} with one segment per thread and pages of {@value #PAGE};
 *   <li>Datastore emulator: {@code put} of 500 entities per commit (only {@code day} indexed); one
 *       {@code __key__}-range query per thread (ranges cut at known keys), pages of {@value #PAGE};
 *   <li>Azurite: entity-group transactions of up to 100 upserts of one partition; one {@code
 *       PartitionKey}-range listing per thread. Azure Tables has no secondary indexes: the raw
 *       client writes one row per item, where Stowage writes the item and an index row (its entry's
 *       forward row; a table declaring descending queries adds a reverse row), so an indexed Azure
 *       target cannot reach the raw rate; the raw client's write of those two rows per item is
 *       shown too, for reference.
 * </ul>
 *
 * <p>Every round writes into fresh tables (namespaces {@code rN}), so no side overwrites. The
 * migrator and the raw write of a hop alternate which goes first from round to round. Prints each
 * round, then per hop the medians in items/s, the hop's ratio to its target's raw write rate (the
 * issue's ≥ 0.8 of the slower side) and to 4× the rate of the documented sequential run. In the
 * warm-up round it also counts the requests the migrator sent to Azurite (a hop into Azure), per
 * 100 items, next to the raw client's: the measured rounds count nothing. In the measured rounds it
 * records Azurite's CPU time per item (from /proc, for the Azurite it started) in the hop into
 * Azure and in the raw write of the same rows.
 *
 * <p>A fourth argument {@code hop=N} (1, 2 or 3, in the order above) runs that hop alone: its
 * source is seeded once through Stowage, and the raw reads are left out.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -Dstowage.azurite=node_modules/azurite \
 *   -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.CrossBackendCeilings [rounds] [parallelism] [items] [hop=N]
 * </pre>
 */
public final class CrossBackendCeilings {
  static final int PAGE = 2000;
  private static final int ACCOUNTS = 50;

  /** Items/s of each hop in the documented sequential run (its quieter re-run). */
  private static final double[] BEFORE = {2644, 312, 2400};

  private static final String[] HOPS = {
    "DynamoDB -> Datastore", "Datastore -> Azure", "Azure -> DynamoDB"
  };

  static final TableSpec SPEC =
      TableSpec.builder(
              "ledger", KeySchema.of("account", AttributeType.STRING, "seq", AttributeType.NUMBER))
          .index("byDay", List.of("day"), List.of("seq"))
          .build();

  private CrossBackendCeilings() {}

  /** Runs the rounds and prints the figures. */
  public static void main(String[] args) throws Exception {
    try {
      run(args);
    } catch (Exception | Error e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0); // the emulators' clients leave non-daemon threads behind
  }

  private static void run(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
    itemsOfTurn = n;
    int only = args.length > 3 ? Integer.parseInt(args[3].replace("hop=", "")) - 1 : -1;
    if (only < -1 || only > 2) {
      throw new IllegalArgumentException("hop=N takes 1, 2 or 3: " + args[3]);
    }
    Emulators emulators = Emulators.shared();
    DynamoDbClient ddb = emulators.dynamoDb().client();
    Datastore datastore = emulators.datastore().client();
    String azure = emulators.azurite().connectionString();
    TableServiceClient azureTables =
        new TableServiceClientBuilder().connectionString(azure).buildClient();
    StorageDriver ddbDriver = DynamoDbDriver.create(ddb);
    StorageDriver dsDriver =
        DatastoreDriver.builder()
            .projectId("test")
            .emulatorHost(emulators.datastore().hostPort())
            .build();
    StorageDriver azDriver = AzureTablesDriver.fromConnectionString(azure);
    List<Item> items = items(n);
    Table source = Stowage.builder(ddbDriver).namespace("prod").build().ensureTable(SPEC);
    long t = System.nanoTime();
    source.batchPut(items);
    System.out.printf(Locale.ROOT, "seeded DynamoDB Local with %,d items in %,d ms%n", n, ms(t));
    if (only > 0) {
      // The hop's source as the hop before it would leave it: seeded once, read every round.
      StorageDriver seedDriver = only == 1 ? dsDriver : azDriver;
      t = System.nanoTime();
      Stowage.builder(seedDriver).namespace("seed").build().ensureTable(SPEC).batchPut(items);
      System.out.printf(Locale.ROOT, "seeded %s with %,d items in %,d ms%n", HOPS[only], n, ms(t));
    }
    AzureRequests requests = new AzureRequests();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    // [hop][round]: migrator, raw write into the target; [store][round]: raw read
    double[][] hop = new double[3][rounds];
    double[][] write = new double[3][rounds];
    double[][] read = new double[3][rounds];
    // raw writes into Azurite of an item row and its index row per item
    double[] sameRows = new double[rounds];
    // hop=N: CPU per item of the migrator (this JVM, the target emulator), then of the raw write
    double[][] cpu = new double[7][rounds];
    // Azurite's CPU time per item (microseconds) in the migrator's and the same-rows turns
    double[] migratorCpu = new double[rounds];
    double[] sameRowsCpu = new double[rounds];
    String[] stores = {"DynamoDB Local", "Datastore emulator", "Azurite"};
    try {
      for (int r = 0; r <= rounds; r++) {
        String ns = "r" + r;
        boolean warm = r == 0;
        StorageDriver[] from = {ddbDriver, dsDriver, azDriver};
        StorageDriver[] to = {dsDriver, azDriver, ddbDriver};
        String[] fromNs = {"prod", only == 1 ? "seed" : ns, only == 2 ? "seed" : ns};
        String[] toNs = {ns, ns, "b" + r};
        for (int h = 0; h < 3; h++) {
          if (only >= 0 && h != only) {
            continue;
          }
          int target = (h + 1) % 3;
          Callable<Double> migrate =
              migrateTurn(from[h], fromNs[h], to[h], toNs[h], parallelism, n);
          if (warm && target == 2) {
            migrate = requests.counting(azDriver, migrate);
          }
          if (target == 2) {
            migrate = azuriteCpu(migrate, migratorCpu, r - 1);
          }
          Callable<Double> raw =
              switch (target) {
                case 0 -> () -> ddbWrite(ddb, pool, "raw-" + ns, items);
                case 1 -> () -> datastoreWrite(datastore, pool, ns, items);
                default -> () -> azureWrite(azureTables, pool, "raw" + ns, items);
              };
          boolean migrateFirst = r % 2 == 0;
          CpuTurn first = CpuTurn.of(migrateFirst ? migrate : raw);
          CpuTurn second = CpuTurn.of(migrateFirst ? raw : migrate);
          double a = first.call();
          double b = second.call();
          double m = migrateFirst ? a : b;
          double w = migrateFirst ? b : a;
          CpuTurn mc = migrateFirst ? first : second;
          CpuTurn wc = migrateFirst ? second : first;
          if (only >= 0) {
            System.out.printf(
                Locale.ROOT,
                "round %d %-22s CPU per item: migrator %.1f us in this JVM (%.1f us without"
                    + " DynamoDB Local's threads), %.1f us in the Datastore emulator; raw write"
                    + " %.1f us, %.1f us%n",
                r,
                HOPS[h],
                mc.jvmMicrosPer(n),
                mc.clientMicrosPer(n),
                mc.emulatorMicrosPer(n),
                wc.jvmMicrosPer(n),
                wc.emulatorMicrosPer(n));
            if (h == 0) {
              // Stowage's own batch put of the items into the target, for the stored form's cost
              // in the emulator apart from the migrator's reading and copying.
              String putNs = "put" + ns;
              CpuTurn put =
                  CpuTurn.of(
                      () -> {
                        Table t2 =
                            Stowage.builder(dsDriver).namespace(putNs).build().ensureTable(SPEC);
                        long t0 = System.nanoTime();
                        t2.batchPut(items);
                        return rate(n, t0);
                      });
              double pr = put.call();
              System.out.printf(
                  Locale.ROOT,
                  "round %d %-22s Stowage batchPut into the target %,8.0f items/s, CPU per item"
                      + " %.1f us in this JVM, %.1f us in the emulator%n",
                  r,
                  HOPS[h],
                  pr,
                  put.jvmMicrosPer(n),
                  put.emulatorMicrosPer(n));
              if (!warm) {
                cpu[4][r - 1] = put.jvmMicrosPer(n);
                cpu[5][r - 1] = put.emulatorMicrosPer(n);
              }
            }
            if (!warm) {
              cpu[0][r - 1] = mc.jvmMicrosPer(n);
              cpu[6][r - 1] = mc.clientMicrosPer(n);
              cpu[1][r - 1] = mc.emulatorMicrosPer(n);
              cpu[2][r - 1] = wc.jvmMicrosPer(n);
              cpu[3][r - 1] = wc.emulatorMicrosPer(n);
            }
          }
          System.out.printf(
              Locale.ROOT,
              "round %d %-22s migrator %,8.0f items/s   raw write into target %,8.0f items/s%s%n",
              r,
              HOPS[h],
              m,
              w,
              warm ? " (warm-up)" : "");
          if (target == 2) {
            double rows =
                azuriteCpu(
                        () -> azureWriteWithIndexRows(azureTables, pool, "rix" + ns, items),
                        sameRowsCpu,
                        r - 1)
                    .call();
            System.out.printf(
                Locale.ROOT,
                "round %d %-22s raw write of the rows an indexed table holds %,8.0f items/s%s%n",
                r,
                HOPS[h],
                rows,
                warm ? " (warm-up)" : "");
            if (!warm) {
              sameRows[r - 1] = rows;
            }
          }
          if (warm && target == 2) {
            System.out.println(requests.per100(n));
          }
          if (!warm) {
            hop[h][r - 1] = m;
            write[target][r - 1] = w;
          }
        }
        if (only >= 0) {
          continue;
        }
        double[] reads = {
          ddbRead(ddb, pool, "raw-" + ns, parallelism, n),
          datastoreRead(datastore, pool, ns, parallelism, n),
          azureRead(azureTables, pool, "raw" + ns, parallelism, n)
        };
        for (int s = 0; s < 3; s++) {
          System.out.printf(
              Locale.ROOT,
              "round %d raw parallel read of %-18s %,8.0f items/s%s%n",
              r,
              stores[s],
              reads[s],
              warm ? " (warm-up)" : "");
          if (!warm) {
            read[s][r - 1] = reads[s];
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "medians of %d rounds, %,d items, parallelism %d (items/s; ranges over the rounds)%n",
        rounds,
        n,
        parallelism);
    for (int s = 0; s < 3; s++) {
      if (only >= 0) {
        if (s == (only + 1) % 3) {
          System.out.printf(
              Locale.ROOT, "%-20s raw parallel write %s%n", stores[s], summary(write[s]));
        }
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "%-20s raw parallel write %s   raw parallel read %s%n",
          stores[s],
          summary(write[s]),
          summary(read[s]));
    }
    if (only >= 0) {
      System.out.printf(
          Locale.ROOT,
          "%-22s CPU per item (us; medians, ranges): migrator: JVM %s (without DynamoDB"
              + " Local's threads %s), emulator %s; raw write: JVM %s, emulator %s%n",
          HOPS[only],
          micros(cpu[0]),
          micros(cpu[6]),
          micros(cpu[1]),
          micros(cpu[2]),
          micros(cpu[3]));
      if (only == 0) {
        System.out.printf(
            Locale.ROOT,
            "%-22s CPU per item of Stowage's batchPut into the target (for reference): JVM %s,"
                + " emulator %s%n",
            HOPS[only],
            micros(cpu[4]),
            micros(cpu[5]));
      }
    }
    for (int h = 0; h < 3; h++) {
      if (only >= 0 && h != only) {
        continue;
      }
      int src = h;
      int target = (h + 1) % 3;
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = hop[h][r] / write[target][r];
      }
      double m = median(hop[h]);
      if (target == 2) {
        double[] toRows = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          toRows[r] = hop[h][r] / sameRows[r];
        }
        if (azuriteProcesses().findAny().isPresent()) {
          System.out.printf(
              Locale.ROOT,
              "%-22s Azurite CPU per item (us): migrator %s, raw write of the same rows %s%n",
              HOPS[h],
              summary(migratorCpu),
              summary(sameRowsCpu));
        }
        System.out.printf(
            Locale.ROOT,
            "%-22s raw write of the rows an indexed table holds %s; the migrator / it %.3f"
                + " (%.2f-%.2f) (for reference)%n",
            HOPS[h],
            summary(sameRows),
            median(toRows),
            Arrays.stream(toRows).min().orElse(0),
            Arrays.stream(toRows).max().orElse(0));
      }
      System.out.printf(
          Locale.ROOT,
          "%-22s migrator %s = %.2fx the sequential run (target >= 4x: %s); / target's raw"
              + " write %.3f (%.2f-%.2f) (target >= 0.8: %s); 4x the sequential run = %,.0f"
              + " items/s is %.2fx the target's raw write%s%n",
          HOPS[h],
          summary(hop[h]),
          m / BEFORE[h],
          m / BEFORE[h] >= 4 ? "met" : "NOT met",
          median(ratio),
          Arrays.stream(ratio).min().orElse(0),
          Arrays.stream(ratio).max().orElse(0),
          median(ratio) >= 0.8 ? "met" : "NOT met",
          4 * BEFORE[h],
          4 * BEFORE[h] / median(write[target]),
          only >= 0
              ? ""
              : String.format(
                  Locale.ROOT, ", %.2fx the source's raw read", 4 * BEFORE[h] / median(read[src])));
    }
  }

  /**
   * A turn timed in CPU as well: this JVM's process CPU (the client, and DynamoDB Local, which runs
   * inside it) and the Datastore emulator's (a child process, read from /proc through {@link
   * ProcessHandle}), over the turn.
   */
  private static final class CpuTurn implements Callable<Double> {
    private final Callable<Double> turn;
    long jvmNanos;
    long emulatorNanos;

    private CpuTurn(Callable<Double> turn) {
      this.turn = turn;
    }

    static CpuTurn of(Callable<Double> turn) {
      return new CpuTurn(turn);
    }

    long dynamoLocalNanos;

    @Override
    public Double call() throws Exception {
      long j = jvmCpu();
      long e = emulatorCpu();
      long d = dynamoLocalCpu();
      double rate = turn.call();
      jvmNanos = jvmCpu() - j;
      emulatorNanos = emulatorCpu() - e;
      dynamoLocalNanos = dynamoLocalCpu() - d;
      return rate;
    }

    /** This JVM's CPU per item without DynamoDB Local's threads: the client's. */
    double clientMicrosPer(int n) {
      return (jvmNanos - dynamoLocalNanos) / 1e3 / n;
    }

    /**
     * CPU time of DynamoDB Local's threads in this JVM (its Jetty pool and its SQLite thread, which
     * live as long as the emulator).
     */
    private static long dynamoLocalCpu() {
      java.lang.management.ThreadMXBean threads =
          java.lang.management.ManagementFactory.getThreadMXBean();
      long sum = 0;
      for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (t != null
            && (t.getThreadName().startsWith("qtp") || t.getThreadName().startsWith("SQLite"))) {
          long cpu = threads.getThreadCpuTime(t.getThreadId());
          sum += Math.max(0, cpu);
        }
      }
      return sum;
    }

    double jvmMicrosPer(int n) {
      return jvmNanos / 1e3 / n;
    }

    double emulatorMicrosPer(int n) {
      return emulatorNanos / 1e3 / n;
    }

    private static long jvmCpu() {
      return ((com.sun.management.OperatingSystemMXBean)
              java.lang.management.ManagementFactory.getOperatingSystemMXBean())
          .getProcessCpuTime();
    }

    /** CPU time of the child processes running the Firestore (Datastore mode) emulator. */
    private static long emulatorCpu() {
      return ProcessHandle.current()
          .descendants()
          .filter(
              p ->
                  p.info()
                      .commandLine()
                      .map(c -> c.contains("firestore-emulator") || c.contains("datastore"))
                      .orElse(false))
          .mapToLong(p -> p.info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L))
          .sum();
    }
  }

  /**
   * Counts the requests a driver's client sends to Azurite while a hop runs (its {@link
   * dev.stowage.spi.CapacityListener}: one storage transaction is one request), by kind.
   */
  private static final class AzureRequests {
    final java.util.concurrent.atomic.LongAdder reads = new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder writes =
        new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.atomic.LongAdder deletes =
        new java.util.concurrent.atomic.LongAdder();

    Callable<Double> counting(StorageDriver driver, Callable<Double> turn) {
      return () -> {
        reads.reset();
        writes.reset();
        deletes.reset();
        driver.capacityListener(
            (table, index, r, w, d) -> {
              if (index.isEmpty()) {
                reads.add((long) r);
                writes.add((long) w);
                deletes.add((long) d);
              }
            });
        try {
          return turn.call();
        } finally {
          driver.capacityListener(dev.stowage.spi.CapacityListener.NONE);
        }
      };
    }

    String per100(int n) {
      double k = 100.0 / n;
      return String.format(
          Locale.ROOT,
          "  requests into Azurite per 100 items (warm-up round): migrator %.2f (reads %.2f,"
              + " writes %.2f, deletes %.2f); raw client %.2f",
          (reads.sum() + writes.sum() + deletes.sum()) * k,
          reads.sum() * k,
          writes.sum() * k,
          deletes.sum() * k,
          // one transaction per account's run of at most 100 items, as azureWrite sends them
          (double) ACCOUNTS * Math.ceil((double) n / ACCOUNTS / 100) * k);
    }
  }

  private static Callable<Double> migrateTurn(
      StorageDriver from, String fromNs, StorageDriver to, String toNs, int parallelism, int n) {
    return () -> {
      Migrator m =
          Migrator.builder(SPEC)
              .source(from, null, fromNs)
              .target(to, null, toNs)
              .pageSize(PAGE)
              .parallelism(parallelism)
              .build();
      long t = System.nanoTime();
      long copied = m.run().progress().itemsCopied();
      double rate = n / ((System.nanoTime() - t) / 1e9);
      if (copied != n) {
        throw new IllegalStateException("migrated " + copied + " of " + n + " items");
      }
      return rate;
    };
  }

  /** The ledger items of {@code CrossBackendMigrationTest}, without attachments. */
  static List<Item> items(int n) {
    List<Item> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(
          Item.builder()
              .put("account", account(i))
              .put("seq", i)
              .put("day", day(i))
              .put("amount", new BigDecimal(i + ".25"))
              .put("memo", memo(i))
              .put("iban", "DE" + (1000000 + i))
              .build());
    }
    // In key order, as a scan of the source hands them over.
    items.sort(
        (a, b) -> {
          int c = a.getString("account").compareTo(b.getString("account"));
          return c != 0 ? c : Long.compare(seq(a), seq(b));
        });
    return items;
  }

  private static String account(int i) {
    return "acct-" + (i % ACCOUNTS);
  }

  private static String day(int i) {
    return "2026-11-" + (10 + i % 20);
  }

  private static String memo(int i) {
    return "transfer for invoice " + i + " ".repeat(80);
  }

  private static long seq(Item item) {
    return item.getNumber("seq").longValue();
  }

  private static String rowKey(long seq) {
    return String.format(Locale.ROOT, "%010d", seq);
  }

  // ---- DynamoDB Local -------------------------------------------------------------------------

  private static double ddbWrite(
      DynamoDbClient ddb, ExecutorService pool, String table, List<Item> items) throws Exception {
    ddb.createTable(
        c ->
            c.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                    KeySchemaElement.builder()
                        .attributeName("account")
                        .keyType(KeyType.HASH)
                        .build(),
                    KeySchemaElement.builder().attributeName("seq").keyType(KeyType.RANGE).build())
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("account")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("seq")
                        .attributeType(ScalarAttributeType.N)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("day")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                // the byDay index, as the migrator's target has it
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName("byDay")
                        .keySchema(
                            KeySchemaElement.builder()
                                .attributeName("day")
                                .keyType(KeyType.HASH)
                                .build(),
                            KeySchemaElement.builder()
                                .attributeName("seq")
                                .keyType(KeyType.RANGE)
                                .build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build()));
    List<WriteRequest> writes = new ArrayList<>(items.size());
    for (Item item : items) {
      Map<String, AttributeValue> m = new HashMap<>();
      m.put("account", AttributeValue.fromS(item.getString("account")));
      m.put("seq", AttributeValue.fromN(Long.toString(seq(item))));
      m.put("day", AttributeValue.fromS(item.getString("day")));
      m.put("amount", AttributeValue.fromN(item.getNumber("amount").toString()));
      m.put("memo", AttributeValue.fromS(item.getString("memo")));
      m.put("iban", AttributeValue.fromS(item.getString("iban")));
      writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(m).build()).build());
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < writes.size(); i += 25) {
      List<WriteRequest> batch = writes.subList(i, Math.min(writes.size(), i + 25));
      tasks.add(
          () -> {
            Map<String, List<WriteRequest>> pending = Map.of(table, batch);
            while (!pending.isEmpty()) {
              Map<String, List<WriteRequest>> send = pending;
              pending = ddb.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
            }
            return null;
          });
    }
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  private static double ddbRead(
      DynamoDbClient ddb, ExecutorService pool, String table, int segments, int n)
      throws Exception {
    AtomicLong count = new AtomicLong();
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s < segments; s++) {
      int segment = s;
      tasks.add(
          () -> {
            Map<String, AttributeValue> start = null;
            do {
              Map<String, AttributeValue> from = start;
              ScanResponse page =
                  ddb.scan(
                      r ->
                          r.tableName(table)
                              .segment(segment)
                              .totalSegments(segments)
                              .limit(PAGE)
                              .consistentRead(true)
                              .exclusiveStartKey(from));
              count.addAndGet(page.count());
              start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
              if (start != null && start.isEmpty()) {
                start = null;
              }
            } while (start != null);
            return null;
          });
    }
    runAll(pool, tasks);
    return checked("DynamoDB Local", count.get(), n, t);
  }

  // ---- Datastore emulator ---------------------------------------------------------------------

  private static KeyFactory keys(Datastore datastore, String ns) {
    return datastore.newKeyFactory().setNamespace("raw" + ns).setKind("ledger");
  }

  private static double datastoreWrite(
      Datastore datastore, ExecutorService pool, String ns, List<Item> items) throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<Entity> entities = new ArrayList<>(items.size());
    for (Item item : items) {
      entities.add(
          Entity.newBuilder(keys.newKey(item.getString("account") + "/" + rowKey(seq(item))))
              .set("account", StringValue.newBuilder(item.getString("account")).build())
              .set("seq", LongValue.newBuilder(seq(item)).build())
              .set("day", StringValue.newBuilder(item.getString("day")).build())
              .set(
                  "amount",
                  DoubleValue.newBuilder(item.getNumber("amount").doubleValue())
                      .setExcludeFromIndexes(true)
                      .build())
              .set(
                  "memo",
                  StringValue.newBuilder(item.getString("memo"))
                      .setExcludeFromIndexes(true)
                      .build())
              .set(
                  "iban",
                  StringValue.newBuilder(item.getString("iban"))
                      .setExcludeFromIndexes(true)
                      .build())
              .build());
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < entities.size(); i += DatastoreDriver.MAX_MUTATIONS) {
      List<Entity> batch =
          entities.subList(i, Math.min(entities.size(), i + DatastoreDriver.MAX_MUTATIONS));
      tasks.add(
          () -> {
            datastore.put(batch.toArray(new Entity[0]));
            return null;
          });
    }
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  private static double datastoreRead(
      Datastore datastore, ExecutorService pool, String ns, int parallelism, int n)
      throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<String> bounds = accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s + 1 < bounds.size(); s++) {
      String lo = bounds.get(s);
      String hi = bounds.get(s + 1);
      tasks.add(
          () -> {
            Cursor cursor = null;
            while (true) {
              var q =
                  Query.newEntityQueryBuilder()
                      .setNamespace("raw" + ns)
                      .setKind("ledger")
                      .setLimit(PAGE)
                      .setFilter(keyRange(keys, lo, hi));
              if (cursor != null) {
                q.setStartCursor(cursor);
              }
              QueryResults<Entity> page = datastore.run(q.build());
              int got = 0;
              while (page.hasNext()) {
                page.next();
                got++;
              }
              count.addAndGet(got);
              if (got < PAGE) {
                return null;
              }
              cursor = page.getCursorAfter();
            }
          });
    }
    runAll(pool, tasks);
    return checked("Datastore emulator", count.get(), n, t);
  }

  /** {@code lo <= __key__ < hi}; an empty {@code lo} or a {@code hi} of "~" is open. */
  private static com.google.cloud.datastore.StructuredQuery.Filter keyRange(
      KeyFactory keys, String lo, String hi) {
    PropertyFilter from = lo.isEmpty() ? null : PropertyFilter.ge("__key__", keys.newKey(lo));
    PropertyFilter to = hi.equals("~") ? null : PropertyFilter.lt("__key__", keys.newKey(hi));
    if (from == null || to == null) {
      return from != null ? from : to;
    }
    return CompositeFilter.and(from, to);
  }

  /**
   * {@code parallelism + 1} bounds cutting the sorted account names into ranges of about equal
   * size: the first is below every account, the last above.
   */
  private static List<String> accountBounds(int parallelism) {
    List<String> accounts = new ArrayList<>();
    for (int a = 0; a < ACCOUNTS; a++) {
      accounts.add("acct-" + a);
    }
    accounts.sort(null);
    List<String> bounds = new ArrayList<>();
    bounds.add("");
    int ranges = Math.min(parallelism, ACCOUNTS);
    for (int s = 1; s < ranges; s++) {
      bounds.add(accounts.get(s * ACCOUNTS / ranges));
    }
    bounds.add("~");
    return bounds;
  }

  // ---- Azurite --------------------------------------------------------------------------------

  private static double azureWrite(
      TableServiceClient service, ExecutorService pool, String table, List<Item> items)
      throws Exception {
    TableClient client = service.createTableIfNotExists(table);
    if (client == null) {
      client = service.getTableClient(table);
    }
    TableClient tables = client;
    List<List<TableTransactionAction>> transactions = new ArrayList<>();
    List<TableTransactionAction> current = new ArrayList<>();
    String partition = null;
    for (Item item : items) {
      String account = item.getString("account");
      if (!current.isEmpty() && (current.size() == 100 || !account.equals(partition))) {
        transactions.add(current);
        current = new ArrayList<>();
      }
      partition = account;
      TableEntity e =
          new TableEntity(account, rowKey(seq(item)))
              .addProperty("seq", seq(item))
              .addProperty("day", item.getString("day"))
              .addProperty("amount", item.getNumber("amount").doubleValue())
              .addProperty("memo", item.getString("memo"))
              .addProperty("iban", item.getString("iban"));
      current.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
    }
    if (!current.isEmpty()) {
      transactions.add(current);
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (List<TableTransactionAction> tx : transactions) {
      tasks.add(
          () -> {
            tables.submitTransaction(tx);
            return null;
          });
    }
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  /**
   * The raw client writing the rows Stowage keeps for an item of a table with one index (created
   * without descending queries): the item row (with a nonce property) and the forward row of its
   * entry, in the index partition of its day, all as transactions of up to 100 upserts of one
   * partition, in parallel, with no order between them (the fewest requests any client could send
   * for these rows).
   */
  private static double azureWriteWithIndexRows(
      TableServiceClient service, ExecutorService pool, String table, List<Item> items)
      throws Exception {
    TableClient data = createAzureTable(service, table);
    TableClient index = createAzureTable(service, table + "ix");
    Map<String, List<TableTransactionAction>> rows = new java.util.LinkedHashMap<>();
    for (Item item : items) {
      String account = item.getString("account");
      String nonce = "n" + Long.toHexString(seq(item) * 0x9E3779B97F4A7C15L);
      rows.computeIfAbsent("d" + account, k -> new ArrayList<>())
          .add(
              new TableTransactionAction(
                  TableTransactionActionType.UPSERT_REPLACE,
                  new TableEntity(account, rowKey(seq(item)))
                      .addProperty("seq", seq(item))
                      .addProperty("day", item.getString("day"))
                      .addProperty("amount", item.getNumber("amount").doubleValue())
                      .addProperty("memo", item.getString("memo"))
                      .addProperty("iban", item.getString("iban"))
                      .addProperty("nonce", nonce)));
      String day = "byDay." + item.getString("day");
      String entry = rowKey(seq(item)) + "." + account + "." + nonce;
      List<TableTransactionAction> ix = rows.computeIfAbsent("i" + day, k -> new ArrayList<>());
      ix.add(
          new TableTransactionAction(
              TableTransactionActionType.UPSERT_REPLACE, new TableEntity(day, "a" + entry)));
    }
    List<Callable<Void>> tasks = new ArrayList<>();
    for (Map.Entry<String, List<TableTransactionAction>> e : rows.entrySet()) {
      TableClient client = e.getKey().startsWith("d") ? data : index;
      List<TableTransactionAction> all = e.getValue();
      for (int i = 0; i < all.size(); i += 100) {
        List<TableTransactionAction> tx = all.subList(i, Math.min(all.size(), i + 100));
        tasks.add(
            () -> {
              client.submitTransaction(tx);
              return null;
            });
      }
    }
    long t = System.nanoTime();
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  private static TableClient createAzureTable(TableServiceClient service, String table) {
    TableClient client = service.createTableIfNotExists(table);
    return client == null ? service.getTableClient(table) : client;
  }

  private static double azureRead(
      TableServiceClient service, ExecutorService pool, String table, int parallelism, int n)
      throws Exception {
    TableClient tables = service.getTableClient(table);
    List<String> bounds = accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s + 1 < bounds.size(); s++) {
      String filter =
          "PartitionKey ge '" + bounds.get(s) + "' and PartitionKey lt '" + bounds.get(s + 1) + "'";
      tasks.add(
          () -> {
            tables
                .listEntities(new ListEntitiesOptions().setFilter(filter), null, null)
                .forEach(e -> count.incrementAndGet());
            return null;
          });
    }
    runAll(pool, tasks);
    return checked("Azurite", count.get(), n, t);
  }

  // ---- helpers --------------------------------------------------------------------------------

  /**
   * {@code turn}, recording the CPU time Azurite's processes (children of this JVM) spent during
   * it, per item, into {@code cpu[round]} (measured rounds only). Azurite serves every request on
   * one Node.js thread, so its CPU per item is what bounds any client writing into it, and unlike
   * elapsed time it hardly moves with the machine's load. Read from /proc: 0 where it is missing.
   */
  private static Callable<Double> azuriteCpu(Callable<Double> turn, double[] cpu, int round) {
    return () -> {
      long before = azuriteCpuTicks();
      double rate = turn.call();
      if (round >= 0) {
        // Clock ticks of 10 ms (USER_HZ 100 on Linux); items per second gives the item count.
        long ticks = azuriteCpuTicks() - before;
        cpu[round] = ticks * 10_000.0 / itemsOfTurn;
      }
      return rate;
    };
  }

  /** Items each turn writes (set once from the command line). */
  private static int itemsOfTurn = 1;

  private static java.util.stream.Stream<ProcessHandle> azuriteProcesses() {
    return ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("azurite"));
  }

  private static long azuriteCpuTicks() {
    return azuriteProcesses()
        .mapToLong(
            p -> {
              try {
                String stat =
                    java.nio.file.Files.readString(
                        java.nio.file.Path.of("/proc/" + p.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime + stime
              } catch (java.io.IOException | RuntimeException e) {
                return 0;
              }
            })
        .sum();
  }

  private static void runAll(ExecutorService pool, List<Callable<Void>> tasks) throws Exception {
    List<Future<Void>> done = new ArrayList<>(tasks.size());
    for (Callable<Void> task : tasks) {
      done.add(pool.submit(task));
    }
    for (Future<Void> f : done) {
      f.get();
    }
  }

  private static double checked(String store, long read, int n, long start) {
    double rate = rate(n, start);
    if (read != n) {
      throw new IllegalStateException("read " + read + " of " + n + " items from " + store);
    }
    return rate;
  }

  private static double rate(int n, long startNanos) {
    return n / ((System.nanoTime() - startNanos) / 1e9);
  }

  private static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String micros(double[] v) {
    return String.format(
        Locale.ROOT,
        "%.1f (%.1f-%.1f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }

  private static String summary(double[] v) {
    return String.format(
        Locale.ROOT,
        "%,7.0f (%,.0f-%,.0f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }
}
