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
 *       client writes one row per item, where Stowage writes the item and two index rows (its
 *       forward and reverse entry), so an indexed Azure target cannot reach the raw rate.
 * </ul>
 *
 * <p>Every round writes into fresh tables (namespaces {@code rN}), so no side overwrites. The
 * migrator and the raw write of a hop alternate which goes first from round to round. Prints each
 * round, then per hop the medians in items/s, the hop's ratio to its target's raw write rate (the
 * issue's ≥ 0.8 of the slower side) and to 4× the rate of the documented sequential run.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -Dstowage.azurite=node_modules/azurite \
 *   -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.CrossBackendCeilings [rounds] [parallelism] [items] [hops]
 * </pre>
 *
 * <p>{@code hops} (1 to 3, default 3) runs only the first hops, each reading what the one before
 * wrote: {@code 1} runs DynamoDB → Datastore alone, with the raw parallel reads of the stores the
 * hops wrote into.
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
    int hops = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    if (hops < 1 || hops > 3) {
      throw new IllegalArgumentException("hops is 1 to 3, not " + hops);
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
    ExecutorService pool = Executors.newFixedThreadPool(parallelism);
    // [hop][round]: migrator, raw write into the target; [store][round]: raw read
    double[][] hop = new double[3][rounds];
    double[][] write = new double[3][rounds];
    double[][] read = new double[3][rounds];
    String[] stores = {"DynamoDB Local", "Datastore emulator", "Azurite"};
    try {
      for (int r = 0; r <= rounds; r++) {
        String ns = "r" + r;
        boolean warm = r == 0;
        StorageDriver[] from = {ddbDriver, dsDriver, azDriver};
        StorageDriver[] to = {dsDriver, azDriver, ddbDriver};
        String[] fromNs = {"prod", ns, ns};
        String[] toNs = {ns, ns, "b" + r};
        for (int h = 0; h < hops; h++) {
          int target = (h + 1) % 3;
          Callable<Double> migrate =
              migrateTurn(from[h], fromNs[h], to[h], toNs[h], parallelism, n);
          Callable<Double> raw =
              switch (target) {
                case 0 -> () -> ddbWrite(ddb, pool, "raw-" + ns, items);
                case 1 -> () -> datastoreWrite(datastore, pool, ns, items);
                default -> () -> azureWrite(azureTables, pool, "raw" + ns, items);
              };
          boolean migrateFirst = r % 2 == 0;
          double a = (migrateFirst ? migrate : raw).call();
          double b = (migrateFirst ? raw : migrate).call();
          double m = migrateFirst ? a : b;
          double w = migrateFirst ? b : a;
          System.out.printf(
              Locale.ROOT,
              "round %d %-22s migrator %,8.0f items/s   raw write into target %,8.0f items/s%s%n",
              r,
              HOPS[h],
              m,
              w,
              warm ? " (warm-up)" : "");
          if (!warm) {
            hop[h][r - 1] = m;
            write[target][r - 1] = w;
          }
        }
        // A store's raw read reads what its raw write wrote (DynamoDB Local, when no hop ran into
        // it: the migration's source table, as the driver named it).
        double[] reads = {
          ddbRead(ddb, pool, hops == 3 ? "raw-" + ns : "prod.ledger", parallelism, n),
          datastoreRead(datastore, pool, ns, parallelism, n),
          hops >= 2 ? azureRead(azureTables, pool, "raw" + ns, parallelism, n) : Double.NaN
        };
        for (int s = 0; s < 3; s++) {
          if (Double.isNaN(reads[s])) {
            continue;
          }
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
      boolean written = s == 1 || (s == 2 && hops >= 2) || hops == 3;
      if (!written && s != 0) {
        continue; // neither written nor read raw in these hops
      }
      System.out.printf(
          Locale.ROOT,
          "%-20s raw parallel write %s   raw parallel read %s%n",
          stores[s],
          written ? summary(write[s]) : "      - (not run)    ",
          summary(read[s]));
    }
    for (int h = 0; h < hops; h++) {
      int src = h;
      int target = (h + 1) % 3;
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = hop[h][r] / write[target][r];
      }
      double m = median(hop[h]);
      System.out.printf(
          Locale.ROOT,
          "%-22s migrator %s = %.2fx the sequential run (target >= 4x: %s); / target's raw"
              + " write %.3f (%.2f-%.2f) (target >= 0.8: %s); 4x the sequential run = %,.0f"
              + " items/s is %.2fx the target's raw write, %.2fx the source's raw read%n",
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
          4 * BEFORE[h] / median(read[src]));
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

  private static String summary(double[] v) {
    return String.format(
        Locale.ROOT,
        "%,7.0f (%,.0f-%,.0f)",
        median(v),
        Arrays.stream(v).min().orElse(0),
        Arrays.stream(v).max().orElse(0));
  }
}
