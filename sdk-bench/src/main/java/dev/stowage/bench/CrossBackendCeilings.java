package dev.stowage.bench;

import com.azure.core.http.rest.PagedResponse;
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
  private static final int ACCOUNTS = 50;

  /** Items/s of each hop in the documented sequential run (its quieter re-run). */
  private static final double[] BEFORE = {2644, 312, 2400};

  private static final String[] STORES = {"DynamoDB Local", "Datastore emulator", "Azurite"};

  /** The raw DynamoDB table the first raw copy reads, written once by the raw client. */
  private static final String RAW_SOURCE = "raw-prod";

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
    // [hop][round]: migrator, raw copy; [store][round]: raw write into the store, raw read
    double[][] hop = new double[3][rounds];
    double[][] copy = new double[3][rounds];
    double[][] write = new double[3][rounds];
    double[][] read = new double[3][rounds];
    // raw writes into Azurite of an item row and its index row per item
    double[] sameRows = new double[rounds];
    // hop=N: CPU per item (this JVM, the Datastore emulator) of the migrator, the raw write,
    // Stowage's batchPut and the raw copy
    double[][] cpu = new double[9][rounds];
    // Azurite's CPU time per item (microseconds) in the migrator's, the same-rows and the raw
    // copy's turns
    double[] migratorCpu = new double[rounds];
    double[] sameRowsCpu = new double[rounds];
    double[] copyCpu = new double[rounds];
    try {
      // The raw copies' first source, written by the raw client once, read every round, as the
      // migrator's first source is by Stowage.
      t = System.nanoTime();
      switch (only) {
        case -1, 0 -> ddbWrite(ddb, pool, RAW_SOURCE, items);
        case 1 -> datastoreWrite(datastore, pool, "seed", items);
        default -> azureWriteWithIndexRows(azureTables, pool, "rawseed", items);
      }
      System.out.printf(
          Locale.ROOT,
          "seeded %s with %,d items by the raw client (the raw copy's source) in %,d ms%n",
          STORES[Math.max(only, 0)],
          n,
          ms(t));
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
            migrate = azuriteCpu(migrate, migratorCpu, r - 1);
          }
          Callable<Double> raw =
              switch (target) {
                case 0 -> () -> ddbWrite(ddb, pool, "raw-" + ns, items);
                case 1 -> () -> datastoreWrite(datastore, pool, ns, items);
                default -> () -> azureWrite(azureTables, pool, "raw" + ns, items);
              };
          int hh = h;
          Callable<Double> rawCopy =
              () ->
                  rawCopy(
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
            rawCopy = azuriteCpu(rawCopy, copyCpu, r - 1);
          }
          List<Callable<Double>> sides = List.of(migrate, raw, rawCopy);
          CpuTurn[] turns = new CpuTurn[sides.size()];
          double[] rate = new double[sides.size()];
          for (int k = 0; k < sides.size(); k++) {
            int side = sideOfTurn(r, k, sides.size());
            turns[side] = CpuTurn.of(sides.get(side));
            rate[side] = turns[side].call();
          }
          verifyCopy(h, ddb, datastore, azureTables, pool, copyTo[h], items, parallelism);
          double m = rate[0];
          double w = rate[1];
          double c = rate[2];
          CpuTurn mc = turns[0];
          CpuTurn wc = turns[1];
          CpuTurn cc = turns[2];
          if (only >= 0) {
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
              cpu[7][r - 1] = cc.jvmMicrosPer(n);
              cpu[8][r - 1] = cc.emulatorMicrosPer(n);
            }
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
          if (only >= 0) {
            // The slower side needs the source store's raw write as well, which a full run
            // measures in the hop into that store.
            double sw =
                switch (h) {
                  case 0 -> ddbWrite(ddb, pool, "raw-" + ns, items);
                  case 1 -> datastoreWrite(datastore, pool, ns, items);
                  default -> azureWriteWithIndexRows(azureTables, pool, "rix" + ns, items);
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
                sameRows[r - 1] = sw;
              } else {
                write[h][r - 1] = sw;
              }
            }
          }
          if (warm && target == 2) {
            System.out.println(requests.per100(n));
          }
          if (!warm) {
            hop[h][r - 1] = m;
            copy[h][r - 1] = c;
            write[target][r - 1] = w;
          }
        }
        if (!warm) {
          for (int h = 0; h < 3; h++) {
            if (only >= 0 && h != only) {
              continue;
            }
            int src = h;
            int target = (h + 1) % 3;
            double ws = storeWrite(src, write, sameRows)[r - 1];
            double wt = storeWrite(target, write, sameRows)[r - 1];
            double slower = Math.min(ws, wt);
            System.out.printf(
                Locale.ROOT,
                "round %d %-22s / the slower side's raw write (%s, %,.0f items/s): migrator"
                    + " %.3f, raw copy %.3f%n",
                r,
                HOPS[h],
                ws <= wt ? storeWriteName(src) : storeWriteName(target),
                slower,
                hop[h][r - 1] / slower,
                copy[h][r - 1] / slower);
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
              STORES[s],
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
              Locale.ROOT, "%-20s raw parallel write %s%n", STORES[s], summary(write[s]));
        } else if (s == only) {
          System.out.printf(
              Locale.ROOT,
              "%-20s raw parallel write %s (into the hop's source%s)%n",
              STORES[s],
              summary(storeWrite(s, write, sameRows)),
              s == 2 ? ": item + forward row" : "");
        }
        continue;
      }
      System.out.printf(
          Locale.ROOT,
          "%-20s raw parallel write %s   raw parallel read %s%n",
          STORES[s],
          summary(write[s]),
          summary(read[s]));
    }
    if (only >= 0) {
      System.out.printf(
          Locale.ROOT,
          "%-22s CPU per item (us; medians, ranges): migrator: JVM %s (without DynamoDB"
              + " Local's threads %s), emulator %s; raw write: JVM %s, emulator %s; raw copy:"
              + " JVM %s, emulator %s%n",
          HOPS[only],
          micros(cpu[0]),
          micros(cpu[6]),
          micros(cpu[1]),
          micros(cpu[2]),
          micros(cpu[3]),
          micros(cpu[7]),
          micros(cpu[8]));
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
      double[] ratio = ratios(hop[h], write[target]);
      double m = median(hop[h]);
      if (target == 2) {
        if (azuriteProcesses().findAny().isPresent()) {
          System.out.printf(
              Locale.ROOT,
              "%-22s Azurite CPU per item (us): migrator %s, raw write of the same rows %s, raw"
                  + " copy %s%n",
              HOPS[h],
              summary(migratorCpu),
              summary(sameRowsCpu),
              summary(copyCpu));
        }
        System.out.printf(
            Locale.ROOT,
            "%-22s raw write of the rows an indexed table holds (item + forward row) %s; the"
                + " migrator / it %s (for reference)%n",
            HOPS[h],
            summary(sameRows),
            ratioSummary(ratios(hop[h], sameRows)));
      }
      System.out.printf(
          Locale.ROOT,
          "%-22s migrator %s = %.2fx the sequential run (target >= 4x: %s); / the target store's"
              + " raw write alone %s (>= 0.8 of the target store alone: %s); 4x the sequential"
              + " run = %,.0f items/s is %.2fx the target's raw write%s%n",
          HOPS[h],
          summary(hop[h]),
          m / BEFORE[h],
          m / BEFORE[h] >= 4 ? "met" : "NOT met",
          ratioSummary(ratio),
          median(ratio) >= 0.8 ? "met" : "NOT met",
          4 * BEFORE[h],
          4 * BEFORE[h] / median(write[target]),
          only >= 0
              ? ""
              : String.format(
                  Locale.ROOT, ", %.2fx the source's raw read", 4 * BEFORE[h] / median(read[src])));
      double[] slower =
          slowerSide(storeWrite(src, write, sameRows), storeWrite(target, write, sameRows));
      double[] toSlower = ratios(hop[h], slower);
      System.out.printf(
          Locale.ROOT,
          "%-22s raw copy %s; migrator / raw copy %s (for reference: what a hand-written copy"
              + " reaches on this machine)%n",
          HOPS[h],
          summary(copy[h]),
          ratioSummary(ratios(hop[h], copy[h])));
      System.out.printf(
          Locale.ROOT,
          "%-22s / the slower side's raw write %s (%s): migrator %s (target >= 0.8: %s); raw copy"
              + " %s%n",
          HOPS[h],
          summary(slower),
          slowerSides(
              storeWrite(src, write, sameRows), storeWrite(target, write, sameRows), src, target),
          ratioSummary(toSlower),
          median(toSlower) >= 0.8 ? "met" : "NOT met",
          ratioSummary(ratios(copy[h], slower)));
    }
  }

  /**
   * Which side goes {@code k}-th in round {@code round} of {@code sides} sides: the first rotates
   * from round to round, so over as many rounds as sides each side goes first once.
   */
  static int sideOfTurn(int round, int k, int sides) {
    return (round + k) % sides;
  }

  /**
   * The raw parallel write rates of a store per round: Azurite's of an item and its forward row.
   */
  private static double[] storeWrite(int store, double[][] write, double[] sameRows) {
    return store == 2 ? sameRows : write[store];
  }

  private static String storeWriteName(int store) {
    return store == 2 ? "Azurite, item + forward row" : STORES[store];
  }

  /** Per round, the lower of the two sides' rates. */
  static double[] slowerSide(double[] a, double[] b) {
    double[] s = new double[a.length];
    for (int r = 0; r < a.length; r++) {
      s[r] = Math.min(a[r], b[r]);
    }
    return s;
  }

  /** Per round, {@code a / b}. */
  static double[] ratios(double[] a, double[] b) {
    double[] q = new double[a.length];
    for (int r = 0; r < a.length; r++) {
      q[r] = a[r] / b[r];
    }
    return q;
  }

  /** Which store was the slower side, with the rounds it was slower in when that changed. */
  static String slowerSides(double[] source, double[] target, int src, int tgt) {
    int sourceSlower = 0;
    for (int r = 0; r < source.length; r++) {
      if (source[r] <= target[r]) {
        sourceSlower++;
      }
    }
    int rounds = source.length;
    if (sourceSlower == rounds) {
      return storeWriteName(src) + ", the source";
    }
    if (sourceSlower == 0) {
      return storeWriteName(tgt) + ", the target";
    }
    return String.format(
        Locale.ROOT,
        "%s, the source, in %d of %d rounds; %s, the target, in %d",
        storeWriteName(src),
        sourceSlower,
        rounds,
        storeWriteName(tgt),
        rounds - sourceSlower);
  }

  private static String ratioSummary(double[] v) {
    return String.format(
        Locale.ROOT,
        "%.3f (%.2f-%.2f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
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

  /** A table of the ledger's key with the {@code byDay} index, as the migrator's target has it. */
  private static void createDdbTable(DynamoDbClient ddb, String table) {
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
  }

  /** The raw client's put of one ledger item ({@code amount} as DynamoDB's number text). */
  private static WriteRequest ddbPut(
      String account, long seq, String day, String amount, String memo, String iban) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("account", AttributeValue.fromS(account));
    m.put("seq", AttributeValue.fromN(Long.toString(seq)));
    m.put("day", AttributeValue.fromS(day));
    m.put("amount", AttributeValue.fromN(amount));
    m.put("memo", AttributeValue.fromS(memo));
    m.put("iban", AttributeValue.fromS(iban));
    return WriteRequest.builder().putRequest(PutRequest.builder().item(m).build()).build();
  }

  /** One {@code BatchWriteItem} of up to 25 puts, re-sending unprocessed ones. */
  private static void ddbBatchWrite(DynamoDbClient ddb, String table, List<WriteRequest> batch) {
    Map<String, List<WriteRequest>> pending = Map.of(table, batch);
    while (!pending.isEmpty()) {
      Map<String, List<WriteRequest>> send = pending;
      pending = ddb.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
    }
  }

  private static double ddbWrite(
      DynamoDbClient ddb, ExecutorService pool, String table, List<Item> items) throws Exception {
    createDdbTable(ddb, table);
    List<WriteRequest> writes = new ArrayList<>(items.size());
    for (Item item : items) {
      writes.add(
          ddbPut(
              item.getString("account"),
              seq(item),
              item.getString("day"),
              item.getNumber("amount").toString(),
              item.getString("memo"),
              item.getString("iban")));
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < writes.size(); i += 25) {
      List<WriteRequest> batch = writes.subList(i, Math.min(writes.size(), i + 25));
      tasks.add(
          () -> {
            ddbBatchWrite(ddb, table, batch);
            return null;
          });
    }
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  private static double ddbRead(
      DynamoDbClient ddb, ExecutorService pool, String table, int segments, int n)
      throws Exception {
    long t = System.nanoTime();
    return checked("DynamoDB Local", ddbScan(ddb, pool, table, segments, null), n, t);
  }

  /**
   * A parallel {@code Scan} of {@code table}, one segment per thread, pages of {@value #PAGE}, each
   * page handed to {@code sink} (if any) on its segment's thread; returns the items read.
   */
  private static long ddbScan(
      DynamoDbClient ddb,
      ExecutorService pool,
      String table,
      int segments,
      PageSink<Map<String, AttributeValue>> sink)
      throws Exception {
    AtomicLong count = new AtomicLong();
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
              if (sink != null) {
                sink.accept(page.items());
              }
              start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
              if (start != null && start.isEmpty()) {
                start = null;
              }
            } while (start != null);
            return null;
          });
    }
    runAll(pool, tasks);
    return count.get();
  }

  // ---- Datastore emulator ---------------------------------------------------------------------

  private static KeyFactory keys(Datastore datastore, String ns) {
    return datastore.newKeyFactory().setNamespace("raw" + ns).setKind("ledger");
  }

  private static String keyName(String account, long seq) {
    return account + "/" + rowKey(seq);
  }

  /** The raw client's entity of one ledger item: only {@code day} among the values indexed. */
  private static Entity entity(
      KeyFactory keys,
      String account,
      long seq,
      String day,
      double amount,
      String memo,
      String iban) {
    return Entity.newBuilder(keys.newKey(keyName(account, seq)))
        .set("account", StringValue.newBuilder(account).build())
        .set("seq", LongValue.newBuilder(seq).build())
        .set("day", StringValue.newBuilder(day).build())
        .set("amount", DoubleValue.newBuilder(amount).setExcludeFromIndexes(true).build())
        .set("memo", StringValue.newBuilder(memo).setExcludeFromIndexes(true).build())
        .set("iban", StringValue.newBuilder(iban).setExcludeFromIndexes(true).build())
        .build();
  }

  private static double datastoreWrite(
      Datastore datastore, ExecutorService pool, String ns, List<Item> items) throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<Entity> entities = new ArrayList<>(items.size());
    for (Item item : items) {
      entities.add(
          entity(
              keys,
              item.getString("account"),
              seq(item),
              item.getString("day"),
              item.getNumber("amount").doubleValue(),
              item.getString("memo"),
              item.getString("iban")));
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
    long t = System.nanoTime();
    return checked(
        "Datastore emulator", datastoreScan(datastore, pool, ns, parallelism, null), n, t);
  }

  /**
   * One {@code __key__}-range query per thread over the raw kind of namespace {@code ns}, pages of
   * {@value #PAGE}, each page handed to {@code sink} (if any) on its range's thread; returns the
   * entities read.
   */
  private static long datastoreScan(
      Datastore datastore, ExecutorService pool, String ns, int parallelism, PageSink<Entity> sink)
      throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<String> bounds = accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
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
              List<Entity> entities = sink == null ? null : new ArrayList<>();
              int got = 0;
              while (page.hasNext()) {
                Entity e = page.next();
                if (entities != null) {
                  entities.add(e);
                }
                got++;
              }
              count.addAndGet(got);
              if (sink != null) {
                sink.accept(entities);
              }
              if (got < PAGE) {
                return null;
              }
              cursor = page.getCursorAfter();
            }
          });
    }
    runAll(pool, tasks);
    return count.get();
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
    TableClient tables = createAzureTable(service, table);
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
      addIndexedRows(
          rows,
          item.getString("account"),
          seq(item),
          item.getString("day"),
          item.getNumber("amount").doubleValue(),
          item.getString("memo"),
          item.getString("iban"));
    }
    List<Callable<Void>> tasks = new ArrayList<>();
    forEachTransaction(
        rows,
        data,
        index,
        (client, tx) ->
            tasks.add(
                () -> {
                  client.submitTransaction(tx);
                  return null;
                }));
    long t = System.nanoTime();
    runAll(pool, tasks);
    return rate(items.size(), t);
  }

  /** The nonce of an item row and its index entry (fixed per item, so a copy can be checked). */
  private static String nonce(long seq) {
    return "n" + Long.toHexString(seq * 0x9E3779B97F4A7C15L);
  }

  private static String forwardPartition(String day) {
    return "byDay." + day;
  }

  private static String forwardRow(String account, long seq) {
    return "a" + rowKey(seq) + "." + account + "." + nonce(seq);
  }

  /**
   * Adds an item's rows in an indexed table to {@code rows}, by partition: the item row under
   * {@code "d" + account}, its entry's forward row under {@code "i" + the index partition}.
   */
  private static void addIndexedRows(
      Map<String, List<TableTransactionAction>> rows,
      String account,
      long seq,
      String day,
      double amount,
      String memo,
      String iban) {
    rows.computeIfAbsent("d" + account, k -> new ArrayList<>())
        .add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                new TableEntity(account, rowKey(seq))
                    .addProperty("seq", seq)
                    .addProperty("day", day)
                    .addProperty("amount", amount)
                    .addProperty("memo", memo)
                    .addProperty("iban", iban)
                    .addProperty("nonce", nonce(seq))));
    String partition = forwardPartition(day);
    rows.computeIfAbsent("i" + partition, k -> new ArrayList<>())
        .add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                new TableEntity(partition, forwardRow(account, seq))));
  }

  /** Cuts rows by partition (as {@link #addIndexedRows} groups them) into transactions of 100. */
  private static void forEachTransaction(
      Map<String, List<TableTransactionAction>> rows,
      TableClient data,
      TableClient index,
      java.util.function.BiConsumer<TableClient, List<TableTransactionAction>> transaction) {
    for (Map.Entry<String, List<TableTransactionAction>> e : rows.entrySet()) {
      TableClient client = e.getKey().startsWith("d") ? data : index;
      List<TableTransactionAction> all = e.getValue();
      for (int i = 0; i < all.size(); i += 100) {
        transaction.accept(client, all.subList(i, Math.min(all.size(), i + 100)));
      }
    }
  }

  private static TableClient createAzureTable(TableServiceClient service, String table) {
    TableClient client = service.createTableIfNotExists(table);
    return client == null ? service.getTableClient(table) : client;
  }

  private static double azureRead(
      TableServiceClient service, ExecutorService pool, String table, int parallelism, int n)
      throws Exception {
    long t = System.nanoTime();
    return checked("Azurite", azureScan(service, pool, table, parallelism, null), n, t);
  }

  /**
   * One {@code PartitionKey}-range listing per thread of {@code table} (the service's pages), each
   * page handed to {@code sink} (if any) on its range's thread; returns the rows read. The ranges
   * cover every partition key below "~".
   */
  private static long azureScan(
      TableServiceClient service,
      ExecutorService pool,
      String table,
      int parallelism,
      PageSink<TableEntity> sink)
      throws Exception {
    TableClient tables = service.getTableClient(table);
    List<String> bounds = accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s + 1 < bounds.size(); s++) {
      String filter =
          "PartitionKey ge '" + bounds.get(s) + "' and PartitionKey lt '" + bounds.get(s + 1) + "'";
      tasks.add(
          () -> {
            for (PagedResponse<TableEntity> page :
                tables
                    .listEntities(new ListEntitiesOptions().setFilter(filter), null, null)
                    .iterableByPage()) {
              count.addAndGet(page.getValue().size());
              if (sink != null) {
                sink.accept(page.getValue());
              }
            }
            return null;
          });
    }
    runAll(pool, tasks);
    return count.get();
  }

  // ---- the raw copies -------------------------------------------------------------------------

  /** One page of a raw parallel read, handed over on the thread that read it. */
  private interface PageSink<T> {
    void accept(List<T> page) throws Exception;
  }

  /**
   * Hop {@code hop}'s hand-written copy: the raw read of the source's table or namespace {@code
   * from}, each thread writing every page it reads into {@code to} in the raw writes' batch shapes
   * before it reads the next. Throws unless it read and wrote exactly {@code n} items.
   */
  private static double rawCopy(
      int hop,
      DynamoDbClient ddb,
      Datastore datastore,
      TableServiceClient azure,
      ExecutorService pool,
      String from,
      String to,
      int parallelism,
      int n)
      throws Exception {
    AtomicLong written = new AtomicLong();
    long read;
    long t;
    switch (hop) {
      case 0 -> {
        KeyFactory keys = keys(datastore, to);
        t = System.nanoTime();
        read =
            ddbScan(
                ddb,
                pool,
                from,
                parallelism,
                page -> {
                  List<Entity> entities = new ArrayList<>(page.size());
                  for (Map<String, AttributeValue> m : page) {
                    entities.add(
                        entity(
                            keys,
                            m.get("account").s(),
                            Long.parseLong(m.get("seq").n()),
                            m.get("day").s(),
                            Double.parseDouble(m.get("amount").n()),
                            m.get("memo").s(),
                            m.get("iban").s()));
                  }
                  for (int i = 0; i < entities.size(); i += DatastoreDriver.MAX_MUTATIONS) {
                    datastore.put(
                        entities
                            .subList(
                                i, Math.min(entities.size(), i + DatastoreDriver.MAX_MUTATIONS))
                            .toArray(new Entity[0]));
                  }
                  written.addAndGet(entities.size());
                });
      }
      case 1 -> {
        TableClient data = createAzureTable(azure, to);
        TableClient index = createAzureTable(azure, to + "ix");
        t = System.nanoTime();
        read =
            datastoreScan(
                datastore,
                pool,
                from,
                parallelism,
                page -> {
                  Map<String, List<TableTransactionAction>> rows = new java.util.LinkedHashMap<>();
                  for (Entity e : page) {
                    addIndexedRows(
                        rows,
                        e.getString("account"),
                        e.getLong("seq"),
                        e.getString("day"),
                        e.getDouble("amount"),
                        e.getString("memo"),
                        e.getString("iban"));
                  }
                  forEachTransaction(rows, data, index, TableClient::submitTransaction);
                  written.addAndGet(page.size());
                });
      }
      default -> {
        createDdbTable(ddb, to);
        t = System.nanoTime();
        read =
            azureScan(
                azure,
                pool,
                from,
                parallelism,
                page -> {
                  List<WriteRequest> writes = new ArrayList<>(page.size());
                  for (TableEntity e : page) {
                    writes.add(
                        ddbPut(
                            e.getPartitionKey(),
                            ((Number) e.getProperty("seq")).longValue(),
                            (String) e.getProperty("day"),
                            BigDecimal.valueOf(((Number) e.getProperty("amount")).doubleValue())
                                .toPlainString(),
                            (String) e.getProperty("memo"),
                            (String) e.getProperty("iban")));
                  }
                  for (int i = 0; i < writes.size(); i += 25) {
                    ddbBatchWrite(ddb, to, writes.subList(i, Math.min(writes.size(), i + 25)));
                  }
                  written.addAndGet(writes.size());
                });
      }
    }
    double rate = rate(n, t);
    if (read != n || written.get() != n) {
      throw new IllegalStateException(
          "raw copy " + HOPS[hop] + ": read " + read + ", wrote " + written + " of " + n);
    }
    return rate;
  }

  /**
   * Checks (untimed) that hop {@code hop}'s raw copy left every item in the target: reads the
   * target back whole with the raw read (item count; for Azure also the forward rows' count) and
   * compares a few items attribute by attribute with the items the source was written with.
   */
  private static void verifyCopy(
      int hop,
      DynamoDbClient ddb,
      Datastore datastore,
      TableServiceClient azure,
      ExecutorService pool,
      String to,
      List<Item> items,
      int parallelism)
      throws Exception {
    int n = items.size();
    String what = "raw copy " + HOPS[hop];
    switch (hop) {
      case 0 -> datastoreRead(datastore, pool, to, parallelism, n);
      case 1 -> {
        azureRead(azure, pool, to, parallelism, n);
        long rows = azureScan(azure, pool, to + "ix", parallelism, null);
        if (rows != n) {
          throw new IllegalStateException(what + ": " + rows + " forward rows for " + n + " items");
        }
      }
      default -> ddbRead(ddb, pool, to, parallelism, n);
    }
    for (int i = 0; i < 8; i++) {
      Item item = items.get((int) ((long) i * (n - 1) / 7));
      String account = item.getString("account");
      long seq = seq(item);
      // account, seq, day, amount, memo, iban as the target holds them
      Object[] got =
          switch (hop) {
            case 0 -> {
              Entity e = datastore.get(keys(datastore, to).newKey(keyName(account, seq)));
              yield e == null
                  ? null
                  : new Object[] {
                    e.getString("account"),
                    e.getLong("seq"),
                    e.getString("day"),
                    BigDecimal.valueOf(e.getDouble("amount")),
                    e.getString("memo"),
                    e.getString("iban")
                  };
            }
            case 1 -> {
              TableEntity e = azure.getTableClient(to).getEntity(account, rowKey(seq));
              // the forward row is there, or getEntity throws
              azure
                  .getTableClient(to + "ix")
                  .getEntity(forwardPartition(item.getString("day")), forwardRow(account, seq));
              yield new Object[] {
                e.getPartitionKey(),
                ((Number) e.getProperty("seq")).longValue(),
                e.getProperty("day"),
                BigDecimal.valueOf(((Number) e.getProperty("amount")).doubleValue()),
                e.getProperty("memo"),
                e.getProperty("iban")
              };
            }
            default -> {
              Map<String, AttributeValue> m =
                  ddb.getItem(
                          g ->
                              g.tableName(to)
                                  .consistentRead(true)
                                  .key(
                                      Map.of(
                                          "account",
                                          AttributeValue.fromS(account),
                                          "seq",
                                          AttributeValue.fromN(Long.toString(seq)))))
                      .item();
              yield m == null || m.isEmpty()
                  ? null
                  : new Object[] {
                    m.get("account").s(),
                    Long.parseLong(m.get("seq").n()),
                    m.get("day").s(),
                    new BigDecimal(m.get("amount").n()),
                    m.get("memo").s(),
                    m.get("iban").s()
                  };
            }
          };
      Object[] want = {
        account,
        seq,
        item.getString("day"),
        new BigDecimal(item.getNumber("amount").toString()),
        item.getString("memo"),
        item.getString("iban")
      };
      if (got == null || !sameValues(want, got)) {
        throw new IllegalStateException(
            what
                + ": item "
                + account
                + "/"
                + seq
                + " is "
                + (got == null ? "missing" : Arrays.toString(got))
                + " on the target, not "
                + Arrays.toString(want));
      }
    }
  }

  /** Equal values, numbers compared by value (so 12.25 and 12.250 are the same amount). */
  private static boolean sameValues(Object[] want, Object[] got) {
    for (int i = 0; i < want.length; i++) {
      boolean same =
          want[i] instanceof BigDecimal w && got[i] instanceof BigDecimal g
              ? w.compareTo(g) == 0
              : want[i].equals(got[i]);
      if (!same) {
        return false;
      }
    }
    return true;
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
