package dev.stowage.bench;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * DynamoDB index cursor pages against the raw client on DynamoDB Local, at 1k, 10k and 50k items,
 * Stowage and the raw client alternating in blocks in one JVM ({@link Alternating}); then, on a
 * small table as in {@link DynamoDbBench}, put and a one-page partition query the same way.
 *
 * <p>The table {@code feed} has an index {@code byFeed} over {@code feed} (one value for every
 * item, so the index partition is the table) sorted by {@code at}, unique per item. Each side walks
 * the index once in pages of 25 and keeps what leads to every page: Stowage its sealed {@code
 * after} cursors, the raw client its {@code LastEvaluatedKey}s. An operation reads the page at a
 * place drawn from the same sequence on both sides: {@code Table.page(cursor)} against a {@code
 * Query} of the same GSI with {@code ExclusiveStartKey} and {@code Limit 25}, each returning the
 * same 25 items. Requests per page are counted on each side and printed.
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.IndexPageScaling --rounds 3
 * </pre>
 *
 * With {@code --clock cpu} the blocks are timed by the benchmark thread's CPU time: what the client
 * side (Stowage and the SDK; DynamoDB Local runs on other threads) spends per operation. {@code
 * --sizes none} skips the index pages.
 *
 * <p>Targets (issue 17): one request per page and at most 1.1× the raw client's time; put and query
 * at most 1.05×.
 */
public final class IndexPageScaling {
  static final int PAGE = 25;

  private IndexPageScaling() {}

  static Item event(int i) {
    return Item.builder()
        .put("id", String.format("e%06d", i))
        .put("feed", "news")
        .put("at", 1_700_000_000L + i)
        .put("title", "Event number " + i + " of the feed")
        .put("by", "user" + (i % 97) + "@example.org")
        .build();
  }

  public static void main(String[] argv) {
    Alternating.Args args = Alternating.Args.parse(argv);
    Alternating alt = args.harness();
    List<String> results = new ArrayList<>();
    List<String> requests = new ArrayList<>();
    try (DynamoLocal local = DynamoLocal.start()) {
      DynamoDbClient raw = local.client();
      Stowage stowage =
          Stowage.builder(DynamoDbDriver.create(raw)).cursorTtl(Duration.ofHours(6)).build();
      Table table =
          stowage.ensureTable(
              TableSpec.builder("feed", KeySchema.of("id", AttributeType.STRING))
                  .index(IndexSpec.of("byFeed", List.of("feed"), List.of("at")))
                  .build());
      String physical = raw.listTables().tableNames().get(0);
      GlobalSecondaryIndexDescription gsi =
          raw.describeTable(r -> r.tableName(physical)).table().globalSecondaryIndexes().get(0);
      String hashAttr =
          gsi.keySchema().stream()
              .filter(k -> k.keyType() == KeyType.HASH)
              .findFirst()
              .orElseThrow()
              .attributeName();
      int loaded = 0;
      for (int n : args.sizes) {
        List<Item> batch = new ArrayList<>();
        for (; loaded < n; loaded++) {
          batch.add(event(loaded));
          if (batch.size() == 100) {
            table.batchPut(batch);
            batch.clear();
          }
        }
        if (!batch.isEmpty()) {
          table.batchPut(batch);
        }
        AttributeValue partition =
            raw.scan(r -> r.tableName(physical).limit(1)).items().get(0).get(hashAttr);
        QueryRequest.Builder rawQuery =
            QueryRequest.builder()
                .tableName(physical)
                .indexName(gsi.indexName())
                .keyConditionExpression("#p = :p")
                .expressionAttributeNames(Map.of("#p", hashAttr))
                .expressionAttributeValues(Map.of(":p", partition))
                .limit(PAGE);
        // What leads to every page, on each side.
        List<String> cursors = new ArrayList<>();
        Page p =
            table.query(
                Query.index("byFeed")
                    .partition(dev.stowage.item.AttributeValue.of("news"))
                    .limit(PAGE)
                    .build());
        while (p.hasAfter()) {
          cursors.add(p.after().orElseThrow());
          p = table.page(p.after().orElseThrow());
        }
        List<Map<String, AttributeValue>> starts = new ArrayList<>();
        QueryResponse r = raw.query(rawQuery.build());
        while (r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()) {
          starts.add(r.lastEvaluatedKey());
          r = raw.query(rawQuery.exclusiveStartKey(r.lastEvaluatedKey()).build());
        }
        // Pages followed by a whole page on both sides (DynamoDB may end on an empty page).
        int span = Math.min(cursors.size(), starts.size());
        while (span > 0 && (span + 1) * PAGE > n) {
          span--;
        }
        if (span < 1) {
          throw new IllegalStateException("too few items for a page at a place: " + n);
        }
        int spanFinal = span;
        sameItems(table, cursors, raw, rawQuery, starts, spanFinal);
        requests.add(
            String.format(
                Locale.ROOT,
                "{items=%d}: stowage %.2f, raw %.2f Query requests per page",
                n,
                perPage(() -> table.page(cursors.get(spanFinal / 2))),
                perPage(
                    () ->
                        raw.query(rawQuery.exclusiveStartKey(starts.get(spanFinal / 2)).build()))));
        results.add(
            alt.compare(
                "dynamodb index cursor page (25) vs raw Query+ESK",
                "{items=" + n + "}",
                i -> check(table.page(cursors.get(MemoryScaling.mix(i) % spanFinal)).size()),
                i ->
                    check(
                        raw.query(
                                rawQuery
                                    .exclusiveStartKey(starts.get(MemoryScaling.mix(i) % spanFinal))
                                    .build())
                            .count()),
                1.1));
      }
      smallItems(raw, stowage, alt, results);
      stowage.close();
    }
    System.out.println();
    requests.forEach(System.out::println);
    System.out.print(args.header());
    results.forEach(System.out::print);
    // DynamoDB Local leaves a non-daemon scheduler thread (its shard rollover job) running after
    // stop(), which would keep this JVM alive once the results are printed.
    System.exit(0);
  }

