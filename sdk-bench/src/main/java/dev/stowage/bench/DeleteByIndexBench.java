package dev.stowage.bench;

import dev.stowage.DeleteJob;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Issue 17: delete-by-index of {@value #ITEMS} items on DynamoDB Local, three ways, alternating in
 * one JVM so that machine load moves every side alike:
 *
 * <ul>
 *   <li>{@code stowage}: {@link Table#deleteWhere} over a Stowage-maintained index with the default
 *       {@link DeleteJob.Options} (pages of 1,000 unless {@code pageSize} says, {@value
 *       DeleteJob#WRITERS} batches at once, no rate limit), progress reports and resume tokens as
 *       always;
 *   <li>{@code parallel} (the anchor): hand-written code on a plain table with a {@code KEYS_ONLY}
 *       GSI over the same attributes — Query pages of keys, each page's keys deleted with
 *       BatchWriteItem in batches of 25 on {@value #THREADS} threads, unprocessed items re-sent;
 *   <li>{@code naive}: the same table, Query pages and one DeleteItem per key, one thread.
 * </ul>
 *
 * <p>DynamoDB Local executes every request on one SQLite thread, so its cost is per item rather
 * than per request and batching or parallelism buy little there. To show the case where a request
 * costs a network round trip, as on the real service, the rounds are run once per value of {@code
 * roundTripMs} (default {@code 0,2}): with a value above 0, a {@link ModelledRoundTrip} makes every
 * request of every side (one shared client: Stowage's driver wraps the raw client) wait that many
 * milliseconds before it is sent. That is a model of the round trip, not a measurement of DynamoDB:
 * no bandwidth limit, throttling or jitter.
 *
 * <p>Each round loads {@value #ITEMS} matching items into each side's table (besides {@value
 * #OTHERS} non-matching ones loaded once), then times each side's delete, rotating which side goes
 * first; every delete is checked to leave no match and every other item (by the index on Stowage's
 * table, by a scan of the raw one). The output lines have the format of {@link Compare}: medians of
 * the rounds and the lowest and highest round ratio; each round's line also counts the requests the
 * side sent (Query, BatchWriteItem, DeleteItem). {@link DeleteByIndexBackends} runs the same three
 * sides on Azurite and the Datastore emulator.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -cp sdk-bench/target/benchmarks.jar \
 *     dev.stowage.bench.DeleteByIndexBench [rounds=5] [pageSize=1000] [roundTripMs=0,2]
 * </pre>
 */
public final class DeleteByIndexBench {
  static final int ITEMS = 5000;
  static final int OTHERS = 1000;
  static final int THREADS = 4;
  static final double DEFAULT_ROUND_TRIP_MS = 2;
  private static final int BATCH = 25;
  private static final String STOWAGE_TABLE = "bench_jobs";
  private static final String RAW_TABLE = "bench_jobs_raw";
  private static final String INDEX = "byStatus";

  private final DynamoDbClient raw;
  private final Table table;
  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
  private final DeleteJob.Options options;
  private int loads;

  private DeleteByIndexBench(DynamoDbClient raw, int pageSize) {
    this.raw = raw;
    this.table =
        Stowage.builder(DynamoDbDriver.create(raw))
            .build()
            .ensureTable(
                TableSpec.builder(STOWAGE_TABLE, KeySchema.of("id", AttributeType.STRING))
                    .index(INDEX, List.of("status"), List.of("createdAt"))
                    .build());
    this.options = new DeleteJob.Options(0, pageSize, false, null);
    raw.createTable(
        r ->
            r.tableName(RAW_TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    attr("id", ScalarAttributeType.S),
                    attr("status", ScalarAttributeType.S),
                    attr("createdAt", ScalarAttributeType.N))
                .keySchema(key("id", KeyType.HASH))
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName(INDEX)
                        .keySchema(key("status", KeyType.HASH), key("createdAt", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                        .build()));
  }

  private static AttributeDefinition attr(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  /** Runs the rounds and prints the comparison. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int pageSize =
        args.length > 1 ? Integer.parseInt(args[1]) : DeleteJob.Options.DEFAULT.pageSize();
    List<Double> roundTrips = new ArrayList<>();
    for (String ms : (args.length > 2 ? args[2] : "0," + DEFAULT_ROUND_TRIP_MS).split(",")) {
      roundTrips.add(Double.parseDouble(ms));
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be at least 1");
    }
    ModelledRoundTrip roundTrip = new ModelledRoundTrip();
    roundTrips.forEach(roundTrip::millis); // rejects a bad value before anything runs
    try (DynamoLocal local = DynamoLocal.start(roundTrip)) {
      DeleteByIndexBench b = new DeleteByIndexBench(local.client(), pageSize);
      StringBuilder summary = new StringBuilder();
      try {
        b.loadStowage(OTHERS, "active");
        b.loadRaw(OTHERS, "active");
        for (double ms : roundTrips) {
          roundTrip.millis(ms);
          summary.append(b.run(rounds, pageSize, ms));
        }
      } finally {
        b.pool.shutdownNow();
      }
      System.out.println();
      System.out.print(summary);
    }
    System.exit(0); // DynamoDB Local leaves a non-daemon thread behind
  }

  private String run(int rounds, int pageSize, double roundTripMs) throws Exception {
    String model =
        roundTripMs > 0
            ? String.format(
                Locale.ROOT,
                "modelled round trip: every request of every side waits %s ms before it is sent",
                fmt(roundTripMs))
            : "no modelled round trip";
    System.out.println("-- " + model);
    Map<String, Runnable> sides = new LinkedHashMap<>();
    sides.put("stowage", this::stowage);
    sides.put("parallel", this::parallel);
    sides.put("naive", this::naive);
    Map<String, double[]> millis = new HashMap<>();
    sides.keySet().forEach(s -> millis.put(s, new double[rounds]));
    List<String> order = new ArrayList<>(sides.keySet());
    // One warm-up round, not counted: class loading and JIT on every path.
    for (int round = 0; round <= rounds; round++) {
      for (int i = 0; i < order.size(); i++) {
        String side = order.get((i + round) % order.size());
        if (side.equals("stowage")) {
          loadStowage(ITEMS, "expired");
        } else {
          loadRaw(ITEMS, "expired");
        }
        Map<String, Long> before = DynamoLocal.COUNTER.snapshot();
        long start = System.nanoTime();
        sides.get(side).run();
        double ms = (System.nanoTime() - start) / 1e6;
        Map<String, Long> requests = new java.util.TreeMap<>();
        DynamoLocal.COUNTER
            .snapshot()
            .forEach(
                (op, n) -> {
                  long d = n - before.getOrDefault(op, 0L);
                  if (d > 0) {
                    requests.put(op, d);
                  }
                });
        check(side);
        System.out.printf(
            Locale.ROOT,
            "round %d %-8s %9.1f ms  requests %s%s%n",
            round,
            side,
            ms,
            requests,
            round == 0 ? " (warm-up)" : "");
        System.out.flush();
        if (round > 0) {
          millis.get(side)[round - 1] = ms;
        }
      }
    }
    String params =
        "{items=" + ITEMS + ", pageSize=" + pageSize + ", rtt=" + fmt(roundTripMs) + "ms}";
    StringBuilder out = new StringBuilder();
    out.append("medians of ").append(rounds).append(" rounds, ").append(model).append('\n');
    out.append(Compare.header("(rounds min-max)"));
    out.append(
        line(
            "delete-by-index vs hand-written 4-thread parallel",
            params,
            millis.get("stowage"),
            millis.get("parallel"),
            Compare.Kind.TIME_AT_MOST,
            1.25));
    out.append(
        line(
            "delete-by-index vs naive loop",
            params,
            millis.get("stowage"),
            millis.get("naive"),
            Compare.Kind.THROUGHPUT_AT_LEAST,
            10.0));
    out.append(
        line(
            "  (hand-written parallel vs naive loop)",
            params,
            millis.get("parallel"),
            millis.get("naive"),
            Compare.Kind.THROUGHPUT_AT_LEAST,
            Double.NaN));
    out.append('\n');
    return out.toString();
  }

  private static String fmt(double ms) {
    return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
  }

  private static String line(
      String title, String params, double[] s, double[] a, Compare.Kind kind, double target) {
    return Compare.roundsLine(title, params, s, a, "ms/op", kind, target, kind.label);
  }

  // ---- the three sides ----

  private void stowage() {
    DeleteJob.Progress p = table.deleteWhere(expired(), options).run();
    if (p.deleted() != ITEMS || !p.done()) {
      throw new IllegalStateException("Stowage deleted " + p.deleted() + " of " + ITEMS);
    }
  }

  private static Query expired() {
    return Query.index(INDEX).partition(dev.stowage.item.AttributeValue.of("expired")).build();
  }

  private void parallel() {
    try {
      Map<String, AttributeValue> start = null;
      List<Future<?>> pending = new ArrayList<>();
      do {
        QueryResponse page = queryKeys(start);
        List<WriteRequest> deletes = new ArrayList<>(page.count());
        for (Map<String, AttributeValue> k : page.items()) {
          deletes.add(
              WriteRequest.builder()
                  .deleteRequest(DeleteRequest.builder().key(Map.of("id", k.get("id"))).build())
                  .build());
        }
        for (int i = 0; i < deletes.size(); i += BATCH) {
          List<WriteRequest> batch = deletes.subList(i, Math.min(deletes.size(), i + BATCH));
          pending.add(pool.submit(() -> writeFully(batch)));
        }
        start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
      } while (start != null);
      for (Future<?> f : pending) {
        f.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private void naive() {
    Map<String, AttributeValue> start = null;
    do {
      QueryResponse page = queryKeys(start);
      for (Map<String, AttributeValue> k : page.items()) {
        raw.deleteItem(r -> r.tableName(RAW_TABLE).key(Map.of("id", k.get("id"))));
      }
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
    } while (start != null);
  }

  private QueryResponse queryKeys(Map<String, AttributeValue> start) {
    QueryRequest.Builder q =
        QueryRequest.builder()
            .tableName(RAW_TABLE)
            .indexName(INDEX)
            .keyConditionExpression("#s = :s")
            .expressionAttributeNames(Map.of("#s", "status"))
            .expressionAttributeValues(Map.of(":s", AttributeValue.fromS("expired")));
    if (start != null) {
      q.exclusiveStartKey(start);
    }
    return raw.query(q.build());
  }

  private Void writeFully(List<WriteRequest> batch) {
    Map<String, List<WriteRequest>> request = Map.of(RAW_TABLE, List.copyOf(batch));
    for (int attempt = 0; !request.isEmpty(); attempt++) {
      Map<String, List<WriteRequest>> send = request;
      BatchWriteItemResponse r = raw.batchWriteItem(b -> b.requestItems(send));
      request = r.unprocessedItems();
      if (!request.isEmpty() && attempt > 10) {
        throw new IllegalStateException("unprocessed items after " + attempt + " attempts");
      }
    }
    return null;
  }

  // ---- loading and checking (untimed) ----

  private void loadStowage(int n, String status) {
    List<Item> items = new ArrayList<>(n);
    int base = loads++ * 1_000_000;
    for (int i = 0; i < n; i++) {
      items.add(
          Item.builder()
              .put("id", String.format("%s-%09d", status, base + i))
              .put("status", status)
              .put("createdAt", base + i)
              .put("note", "order shipped to warehouse " + (i % 97) + ", invoice attached")
              .build());
    }
    table.batchPut(items);
  }

  private void loadRaw(int n, String status) throws Exception {
    int base = loads++ * 1_000_000;
    List<WriteRequest> puts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      puts.add(
          WriteRequest.builder()
              .putRequest(
                  PutRequest.builder()
                      .item(
                          Map.of(
                              "id",
                                  AttributeValue.fromS(String.format("%s-%09d", status, base + i)),
                              "status", AttributeValue.fromS(status),
                              "createdAt", AttributeValue.fromN(Integer.toString(base + i)),
                              "note",
                                  AttributeValue.fromS(
                                      "order shipped to warehouse "
                                          + (i % 97)
                                          + ", invoice attached")))
                      .build())
              .build());
    }
    List<Future<?>> done = new ArrayList<>();
    for (int i = 0; i < n; i += BATCH) {
      List<WriteRequest> batch = puts.subList(i, Math.min(n, i + BATCH));
      done.add(pool.submit(() -> writeFully(batch)));
    }
    for (Future<?> f : done) {
      f.get();
    }
  }

  private void check(String side) {
    long matches;
    long others;
    if (side.equals("stowage")) {
      matches = table.queryAll(expired()).count();
      others =
          table
              .queryAll(
                  Query.index(INDEX)
                      .partition(dev.stowage.item.AttributeValue.of("active"))
                      .build())
              .count();
    } else {
      matches = 0;
      others = 0;
      for (Map<String, AttributeValue> item :
          raw.scanPaginator(
                  r ->
                      r.tableName(RAW_TABLE)
                          .projectionExpression("#s")
                          .expressionAttributeNames(Map.of("#s", "status")))
              .items()) {
        if (item.get("status").s().equals("active")) {
          others++;
        } else {
          matches++;
        }
      }
    }
    if (matches != 0 || others != OTHERS) {
      throw new IllegalStateException(
          side + " left " + matches + " matches and " + others + " of " + OTHERS + " others");
    }
  }
}
