package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * What each part of Stowage's DynamoDB request costs on DynamoDB Local: the raw client's PutItem of
 * the small item of {@link SmallItems} plain, with the {@code stowage:tok} token attribute alone,
 * with {@code ReturnConsumedCapacity=TOTAL} alone, and with both (what Stowage's driver sends); and
 * its one-page partition Query with and without {@code ReturnConsumedCapacity}; beside them
 * Stowage's put and query as a default store sends them (the item and its token) and as a store
 * counting capacity sends them ({@code Stowage.Builder.capacityMetrics(true)}, on a driver of its
 * own). All sides alternate in blocks in one JVM ({@link Alternating}), on one table, each put side
 * on its own partitions.
 *
 * <pre>
 * java -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.DynamoRequestParts --rounds 5
 * </pre>
 *
 * {@code --clock cpu} times the client thread's CPU time instead (DynamoDB Local runs on other
 * threads of the same JVM), which separates the client's cost of a part from the emulator's; {@code
 * --clock process} the whole process's CPU time (client and emulator together), which load from
 * other processes moves far less than elapsed time.
 */
public final class DynamoRequestParts {
  private static final String TABLE = "bench_parts";
  private static final int PAGE = 25;

  private DynamoRequestParts() {}

  public static void main(String[] argv) {
    Alternating.Args args = Alternating.Args.parse(argv);
    Alternating alt = args.harness();
    List<String> results = new ArrayList<>();
    try (DynamoLocal local = DynamoLocal.start()) {
      DynamoDbClient raw = local.client();
      try (Stowage stowage = Stowage.builder(DynamoDbDriver.create(raw)).build();
          Stowage counting =
              Stowage.builder(DynamoDbDriver.create(raw)).capacityMetrics(true).build()) {
        Table users =
            stowage.ensureTable(
                TableSpec.builder(
                        TABLE,
                        KeySchema.of(
                            SmallItems.PK,
                            AttributeType.STRING,
                            SmallItems.SK,
                            AttributeType.NUMBER))
                    .build());
        Table countedUsers = counting.ensureTable(users.spec());
        List<Item> batch = new ArrayList<>();
        for (int p = 0; p < 20; p++) {
          for (int s = 0; s < 10; s++) {
            batch.add(SmallItems.stowage(SmallItems.partition("u", p), s));
          }
          users.batchPut(batch);
          batch.clear();
        }
        SecureRandom random = new SecureRandom();
        results.add(
            alt.measure(
                    "dynamodb put parts",
                    "",
                    List.of(
                        new Alternating.Side("raw", i -> put(raw, "raw", i, null, null)),
                        new Alternating.Side("token", i -> put(raw, "tok", i, token(random), null)),
                        new Alternating.Side(
                            "capacity",
                            i -> put(raw, "cap", i, null, ReturnConsumedCapacity.TOTAL)),
                        new Alternating.Side(
                            "both",
                            i -> put(raw, "both", i, token(random), ReturnConsumedCapacity.TOTAL)),
                        new Alternating.Side(
                            "stowage",
                            i ->
                                users.put(
                                    SmallItems.stowage(
                                        SmallItems.partition("sto", i % 20), i % 10))),
                        new Alternating.Side(
                            "stowageCapacity",
                            i ->
                                countedUsers.put(
                                    SmallItems.stowage(
                                        SmallItems.partition("stc", i % 20), i % 10)))))
                .lines(
                    List.of(
                        Alternating.Pair.time(
                            "raw put + token attribute vs raw put", "token", "raw", Double.NaN),
                        Alternating.Pair.time(
                            "raw put + ReturnConsumedCapacity=TOTAL vs raw put",
                            "capacity",
                            "raw",
                            Double.NaN),
                        Alternating.Pair.time(
                            "raw put + token + capacity vs raw put", "both", "raw", Double.NaN),
                        Alternating.Pair.time(
                            "stowage put vs raw put + token (the same request)",
                            "stowage",
                            "token",
                            Double.NaN),
                        Alternating.Pair.time(
                            "stowage put vs raw put", "stowage", "raw", Double.NaN),
                        Alternating.Pair.time(
                            "stowage put, capacity metrics, vs raw put + token + capacity",
                            "stowageCapacity",
                            "both",
                            Double.NaN),
                        Alternating.Pair.time(
                            "stowage put, capacity metrics, vs stowage put",
                            "stowageCapacity",
                            "stowage",
                            Double.NaN))));
        results.add(
            alt.measure(
                    "dynamodb query parts",
                    "",
                    List.of(
                        new Alternating.Side("raw", i -> query(raw, i, null)),
                        new Alternating.Side(
                            "capacity", i -> query(raw, i, ReturnConsumedCapacity.TOTAL)),
                        new Alternating.Side("stowage", i -> query(users, i)),
                        new Alternating.Side("stowageCapacity", i -> query(countedUsers, i))))
                .lines(
                    List.of(
                        Alternating.Pair.time(
                            "raw query + ReturnConsumedCapacity=TOTAL vs raw query",
                            "capacity",
                            "raw",
                            Double.NaN),
                        Alternating.Pair.time(
                            "stowage query vs raw query (the same request)",
                            "stowage",
                            "raw",
                            Double.NaN),
                        Alternating.Pair.time(
                            "stowage query, capacity metrics, vs raw query + capacity",
                            "stowageCapacity",
                            "capacity",
                            Double.NaN))));
      }
    }
    System.out.println();
    System.out.print(args.header());
    results.forEach(System.out::print);
    // DynamoDB Local leaves a non-daemon thread running after stop().
    System.exit(0);
  }

  private static String token(SecureRandom random) {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static void put(
      DynamoDbClient raw, String prefix, int i, String token, ReturnConsumedCapacity rcc) {
    Map<String, AttributeValue> item = SmallItems.raw(SmallItems.partition(prefix, i % 20), i % 10);
    if (token != null) {
      item.put("stowage:tok", AttributeValue.fromS(token));
    }
    raw.putItem(r -> r.tableName(TABLE).item(item).returnConsumedCapacity(rcc));
  }

  private static void query(Table users, int i) {
    if (users
            .query(
                dev.stowage.query.Query.partition(SmallItems.partition("u", i % 20))
                    .limit(PAGE)
                    .build())
            .size()
        != 10) {
      throw new IllegalStateException("short page");
    }
  }

  private static void query(DynamoDbClient raw, int i, ReturnConsumedCapacity rcc) {
    if (raw.query(
                r ->
                    r.tableName(TABLE)
                        .keyConditionExpression("#p = :p")
                        .expressionAttributeNames(Map.of("#p", SmallItems.PK))
                        .expressionAttributeValues(
                            Map.of(":p", AttributeValue.fromS(SmallItems.partition("u", i % 20))))
                        .limit(PAGE)
                        .returnConsumedCapacity(rcc))
            .count()
        != 10) {
      throw new IllegalStateException("short page");
    }
  }
}
