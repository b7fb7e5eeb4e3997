package dev.stowage.bench;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.DeleteJob;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * Issue 17's delete-by-index comparison ({@link DeleteByIndexBench}) on Azure Tables (Azurite) and
 * on Datastore (the Firestore emulator in Datastore mode), both started by sdk-test's {@link
 * Emulators}. On these emulators every request is an HTTP or gRPC round trip into another process,
 * so the per-request cost that batching and parallelism amortise is present, unlike on DynamoDB
 * Local. Three sides per backend, alternating in one JVM (which side goes first rotates per round):
 *
 * <ul>
 *   <li>{@code stowage}: {@link Table#deleteWhere} over a Stowage-maintained index ({@code
 *       byStatus} on {@code status}, sorted by {@code createdAt}) with {@link
 *       DeleteJob.Options#DEFAULT};
 *   <li>{@code parallel} (the anchor), hand-written with the raw client on a plain table or kind
 *       holding the same properties. Azure: {@code listEntities} with the filter {@code status eq
 *       'expired'} selecting only PartitionKey and RowKey, each listed page's keys grouped by
 *       partition into {@code submitTransaction} calls of up to 100 delete actions, sent on {@value
 *       #THREADS} threads. Datastore: a keys-only query on {@code status = 'expired'}, its keys
 *       deleted with {@code delete(Key...)} of up to 500 keys per call on {@value #THREADS}
 *       threads;
 *   <li>{@code naive}: the same listing or query and one {@code deleteEntity} / {@code delete(Key)}
 *       per key, on one thread.
 * </ul>
 *
 * <p>Items have a partition key {@code tenant} (one of {@value #TENANTS}, assigned round-robin, so
 * the index's {@code createdAt} order interleaves the partitions) and a sort key {@code id}. Each
 * round loads {@code matching} items with {@code status = 'expired'} into each side's table or kind
 * (untimed, besides {@value #OTHERS} items with {@code status = 'active'} loaded once), then times
 * each side's delete, and checks afterwards that no match and every other item remain: on Stowage's
 * table by the index and by a full scan, on the raw ones by counting all keys and the matches. On
 * Azure each round's line also counts the HTTP requests per kind each side sent.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -Dstowage.azurite=node_modules/azurite \
 *     -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *     dev.stowage.bench.DeleteByIndexBackends [rounds=5] [backends=azure,datastore] [matching=2000]
 * </pre>
 *
 * <p>sdk-test's own classes come first on the class path: the emulators run with the class path
 * entry that holds them, and the benchmark jar's protobuf runtime would break the Firestore
 * emulator's.
 */
public final class DeleteByIndexBackends {
  static final int OTHERS = 1000;
  static final int TENANTS = 10;
  static final int THREADS = 4;
  private static final int AZURE_TRANSACTION = 100;
  private static final int DATASTORE_MUTATIONS = DatastoreDriver.MAX_MUTATIONS;
  private static final String INDEX = "byStatus";
  private static final TableSpec SPEC =
      TableSpec.builder(
              "bench_del", KeySchema.of("tenant", AttributeType.STRING, "id", AttributeType.STRING))
          .index(INDEX, List.of("status"), List.of("createdAt"))
          .build();

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
  private final int matching;
  private int loads;

  private DeleteByIndexBackends(int matching) {
    this.matching = matching;
  }

  /** Runs the rounds on each backend named and prints the comparisons. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<String> backends = List.of((args.length > 1 ? args[1] : "azure,datastore").split(","));
    int matching = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    if (rounds < 1 || matching < 1) {
      throw new IllegalArgumentException("rounds and matching must be at least 1");
    }
    for (String b : backends) {
      if (!b.equals("azure") && !b.equals("datastore")) {
        throw new IllegalArgumentException("backends are azure and datastore, not " + b);
      }
    }
    DeleteByIndexBackends bench = new DeleteByIndexBackends(matching);
    StringBuilder summary = new StringBuilder();
    try {
      for (String backend : backends) {
        Backend b = backend.equals("azure") ? bench.azure() : bench.datastore();
        summary.append(bench.run(backend, b, rounds));
      }
    } finally {
      bench.pool.shutdownNow();
      Emulators.stopAll();
    }
    System.out.println();
    System.out.print(summary);
    System.exit(0);
  }

  /** One backend's three sides, their loading and their checks. */
  private interface Backend {
    void loadStowage(List<Item> items);

    void loadRaw(List<Item> items) throws Exception;

    Table table();

    void parallel() throws Exception;

    void naive();

    /** The matches and the other items left in the raw table or kind. */
    long[] rawCounts();

    /** Requests sent so far by kind, or empty where they are not counted. */
    Map<String, Long> requests();
  }

  private String run(String backend, Backend b, int rounds) throws Exception {
    b.loadStowage(items(OTHERS, "active"));
    b.loadRaw(items(OTHERS, "active"));
    Map<String, Callable<Void>> sides = new LinkedHashMap<>();
    sides.put("stowage", () -> stowage(b.table()));
    sides.put(
        "parallel",
        () -> {
          b.parallel();
          return null;
        });
    sides.put(
        "naive",
        () -> {
          b.naive();
          return null;
        });
    Map<String, double[]> millis = new HashMap<>();
    sides.keySet().forEach(s -> millis.put(s, new double[rounds]));
    List<String> order = new ArrayList<>(sides.keySet());
    // Round 0 is a warm-up, not counted: class loading and JIT on every path.
    for (int round = 0; round <= rounds; round++) {
      for (int i = 0; i < order.size(); i++) {
        String side = order.get((i + round) % order.size());
        List<Item> items = items(matching, "expired");
        if (side.equals("stowage")) {
          b.loadStowage(items);
        } else {
          b.loadRaw(items);
        }
        Map<String, Long> before = b.requests();
        long start = System.nanoTime();
        sides.get(side).call();
        double ms = (System.nanoTime() - start) / 1e6;
        Map<String, Long> requests = new TreeMap<>();
        b.requests()
            .forEach(
                (op, n) -> {
                  long d = n - before.getOrDefault(op, 0L);
                  if (d > 0) {
                    requests.put(op, d);
                  }
                });
        check(backend, side, b);
        System.out.printf(
            Locale.ROOT,
            "%s round %d %-8s %9.1f ms%s%s%n",
            backend,
            round,
            side,
            ms,
            requests.isEmpty() ? "" : "  requests " + requests,
            round == 0 ? " (warm-up)" : "");
        System.out.flush();
        if (round > 0) {
          millis.get(side)[round - 1] = ms;
        }
      }
    }
    String params = "{matching=" + matching + ", others=" + OTHERS + "}";
    StringBuilder out = new StringBuilder();
    out.append(backend)
        .append(": medians of ")
        .append(rounds)
        .append(" rounds, ")
        .append(matching)
        .append(" matching items of ")
        .append(matching + OTHERS)
        .append(" in ")
        .append(TENANTS)
        .append(" partitions\n");
    out.append(Compare.header("(rounds min-max)"));
    out.append(
        Compare.roundsLine(
            backend + " delete-by-index vs hand-written parallel",
            params,
            millis.get("stowage"),
            millis.get("parallel"),
            "ms/op",
            Compare.Kind.TIME_AT_MOST,
            1.25,
            Compare.Kind.TIME_AT_MOST.label));
    out.append(
        Compare.roundsLine(
            backend + " delete-by-index vs naive loop",
            params,
            millis.get("stowage"),
            millis.get("naive"),
            "ms/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            10.0,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
    out.append(
        Compare.roundsLine(
            "  (" + backend + " hand-written parallel vs naive)",
            params,
            millis.get("parallel"),
            millis.get("naive"),
            "ms/op",
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN,
            Compare.Kind.THROUGHPUT_AT_LEAST.label));
    out.append('\n');
    return out.toString();
  }

  private Void stowage(Table table) {
    DeleteJob.Progress p = table.deleteWhere(byStatus("expired"), DeleteJob.Options.DEFAULT).run();
    if (p.deleted() != matching || !p.done()) {
      throw new IllegalStateException("Stowage deleted " + p.deleted() + " of " + matching);
    }
    return null;
  }

  private static Query byStatus(String status) {
    return Query.index(INDEX).partition(AttributeValue.of(status)).build();
  }

  private void check(String backend, String side, Backend b) {
    long matches;
    long others;
    if (side.equals("stowage")) {
      Table table = b.table();
      matches = table.queryAll(byStatus("expired")).count();
      others = table.queryAll(byStatus("active")).count();
      long all = 0;
      Page page = table.scan(Scan.all());
      while (true) {
        for (Item item : page.items()) {
          if (!item.getString("status").equals("active")) {
            throw new IllegalStateException(backend + " stowage left " + item);
          }
          all++;
        }
        if (!page.hasAfter()) {
          break;
        }
        page = table.page(page.after().orElseThrow());
      }
      if (all != OTHERS) {
        throw new IllegalStateException(
            backend + " stowage left " + all + " items, not the " + OTHERS + " others");
      }
    } else {
      long[] counts = b.rawCounts();
      matches = counts[0];
      others = counts[1];
    }
    if (matches != 0 || others != OTHERS) {
      throw new IllegalStateException(
          backend
              + " "
              + side
              + " left "
              + matches
              + " matches and "
              + others
              + " of "
              + OTHERS
              + " others");
    }
  }

  /** {@code n} items of {@code status}, ids never used before in this run. */
  private List<Item> items(int n, String status) {
    List<Item> items = new ArrayList<>(n);
    int base = loads++ * 1_000_000;
    for (int i = 0; i < n; i++) {
      items.add(
          Item.builder()
              .put("tenant", tenant(base + i))
              .put("id", String.format(Locale.ROOT, "%s-%09d", status, base + i))
              .put("status", status)
              .put("createdAt", base + i)
              .put("note", "order shipped to warehouse " + (i % 97) + ", invoice attached")
              .build());
    }
    return items;
  }

  private static String tenant(int n) {
    return String.format(Locale.ROOT, "t%02d", n % TENANTS);
  }

  private void all(List<Callable<Void>> tasks) throws Exception {
    List<Future<Void>> done = new ArrayList<>();
    for (Callable<Void> t : tasks) {
      done.add(pool.submit(t));
    }
    for (Future<Void> f : done) {
      f.get();
    }
  }

  // ---- Azure Tables on Azurite ----

  /** Counts the HTTP requests of the clients it is added to, by method ({@code POST $batch}). */
  private static final class AzureRequests extends HttpPipelineSyncPolicy {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    protected void beforeSendingRequest(HttpPipelineCallContext context) {
      HttpMethod m = context.getHttpRequest().getHttpMethod();
      String path = context.getHttpRequest().getUrl().getPath();
      String kind = m == HttpMethod.POST && path.endsWith("$batch") ? "POST $batch" : m.toString();
      counts.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    Map<String, Long> snapshot() {
      Map<String, Long> out = new TreeMap<>();
      counts.forEach((k, v) -> out.put(k, v.sum()));
      return out;
    }
  }

  private Backend azure() {
    String connection = Emulators.shared().azurite().connectionString();
    AzureRequests stowageRequests = new AzureRequests();
    AzureRequests rawRequests = new AzureRequests();
    // The driver's client as fromConnectionString builds it (no SDK retries), plus the counter.
    StorageDriver driver =
        AzureTablesDriver.of(
            new TableServiceClientBuilder()
                .connectionString(connection)
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .addPolicy(stowageRequests));
    Table table = Stowage.builder(driver).namespace("benchdel").build().ensureTable(SPEC);
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(connection)
            .addPolicy(rawRequests)
            .buildClient();
    service.createTableIfNotExists("benchdelraw");
    TableClient raw = service.getTableClient("benchdelraw");
    return new Backend() {
      @Override
      public void loadStowage(List<Item> items) {
        table.batchPut(items);
      }

      @Override
      public void loadRaw(List<Item> items) throws Exception {
        Map<String, List<TableTransactionAction>> byPartition = new LinkedHashMap<>();
        for (Item item : items) {
          TableEntity e =
              new TableEntity(item.getString("tenant"), item.getString("id"))
                  .addProperty("status", item.getString("status"))
                  .addProperty("createdAt", item.getLong("createdAt"))
                  .addProperty("note", item.getString("note"));
          byPartition
              .computeIfAbsent(e.getPartitionKey(), k -> new ArrayList<>())
              .add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
        }
        all(transactions(byPartition));
      }

      @Override
      public Table table() {
        return table;
      }

      @Override
      public void parallel() throws Exception {
        List<Future<Void>> sent = new ArrayList<>();
        for (PagedResponse<TableEntity> page : listExpired().iterableByPage()) {
          Map<String, List<TableTransactionAction>> byPartition = new LinkedHashMap<>();
          for (TableEntity e : page.getValue()) {
            byPartition
                .computeIfAbsent(e.getPartitionKey(), k -> new ArrayList<>())
                .add(new TableTransactionAction(TableTransactionActionType.DELETE, e));
          }
          for (Callable<Void> t : transactions(byPartition)) {
            sent.add(pool.submit(t));
          }
        }
        for (Future<Void> f : sent) {
          f.get();
        }
      }

      @Override
      public void naive() {
        for (TableEntity e : listExpired()) {
          raw.deleteEntity(e.getPartitionKey(), e.getRowKey());
        }
      }

      private com.azure.core.http.rest.PagedIterable<TableEntity> listExpired() {
        return raw.listEntities(
            new ListEntitiesOptions()
                .setFilter("status eq 'expired'")
                .setSelect(List.of("PartitionKey", "RowKey")),
            null,
            null);
      }

      /** Up to 100 actions of one partition per transaction. */
      private List<Callable<Void>> transactions(
          Map<String, List<TableTransactionAction>> byPartition) {
        List<Callable<Void>> tasks = new ArrayList<>();
        for (List<TableTransactionAction> actions : byPartition.values()) {
          for (int i = 0; i < actions.size(); i += AZURE_TRANSACTION) {
            List<TableTransactionAction> one =
                List.copyOf(actions.subList(i, Math.min(actions.size(), i + AZURE_TRANSACTION)));
            tasks.add(
                () -> {
                  raw.submitTransaction(one);
                  return null;
                });
          }
        }
        return tasks;
      }

      @Override
      public long[] rawCounts() {
        long matches = 0;
        long others = 0;
        for (TableEntity e :
            raw.listEntities(new ListEntitiesOptions().setSelect(List.of("status")), null, null)) {
          if ("active".equals(e.getProperty("status"))) {
            others++;
          } else {
            matches++;
          }
        }
        return new long[] {matches, others};
      }

      @Override
      public Map<String, Long> requests() {
        Map<String, Long> out = new TreeMap<>();
        stowageRequests.snapshot().forEach((k, v) -> out.put("stowage " + k, v));
        rawRequests.snapshot().forEach((k, v) -> out.put("raw " + k, v));
        return out;
      }
    };
  }

  // ---- Datastore on the Firestore emulator in Datastore mode ----

  private Backend datastore() {
    Datastore client = Emulators.shared().datastore().client();
    Table table =
        Stowage.builder(DatastoreDriver.of(client)).namespace("benchdel").build().ensureTable(SPEC);
    KeyFactory keys = client.newKeyFactory().setNamespace("benchdelraw").setKind("jobs");
    return new Backend() {
      @Override
      public void loadStowage(List<Item> items) {
        table.batchPut(items);
      }

      @Override
      public void loadRaw(List<Item> items) throws Exception {
        List<Callable<Void>> puts = new ArrayList<>();
        for (int i = 0; i < items.size(); i += DATASTORE_MUTATIONS) {
          List<Entity> batch = new ArrayList<>();
          for (Item item : items.subList(i, Math.min(items.size(), i + DATASTORE_MUTATIONS))) {
            batch.add(
                Entity.newBuilder(keys.newKey(item.getString("id")))
                    .set("tenant", item.getString("tenant"))
                    .set("status", item.getString("status"))
                    .set("createdAt", item.getLong("createdAt"))
                    .set("note", item.getString("note"))
                    .build());
          }
          puts.add(
              () -> {
                client.put(batch.toArray(new Entity[0]));
                return null;
              });
        }
        all(puts);
      }

      @Override
      public Table table() {
        return table;
      }

      @Override
      public void parallel() throws Exception {
        List<Future<Void>> sent = new ArrayList<>();
        List<Key> batch = new ArrayList<>(DATASTORE_MUTATIONS);
        QueryResults<Key> found = client.run(keysWhere("expired"));
        while (found.hasNext()) {
          batch.add(found.next());
          if (batch.size() == DATASTORE_MUTATIONS || !found.hasNext()) {
            Key[] send = batch.toArray(new Key[0]);
            sent.add(
                pool.submit(
                    () -> {
                      client.delete(send);
                      return null;
                    }));
            batch.clear();
          }
        }
        for (Future<Void> f : sent) {
          f.get();
        }
      }

      @Override
      public void naive() {
        QueryResults<Key> found = client.run(keysWhere("expired"));
        while (found.hasNext()) {
          client.delete(found.next());
        }
      }

      private com.google.cloud.datastore.KeyQuery keysWhere(String status) {
        return com.google.cloud.datastore.Query.newKeyQueryBuilder()
            .setNamespace("benchdelraw")
            .setKind("jobs")
            .setFilter(PropertyFilter.eq("status", status))
            .build();
      }

      @Override
      public long[] rawCounts() {
        long matches = count(keysWhere("expired"));
        long others = count(keysWhere("active"));
        long all =
            count(
                com.google.cloud.datastore.Query.newKeyQueryBuilder()
                    .setNamespace("benchdelraw")
                    .setKind("jobs")
                    .build());
        if (all != matches + others) {
          throw new IllegalStateException(
              "the raw kind holds " + all + " entities, " + (matches + others) + " by status");
        }
        return new long[] {matches, others};
      }

      private long count(com.google.cloud.datastore.KeyQuery q) {
        long n = 0;
        QueryResults<Key> r = client.run(q);
        while (r.hasNext()) {
          r.next();
          n++;
        }
        return n;
      }

      @Override
      public Map<String, Long> requests() {
        return Map.of();
      }
    };
  }
}
