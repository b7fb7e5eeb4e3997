package dev.stowage.bench;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.google.cloud.datastore.Datastore;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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
 *       shown too, and is Azurite's raw write rate when it is a side of the slower-side ratio.
 * </ul>
 *
 * <p>Next to them, per hop, a hand-written raw parallel copy with the raw clients: as many threads
 * as the migrator's parallelism, each reading its share of a source the raw client wrote (the raw
 * reads above: a {@code Scan} segment, a {@code __key__} range, a {@code PartitionKey} range) page
 * by page and writing each page into the target in the raw writes' batch shapes ({@code
 * BatchWriteItem} of 25 into a table with the {@code byDay} index; Datastore {@code put} of 500
 * entities with the same properties; Azure transactions of up to 100 upserts of one partition, the
 * item row and its entry's forward row, as the migrator writes into an indexed table). The raw
 * copies chain like the hops: the first reads a raw DynamoDB table seeded once, each later one what
 * the copy before it wrote in the same round. Each copy counts what it read and wrote, and after
 * its turn (untimed) the target is read back whole and a few items are compared attribute by
 * attribute.
 *
 * <p>Every round writes into fresh tables (namespaces {@code rN}), so no side overwrites; nothing
 * is deleted (the emulators keep their data in memory and stop with the JVM). The three sides of a
 * hop (migrator, raw write, raw copy) rotate which goes first from round to round. Prints each
 * round, then per hop the medians in items/s and these ratios, each per round with median and
 * range:
 *
 * <ul>
 *   <li>the migrator to the slower side's raw parallel write measured in the same round, the lower
 *       of the source store's and the target store's rate, Azurite's being the raw write of the
 *       rows an indexed table holds (item and forward row, what the migrator writes): the issue's
 *       target, ≥ 0.8; the raw copy's ratio to the same rate next to it;
 *   <li>the migrator to the raw copy (for reference: what a hand-written copy reaches here, where
 *       the two emulators of a hop and the client share the CPU);
 *   <li>as in the earlier sections of docs/benchmarks.md, the migrator to its target store's raw
 *       write alone, and to 4× the rate of the documented sequential run.
 * </ul>
 *
 * <p>In the warm-up round it also counts the requests the migrator sent to Azurite (a hop into
 * Azure), per 100 items, next to the raw client's: the measured rounds count nothing. In the
 * measured rounds it records Azurite's CPU time per item (from /proc, for the Azurite it started)
 * in the hop into Azure, in the raw write of the same rows and in the raw copy.
 *
 * <p>A fourth argument {@code hop=N} (1, 2 or 3, in the order above) runs that hop alone: its
 * source is seeded once through Stowage (and once by the raw client, for the raw copy), the raw
 * reads are left out, and each round also times the raw write into the hop's source store (after
 * the rotating sides), for the slower side.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -Dstowage.azurite=node_modules/azurite \
 *   -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.CrossBackendCeilings [rounds] [parallelism] [items] [hop=N]
 * </pre>
 */
public final class CrossBackendCeilings {
  static final int PAGE = 2000;
  static final String[] STORES = {"DynamoDB Local", "Datastore emulator", "Azurite"};

  /** The raw DynamoDB table the first raw copy reads, written once by the raw client. */
  static final String RAW_SOURCE = "raw-prod";

