package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What per-table metrics cost on a DynamoDB put, measured in alternating blocks in one JVM ({@link
 * Alternating}) on DynamoDB Local in process: a put of a small item (six attributes) through a
 * store with table metrics and capacity metrics on (per-operation counters, and DynamoDB's consumed
 * capacity per table: {@code ReturnConsumedCapacity=TOTAL}) and through one built with {@code
 * tableMetrics(false)} (which asks DynamoDB for nothing), each on its own keys of its own table,
 * with the raw client's {@code PutItem} as the anchor. Then the same on tables with one index,
 * where capacity metrics ask for the per-index breakdown ({@code INDEXES}). Target: metrics on at
 * most 1.05 times metrics off.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -cp sdk-bench/target/benchmarks.jar \
 *     dev.stowage.bench.MetricsOverhead [rounds=5]
 * </pre>
 */
public final class MetricsOverhead {
  private static final int KEYS = 200;

  private MetricsOverhead() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    System.out.print(Alternating.header(rounds));
    try (DynamoLocal local = DynamoLocal.start()) {
      DynamoDbClient raw = local.client();
      Table on = table(raw, true, "mon", false);
      Table off = table(raw, false, "moff", false);
      Table onIndexed = table(raw, true, "mion", true);
      Table offIndexed = table(raw, false, "mioff", true);
      String rawTable = "bench_raw_metrics";
      raw.createTable(
          b ->
              b.tableName(rawTable)
                  .keySchema(
                      k -> k.attributeName(SmallItems.PK).keyType("HASH"),
                      k -> k.attributeName(SmallItems.SK).keyType("RANGE"))
                  .attributeDefinitions(
                      a -> a.attributeName(SmallItems.PK).attributeType("S"),
                      a -> a.attributeName(SmallItems.SK).attributeType("N"))
                  .billingMode("PAY_PER_REQUEST"));
      List<Alternating.Side> sides =
          List.of(
              new Alternating.Side("metricsOn", i -> on.put(item("on", i))),
              new Alternating.Side("metricsOff", i -> off.put(item("off", i))),
              new Alternating.Side("metricsOnIndexed", i -> onIndexed.put(item("ion", i))),
              new Alternating.Side("metricsOffIndexed", i -> offIndexed.put(item("ioff", i))),
              new Alternating.Side(
                  "raw",
                  i ->
                      raw.putItem(b -> b.tableName(rawTable).item(SmallItems.raw("r", i % KEYS)))));
      String out =
          new Alternating(rounds, new Alternating.Counted(8, 50, 2 * KEYS))
              .measure("dynamodb put", "", sides)
              .lines(
                  List.of(
                      Alternating.Pair.time(
                          "dynamodb put, table metrics on vs off", "metricsOn", "metricsOff", 1.05),
                      Alternating.Pair.time(
                          "dynamodb put on an indexed table, metrics on (INDEXES) vs off (none)",
                          "metricsOnIndexed",
                          "metricsOffIndexed",
                          1.05),
                      Alternating.Pair.time(
                          "dynamodb put, metrics on vs raw client",
                          "metricsOn",
                          "raw",
                          Double.NaN)));
      System.out.print(out);
    }
    System.exit(0);
  }

  private static dev.stowage.item.Item item(String prefix, int i) {
    return SmallItems.stowage(prefix, i % KEYS);
  }

  private static Table table(DynamoDbClient raw, boolean metrics, String name, boolean indexed) {
    Stowage store =
        Stowage.builder(DynamoDbDriver.create(raw))
            .tableMetrics(metrics)
            .capacityMetrics(metrics)
            .build();
    TableSpec.Builder spec =
        TableSpec.builder(
            name,
            KeySchema.of(SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER));
    if (indexed) {
      spec.index("byCity", List.of("city"), List.of("sk"));
    }
    return store.ensureTable(spec.build());
  }
}