  /** Put and a one-page partition query of small items, as in {@link DynamoDbBench}. */
  private static void smallItems(
      DynamoDbClient raw, Stowage stowage, Alternating alt, List<String> results) {
    String name = "bench_users";
    Table users =
        stowage.ensureTable(
            TableSpec.builder(
                    name,
                    KeySchema.of(
                        SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
                .build());
    for (int p = 0; p < 20; p++) {
      List<Item> batch = new ArrayList<>();
      for (int s = 0; s < 10; s++) {
        batch.add(SmallItems.stowage(SmallItems.partition("u", p), s));
      }
      users.batchPut(batch);
    }
    // The plain raw request is the anchor. The "raw, same request" side sends what Stowage's
    // driver sends: the item with a fresh 16-byte random token attribute (the store counts no
    // capacity, so no ReturnConsumedCapacity); its lines show how much of the gap is request
    // content, not client code. A query sends the raw client's request as it is. DynamoRequestParts
    // measures each part of the request, and a store counting capacity, on its own.
    SecureRandom random = new SecureRandom();
    results.add(
        alt.measure(
                "dynamodb put",
                "",
                List.of(
                    new Alternating.Side(
                        "stowage",
                        i ->
                            users.put(
                                SmallItems.stowage(SmallItems.partition("sto", i % 20), i % 10))),
                    new Alternating.Side(
                        "raw",
                        i ->
                            raw.putItem(
                                r ->
                                    r.tableName(name)
                                        .item(
                                            SmallItems.raw(
                                                SmallItems.partition("raw", i % 20), i % 10)))),
                    new Alternating.Side(
                        "rawSameRequest",
                        i -> {
                          Map<String, AttributeValue> item =
                              SmallItems.raw(SmallItems.partition("req", i % 20), i % 10);
                          byte[] token = new byte[16];
                          random.nextBytes(token);
                          item.put(
                              "stowage:tok",
                              AttributeValue.fromS(
                                  Base64.getUrlEncoder().withoutPadding().encodeToString(token)));
                          raw.putItem(r -> r.tableName(name).item(item));
                        })))
            .lines(
                List.of(
                    Alternating.Pair.time("dynamodb put vs raw client", "stowage", "raw", 1.05),
                    Alternating.Pair.time(
                        "  (put vs raw, same request: item + token)",
                        "stowage",
                        "rawSameRequest",
                        Double.NaN),
                    Alternating.Pair.time(
                        "  (raw, same request vs raw)", "rawSameRequest", "raw", Double.NaN))));
    results.add(
        alt.measure(
                "dynamodb query (one page of 10)",
                "",
                List.of(
                    new Alternating.Side(
                        "stowage",
                        i -> {
                          if (users
                                  .query(
                                      Query.partition(SmallItems.partition("u", i % 20))
                                          .limit(PAGE)
                                          .build())
                                  .size()
                              != 10) {
                            throw new IllegalStateException("short page");
                          }
                        }),
                    new Alternating.Side("raw", i -> rawQuery(raw, name, i))))
            .lines(
                List.of(
                    Alternating.Pair.time(
                        "dynamodb query (one page of 10) vs raw client", "stowage", "raw", 1.05))));
  }

  /** The raw client's one-page partition query. */
  private static void rawQuery(DynamoDbClient raw, String table, int i) {
    if (raw.query(
                r ->
                    r.tableName(table)
                        .keyConditionExpression("#p = :p")
                        .expressionAttributeNames(Map.of("#p", SmallItems.PK))
                        .expressionAttributeValues(
                            Map.of(":p", AttributeValue.fromS(SmallItems.partition("u", i % 20))))
                        .limit(PAGE))
            .count()
        != 10) {
      throw new IllegalStateException("short page");
    }
  }

  /** Fails unless both sides read the same items on a few pages. */
  private static void sameItems(
      Table table,
      List<String> cursors,
      DynamoDbClient raw,
      QueryRequest.Builder rawQuery,
      List<Map<String, AttributeValue>> starts,
      int span) {
    for (int k : new int[] {0, span / 2, span - 1}) {
      List<String> s =
          table.page(cursors.get(k)).items().stream().map(i -> i.getString("id")).toList();
      List<String> r =
          raw.query(rawQuery.exclusiveStartKey(starts.get(k)).build()).items().stream()
              .map(i -> i.get("id").s())
              .toList();
      if (!s.equals(r) || s.size() != PAGE) {
        throw new IllegalStateException("page " + k + ": stowage read " + s + ", raw " + r);
      }
    }
  }

  private static double perPage(Runnable page) {
    long before = DynamoLocal.COUNTER.snapshot().getOrDefault("Query", 0L);
    for (int i = 0; i < 10; i++) {
      page.run();
    }
    return (DynamoLocal.COUNTER.snapshot().getOrDefault("Query", 0L) - before) / 10.0;
  }

  private static void check(int size) {
    if (size != PAGE) {
      throw new IllegalStateException("a page of " + size + " items, not " + PAGE);
    }
  }
}