  static final String[] HOPS = {"DynamoDB -> Datastore", "Datastore -> Azure", "Azure -> DynamoDB"};

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
    AzuriteCpu.itemsOfTurn = n;
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
    List<Item> items = LedgerItems.items(n);
    SourceSeeds.throughStowage(items, only, ddbDriver, dsDriver, azDriver);
    AzureRequests requests = new AzureRequests();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    CeilingFigures figures = new CeilingFigures(rounds);
    try {
      SourceSeeds.byRawClient(items, only, ddb, datastore, azureTables, pool);
      for (int r = 0; r <= rounds; r++) {
        String ns = "r" + r;
        boolean warm = r == 0;
        StorageDriver[] from = {ddbDriver, dsDriver, azDriver};
        StorageDriver[] to = {dsDriver, azDriver, ddbDriver};
        String[] fromNs = {"prod", only == 1 ? "seed" : ns, only == 2 ? "seed" : ns};
        String[] toNs = {ns, ns, "b" + r};
        // The raw copies chain as the hops do: each later one reads what the one before it wrote.
        String[] copyFrom = {
          RAW_SOURCE, only == 1 ? "seed" : "cp" + ns, only == 2 ? "rawseed" : "cp" + ns
        };
        String[] copyTo = {"cp" + ns, "cp" + ns, "cp-" + ns};
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
            migrate = AzuriteCpu.recording(migrate, figures.migratorCpu, r - 1);
          }
          Callable<Double> raw =
              switch (target) {
                case 0 -> () -> RawDynamoDb.write(ddb, pool, "raw-" + ns, items);
                case 1 -> () -> RawDatastore.write(datastore, pool, ns, items);
                default -> () -> RawAzure.write(azureTables, pool, "raw" + ns, items);
              };
          int hh = h;
          Callable<Double> rawCopy =
              () ->
                  RawCopies.copy(
                      hh,
                      ddb,
                      datastore,
                      azureTables,
                      pool,
                      copyFrom[hh],
                      copyTo[hh],
                      parallelism,
                      n);
          if (target == 2) {
            rawCopy = AzuriteCpu.recording(rawCopy, figures.copyCpu, r - 1);
          }
          List<Callable<Double>> sides = List.of(migrate, raw, rawCopy);
          CpuTurn[] turns = new CpuTurn[sides.size()];
          double[] rate = new double[sides.size()];
          for (int k = 0; k < sides.size(); k++) {
            int side = sideOfTurn(r, k, sides.size());
            turns[side] = CpuTurn.of(sides.get(side));
            rate[side] = turns[side].call();
          }
          RawCopies.verify(h, ddb, datastore, azureTables, pool, copyTo[h], items, parallelism);
          double m = rate[0];
          double w = rate[1];
          double c = rate[2];
          if (only >= 0) {
            printCpuPerItem(r, h, n, turns, dsDriver, items, figures);
          }
          System.out.printf(
              Locale.ROOT,
              "round %d %-22s migrator %,8.0f items/s   raw write into target %,8.0f items/s"
                  + "   raw copy %,8.0f items/s%s%n",
              r,
              HOPS[h],
              m,
              w,
              c,
              warm ? " (warm-up)" : "");
          if (target == 2) {
            double rows =
                AzuriteCpu.recording(
                        () -> RawAzure.writeWithIndexRows(azureTables, pool, "rix" + ns, items),
                        figures.sameRowsCpu,
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
              figures.sameRows[r - 1] = rows;
            }
          }
          if (only >= 0) {
            // The slower side needs the source store's raw write as well, which a full run
            // measures in the hop into that store.
            double sw =
                switch (h) {
                  case 0 -> RawDynamoDb.write(ddb, pool, "raw-" + ns, items);
                  case 1 -> RawDatastore.write(datastore, pool, ns, items);
                  default -> RawAzure.writeWithIndexRows(azureTables, pool, "rix" + ns, items);
                };
            System.out.printf(
                Locale.ROOT,
                "round %d %-22s raw write into the source%s %,8.0f items/s%s%n",
                r,
                HOPS[h],
                h == 2 ? " (item + forward row)" : "",
                sw,
                warm ? " (warm-up)" : "");
            if (!warm) {
              if (h == 2) {
                figures.sameRows[r - 1] = sw;
              } else {
                figures.write[h][r - 1] = sw;
              }
            }
          }
          if (warm && target == 2) {
            System.out.println(requests.per100(n));
          }
          if (!warm) {
            figures.hop[h][r - 1] = m;
            figures.copy[h][r - 1] = c;
            figures.write[target][r - 1] = w;
          }
        }
        if (!warm) {
          figures.printSlowerSideRatios(r, only);
        }
        if (only >= 0) {
          continue;
        }
        double[] reads = {
          RawDynamoDb.read(ddb, pool, "raw-" + ns, parallelism, n),
          RawDatastore.read(datastore, pool, ns, parallelism, n),
          RawAzure.read(azureTables, pool, "raw" + ns, parallelism, n)
        };
        for (int s = 0; s < 3; s++) {
          System.out.printf(
              Locale.ROOT,
              "round %d raw parallel read of %-18s %,8.0f items/s%s%n",
              r,
              STORES[s],
              reads[s],
              warm ? " (warm-up)" : "");
          if (!warm) {
            figures.read[s][r - 1] = reads[s];
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    figures.printMedians(rounds, n, parallelism, only);
  }

  /**
   * hop=N: prints and records the CPU per item of round {@code r}'s turns of hop {@code h} (the
   * migrator, the raw write, the raw copy), and in the first hop that of Stowage's own batch put.
   */
  private static void printCpuPerItem(
      int r,
      int h,
      int n,
      CpuTurn[] turns,
      StorageDriver dsDriver,
      List<Item> items,
      CeilingFigures figures)
      throws Exception {
    boolean warm = r == 0;
    String ns = "r" + r;
    CpuTurn mc = turns[0];
    CpuTurn wc = turns[1];
    CpuTurn cc = turns[2];
    System.out.printf(
        Locale.ROOT,
        "round %d %-22s CPU per item: migrator %.1f us in this JVM (%.1f us without"
            + " DynamoDB Local's threads), %.1f us in the Datastore emulator; raw write"
            + " %.1f us, %.1f us; raw copy %.1f us, %.1f us%n",
        r,
        HOPS[h],
        mc.jvmMicrosPer(n),
        mc.clientMicrosPer(n),
        mc.emulatorMicrosPer(n),
        wc.jvmMicrosPer(n),
        wc.emulatorMicrosPer(n),
        cc.jvmMicrosPer(n),
        cc.emulatorMicrosPer(n));
    if (h == 0) {
      // Stowage's own batch put of the items into the target, for the stored form's cost
      // in the emulator apart from the migrator's reading and copying.
      String putNs = "put" + ns;
      CpuTurn put =
          CpuTurn.of(
              () -> {
                Table t2 = Stowage.builder(dsDriver).namespace(putNs).build().ensureTable(SPEC);
                long t0 = System.nanoTime();
                t2.batchPut(items);
                return TimedTasks.rate(n, t0);
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
        figures.cpu[4][r - 1] = put.jvmMicrosPer(n);
        figures.cpu[5][r - 1] = put.emulatorMicrosPer(n);
      }
    }
    if (!warm) {
      figures.cpu[0][r - 1] = mc.jvmMicrosPer(n);
      figures.cpu[6][r - 1] = mc.clientMicrosPer(n);
      figures.cpu[1][r - 1] = mc.emulatorMicrosPer(n);
      figures.cpu[2][r - 1] = wc.jvmMicrosPer(n);
      figures.cpu[3][r - 1] = wc.emulatorMicrosPer(n);
      figures.cpu[7][r - 1] = cc.jvmMicrosPer(n);
      figures.cpu[8][r - 1] = cc.emulatorMicrosPer(n);
    }
  }

  /**
   * Which side goes {@code k}-th in round {@code round} of {@code sides} sides: the first rotates
   * from round to round, so over as many rounds as sides each side goes first once.
   */
  static int sideOfTurn(int round, int k, int sides) {
    return (round + k) % sides;
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
}
