package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.Update;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import dev.stowage.usage.UsageTracking;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What each data request asks DynamoDB for ({@code ReturnConsumedCapacity}): nothing unless
 * something uses the answer (a store counting capacity, usage tracking, or the driver's own
 * totals), and the units counted when it does. Each test has its own client and driver, so no
 * listener set by another store reaches it.
 */
class CapacityRequestsTest {
  private static final Set<String> DATA =
      Set.of(
          "GetItem",
          "PutItem",
          "DeleteItem",
          "UpdateItem",
          "Query",
          "Scan",
          "BatchGetItem",
          "BatchWriteItem",
          "TransactWriteItems");

  /** "Operation=ReturnConsumedCapacity" of every data request, "-" when not asked. */
  private final List<String> asked = new CopyOnWriteArrayList<>();

  private DynamoDbClient client;

  @BeforeEach
  void client() {
    ExecutionInterceptor recorder =
        new ExecutionInterceptor() {
          @Override
          public void beforeExecution(
              Context.BeforeExecution context, ExecutionAttributes attributes) {
            String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
            if (DATA.contains(op)) {
              asked.add(
                  op
                      + "="
                      + context
                          .request()
                          .getValueForField("ReturnConsumedCapacity", String.class)
                          .orElse("-"));
            }
          }
        };
    client =
        DynamoDbClient.builder()
            .endpointOverride(Emulators.shared().dynamoDb().endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
            .build();
  }

  @AfterEach
  void close() {
    client.close();
  }

  private Stowage store(DynamoDbDriver driver, UnaryOperator<Stowage.Builder> options) {
    return options
        .apply(Stowage.builder(driver).namespace(Emulators.shared().newNamespace()))
        .build();
  }

  private static TableSpec spec(boolean indexed) {
    TableSpec.Builder b =
        TableSpec.builder(
            indexed ? "orders" : "plain",
            KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER));
    return indexed ? b.index("byStatus", List.of("status"), List.of("n")).build() : b.build();
  }

  private static Item order(String user, long n) {
    return Item.builder().put("user", user).put("n", n).put("status", "open").build();
  }

  /** Every kind of data request a store sends, from a fresh list of what was asked. */
  private List<String> everyRequest(Stowage store, Table t, boolean indexed) {
    asked.clear();
    t.put(order("u1", 1));
    t.get(Key.of("u1", 1));
    t.query(Query.partition("u1").limit(10).build());
    if (indexed) {
      t.query(Query.index("byStatus").partition(AttributeValue.of("open")).limit(10).build());
    }
    t.update(Key.of("u1", 1), Update.builder().set("status", "done").build());
    t.batchPut(List.of(order("u2", 1), order("u2", 2)));
    t.batchGet(List.of(Key.of("u2", 1), Key.of("u2", 2)));
    store.transaction().put(t, order("u3", 1), null).commit();
    t.delete(Key.of("u2", 2));
    t.scan(dev.stowage.query.Scan.all().withLimit(10));
    return new ArrayList<>(asked);
  }

  @Test
  void aDefaultStoreAsksForNoCapacityAndCountsNone() {
    DynamoDbDriver driver = DynamoDbDriver.create(client);
    try (Stowage store = store(driver, b -> b)) {
      Table t = store.ensureTable(spec(true));
      List<String> sent = everyRequest(store, t, true);
      assertThat(sent).hasSizeGreaterThanOrEqualTo(10).allMatch(s -> s.endsWith("=-"));
      StowageMetrics.TableMetrics m =
          store.metrics().table(store.namespace(), "orders").orElseThrow();
      assertThat(m.requests()).as("requests are still counted").isPositive();
      assertThat(m.capacity()).isEmpty();
      assertThat(m.totalCapacity()).isEqualTo(new StowageMetrics.CapacityMetrics("", 0, 0, 0));
      assertThatThrownBy(() -> driver.consumedCapacity(new TableRef(store.namespace(), "orders")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("countConsumedCapacity(true)");
      assertThatThrownBy(driver::consumedCapacity).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void capacityMetricsAskForTheIndexBreakdownWhereThereAreIndexesAndCountIt() {
    DynamoDbDriver driver = DynamoDbDriver.create(client);
    try (Stowage store = store(driver, b -> b.capacityMetrics(true))) {
      Table indexed = store.ensureTable(spec(true));
      assertThat(everyRequest(store, indexed, true))
          .hasSizeGreaterThanOrEqualTo(10)
          .allMatch(s -> s.endsWith("=INDEXES"));
      Table plain = store.ensureTable(spec(false));
      assertThat(everyRequest(store, plain, false))
          .hasSizeGreaterThanOrEqualTo(9)
          .allMatch(s -> s.endsWith("=TOTAL"));
      StowageMetrics.TableMetrics m =
          store.metrics().table(store.namespace(), "orders").orElseThrow();
      assertThat(m.totalCapacity().writeUnits()).isPositive();
      assertThat(m.totalCapacity().readUnits()).isPositive();
      assertThat(m.totalCapacity().deleteUnits()).isPositive();
      assertThat(m.capacity().stream().map(StowageMetrics.CapacityMetrics::index))
          .contains("", "byStatus");
    }
  }

  @Test
  void usageTrackingAsksAndCountsCapacityInTheTableMetricsToo() {
    try (Stowage store =
        store(DynamoDbDriver.create(client), b -> b.usageTracking(UsageTracking.defaults()))) {
      Table t = store.ensureTable(spec(false));
      assertThat(everyRequest(store, t, false)).allMatch(s -> s.endsWith("=TOTAL"));
      StowageMetrics.CapacityMetrics whole =
          store.metrics().table(store.namespace(), "plain").orElseThrow().totalCapacity();
      assertThat(whole.writeUnits()).isPositive();
      assertThat(store.usage().table(store.namespace(), "plain").orElseThrow().reportedWriteUnits())
          .isEqualTo(whole.writeUnits());
    }
  }

  @Test
  void aDriverCountingItsOwnTotalsAsksForTheTotalOnEveryRequest() {
    DynamoDbDriver driver =
        DynamoDbDriver.builder().client(client).countConsumedCapacity(true).build();
    try (Stowage store = store(driver, b -> b)) {
      Table t = store.ensureTable(spec(true));
      TableRef ref = new TableRef(store.namespace(), "orders");
      assertThat(driver.consumedCapacity(ref)).isEqualTo(CapacityUsage.NONE);
      // No listener: the total only, never the per-index breakdown.
      assertThat(everyRequest(store, t, true)).allMatch(s -> s.endsWith("=TOTAL"));
      CapacityUsage used = driver.consumedCapacity(ref);
      assertThat(used.writeUnits()).isPositive();
      assertThat(used.readUnits()).isPositive();
      assertThat(driver.consumedCapacity()).containsKey(driver.physicalTableName(ref));
      // The store's metrics count none: it did not ask for capacity metrics.
      assertThat(store.metrics().table(store.namespace(), "orders").orElseThrow().capacity())
          .isEmpty();
    }
  }
}
