package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.ThrottledException.Access;
import dev.stowage.ThrottledException.Reason;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.WireFaults;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local never throttles, so a proxy in front of it answers chosen requests with DynamoDB's
 * own throttling errors, bodies and all, for the AWS SDK to parse: the driver reads the {@code
 * ThrottlingReasons} into the exception, the core counts them per reason, retries them per policy
 * and, with adaptive rate limiting on, slows the table down.
 */
class ThrottlingOnTheWireTest {
  private static final String ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/";

  private WireFaults wire;
  private DynamoDbClient client;
  private Stowage store;

  @BeforeEach
  void start() {
    wire = WireFaults.start(Emulators.shared().dynamoDb().endpoint());
    client =
        DynamoDbClient.builder()
            .endpointOverride(wire.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            // The SDK's own retries off: Stowage's policy is the one under test.
            .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
            .build();
  }

  @AfterEach
  void stop() {
    if (store != null) {
      store.close();
    }
    client.close();
    wire.close();
  }

  private Table open(boolean adaptive, int attempts) {
    store =
        Stowage.builder(DynamoDbDriver.create(client))
            .namespace(Emulators.shared().newNamespace())
            .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(5)))
            .adaptiveRateLimiting(adaptive)
            .capacityMetrics(true) // read by the capacity test
            .build();
    return store.ensureTable(
        TableSpec.builder(
                "orders", KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER))
            .index("byStatus", List.of("status"), List.of("n"))
            .build());
  }

  private String physical() {
    return ((DynamoDbDriver) store.driver())
        .physicalTableName(new dev.stowage.spi.TableRef(store.namespace(), "orders"));
  }

  /** DynamoDB's JSON error body (awsJson1_0), as the service sends it. */
  private static WireFaults.Response error(
      String type, String field, String reason, String resource) {
    String body =
        "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
            + type
            + "\",\"message\":\"Throughput exceeds the current capacity for one or more"
            + " partitions.\",\""
            + field
            + "\":[{\"reason\":\""
            + reason
            + "\",\"resource\":\""
            + resource
            + "\"}]}";
    return WireFaults.Response.of(
        400, "application/x-amz-json-1.0", body, Map.of("x-amzn-RequestId", "wire-test"));
  }

  private static boolean target(WireFaults.Request r, String operation) {
    return r.header("X-Amz-Target").equals("DynamoDB_20120810." + operation);
  }

  private static Item order(String user, long n) {
    return Item.builder().put("user", user).put("n", n).put("status", "open").build();
  }

  @Test
  void aHotIndexPartitionIsRetriedCountedAndExplained() {
    Table t = open(false, 4);
    String resource = ARN + physical() + "/index/" + "__ix_byStatus";
    wire.failNext(
        2,
        r -> target(r, "PutItem"),
        error(
            "ProvisionedThroughputExceededException",
            "ThrottlingReasons",
            "IndexWriteKeyRangeThroughputExceeded",
            resource));
    t.put(order("u1", 1));
    assertThat(wire.faulted()).hasSize(2);
    assertThat(t.get(Key.of("u1", 1))).as("the retried put landed").isPresent();

    StowageMetrics metrics = store.metrics();
    StowageMetrics.TableMetrics m = metrics.table(store.namespace(), "orders").orElseThrow();
    assertThat(m.operation("put").requests()).isEqualTo(3);
    assertThat(m.operation("put").throttled()).isEqualTo(2);
    assertThat(m.retries()).isEqualTo(2);
    assertThat(m.throttledByReason()).containsEntry(Reason.HOT_PARTITION, 2L);
    assertThat(metrics.throttledByReason()).containsEntry(Reason.HOT_PARTITION, 2L);
    assertThat(metrics.throttled()).isEqualTo(2);

    // More throttles than attempts: the exception says why, where and what to do.
    wire.failNext(
        4,
        r -> target(r, "PutItem"),
        error(
            "ProvisionedThroughputExceededException",
            "ThrottlingReasons",
            "IndexWriteKeyRangeThroughputExceeded",
            resource));
    assertThatThrownBy(() -> t.put(order("u2", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.HOT_PARTITION);
              assertThat(e.access()).isEqualTo(Access.WRITE);
              assertThat(e.index()).contains("byStatus");
              assertThat(e.resource()).contains(resource);
              assertThat(e.partitionKey()).contains(AttributeValue.of("u2"));
              assertThat(e.getMessage())
                  .contains("IndexWriteKeyRangeThroughputExceeded")
                  .contains("write sharding")
                  .contains("gave up after 4 attempts");
            });
    assertThat(t.get(Key.of("u2", 1))).as("a throttled put wrote nothing").isEmpty();
  }

  @Test
  void provisionedAccountAndOnDemandLimitsAreToldApart() {
    Table t = open(false, 1);
    String table = ARN + physical();
    record Case(
        String type, String field, String reason, Reason expected, Access access, String advice) {}
    List<Case> cases =
        List.of(
            new Case(
                "ProvisionedThroughputExceededException",
                "ThrottlingReasons",
                "TableReadProvisionedThroughputExceeded",
                Reason.PROVISIONED_CAPACITY,
                Access.READ,
                "raise"),
            new Case(
                "RequestLimitExceeded",
                "ThrottlingReasons",
                "TableReadAccountLimitExceeded",
                Reason.ACCOUNT_LIMIT,
                Access.READ,
                "quota"),
            new Case(
                "ThrottlingException",
                "throttlingReasons",
                "TableReadMaxOnDemandThroughputExceeded",
                Reason.ON_DEMAND_MAXIMUM,
                Access.READ,
                "MaxReadRequestUnits"));
    for (Case c : cases) {
      wire.failNext(1, r -> target(r, "GetItem"), error(c.type(), c.field(), c.reason(), table));
      assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
          .as(c.reason())
          .isInstanceOfSatisfying(
              ThrottledException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(c.expected());
                assertThat(e.access()).isEqualTo(c.access());
                assertThat(e.index()).isEmpty();
                assertThat(e.partitionKey()).contains(AttributeValue.of("u1"));
                assertThat(e.getMessage()).contains(c.advice());
              });
    }
    StowageMetrics.TableMetrics m =
        store.metrics().table(store.namespace(), "orders").orElseThrow();
    assertThat(m.throttledByReason())
        .containsEntry(Reason.PROVISIONED_CAPACITY, 1L)
        .containsEntry(Reason.ACCOUNT_LIMIT, 1L)
        .containsEntry(Reason.ON_DEMAND_MAXIMUM, 1L)
        .containsEntry(Reason.HOT_PARTITION, 0L);
    assertThat(m.operation("get").throttled()).isEqualTo(3);
  }

  @Test
  void aThrottledQueryOnAnIndexCountsUnderThatIndex() {
    Table t = open(false, 3);
    t.put(order("u1", 1));
    wire.failNext(
        1,
        r -> target(r, "Query"),
        error(
            "ProvisionedThroughputExceededException",
            "ThrottlingReasons",
            "IndexReadProvisionedThroughputExceeded",
            ARN + physical() + "/index/__ix_byStatus"));
    assertThat(
            t.query(Query.index("byStatus").partition(AttributeValue.of("open")).limit(10).build())
                .items())
        .hasSize(1);
    StowageMetrics.TableMetrics m =
        store.metrics().table(store.namespace(), "orders").orElseThrow();
    assertThat(m.operation("query", "byStatus").orElseThrow().throttled()).isEqualTo(1);
    assertThat(m.operation("query", "byStatus").orElseThrow().itemsRead()).isEqualTo(1);
    assertThat(m.throttledByReason()).containsEntry(Reason.PROVISIONED_CAPACITY, 1L);
  }

  @Test
  void adaptiveRateLimitingSlowsATableDownOnThrottles() {
    Table t = open(true, 8);
    assertThat(store.metrics().table(store.namespace(), "orders").orElseThrow().rateLimit())
        .as("no limit before the first throttle")
        .isInfinite();
    for (int i = 0; i < 20; i++) {
      t.put(order("warm", i));
    }
    wire.failNext(
        3,
        r -> target(r, "PutItem"),
        error(
            "ProvisionedThroughputExceededException",
            "ThrottlingReasons",
            "TableWriteProvisionedThroughputExceeded",
            ARN + physical()));
    t.put(order("u1", 1));
    double rate = store.metrics().table(store.namespace(), "orders").orElseThrow().rateLimit();
    assertThat(rate).as("a finite rate after throttles").isFinite().isPositive();
    assertThat(t.get(Key.of("u1", 1))).isPresent();
  }

  @Test
  void consumedCapacityIsCountedPerTableAndIndex() {
    Table t = open(false, 1);
    for (int i = 0; i < 3; i++) {
      t.put(order("u1", i));
    }
    t.get(Key.of("u1", 0));
    StowageMetrics.TableMetrics m =
        store.metrics().table(store.namespace(), "orders").orElseThrow();
    assertThat(m.totalCapacity().writeUnits()).as("three small puts").isGreaterThanOrEqualTo(3);
    assertThat(m.totalCapacity().readUnits()).isPositive();
    // The table has an index, so the driver asked for the per-index breakdown.
    assertThat(wire.forwarded()).isPositive();
  }
}
