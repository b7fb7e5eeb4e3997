package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Another tool updates an indexed attribute with a plain DynamoDB {@code UpdateItem}: the GSI keeps
 * the item under Stowage's old synthesized values, index queries leave it out, and {@link
 * Table#verifyIndexes} finds and repairs it (and an item another tool put without Stowage's index
 * values).
 */
class ForeignUpdateTest {
  private static final DynamoDbClient SDK = Emulators.shared().dynamoDb().client();
  private static Stowage stowage;
  private static Table orders;
  private static String physical;

  @BeforeAll
  static void setUp() {
    DynamoDbDriver driver = DynamoDbDriver.create(SDK);
    String namespace = "fu" + Long.toString(System.nanoTime() % 1_000_000, 36);
    stowage = Stowage.builder(driver).namespace(namespace).build();
    orders =
        stowage.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
                .index("byStatus", List.of("status"), List.of("at"))
                .build());
    physical = driver.physicalTableName(new TableRef(namespace, "orders"));
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("orders");
    stowage.close();
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  private static List<String> ids(String status) {
    return orders
        .queryAll(Query.index("byStatus").partition(AttributeValue.of(status)).limit(2).build())
        .map(i -> i.getString("id"))
        .toList();
  }

  @Test
  void aNativeUpdateOfAnIndexedAttributeIsLeftOutUntilVerifyIndexesRepairsIt() {
    for (int i = 0; i < 6; i++) {
      orders.put(Item.builder().put("id", "o" + i).put("status", "PAID").put("at", i).build());
    }
    SDK.updateItem(
        b ->
            b.tableName(physical)
                .key(Map.of("id", s("o3")))
                .updateExpression("SET #s = :v")
                .expressionAttributeNames(Map.of("#s", "status"))
                .expressionAttributeValues(Map.of(":v", s("SHIPPED"))));
    // An item another tool put, without Stowage's index values.
    SDK.putItem(
        b ->
            b.tableName(physical)
                .item(Map.of("id", s("n1"), "status", s("SHIPPED"), "at", n("10"))));
    // And one whose indexed attribute became a map, which no index can hold.
    SDK.updateItem(
        b ->
            b.tableName(physical)
                .key(Map.of("id", s("o4")))
                .updateExpression("SET #s = :v")
                .expressionAttributeNames(Map.of("#s", "status"))
                .expressionAttributeValues(
                    Map.of(
                        ":v",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                            Map.of("code", s("PAID"))))));

    long staleBefore = stowage.metrics().staleIndexHits();
    assertThat(ids("PAID")).containsExactly("o0", "o1", "o2", "o5");
    assertThat(stowage.metrics().staleIndexHits() - staleBefore).isGreaterThanOrEqualTo(2);
    assertThat(ids("SHIPPED")).isEmpty();

    MaintenanceJob.Progress dry =
        orders.verifyIndexes(new MaintenanceJob.Options(0, 3, true, null)).run();
    assertThat(dry.scanned()).isEqualTo(7);
    assertThat(dry.stale()).isEqualTo(2);
    assertThat(dry.missing()).isEqualTo(1);
    assertThat(dry.rewritten()).isEqualTo(3);
    assertThat(ids("SHIPPED")).isEmpty();

    MaintenanceJob.Progress fixed =
        orders.verifyIndexes(new MaintenanceJob.Options(0, 3, false, null)).run();
    assertThat(fixed.rewritten()).isEqualTo(3);
    assertThat(fixed.skipped()).isZero();
    assertThat(ids("SHIPPED")).containsExactly("o3", "n1");
    assertThat(ids("PAID")).containsExactly("o0", "o1", "o2", "o5");
    assertThat(orders.get(Key.of("o4"), ReadOptions.CONSISTENT).orElseThrow().get("status"))
        .isEqualTo(AttributeValue.map(Map.of("code", AttributeValue.of("PAID"))));
    var raw =
        SDK.getItem(b -> b.tableName(physical).key(Map.of("id", s("o4"))).consistentRead(true));
    assertThat(raw.item().keySet())
        .as("the stale values of o4 are gone")
        .noneMatch(k -> k.startsWith("stowage:ix:"));
    MaintenanceJob.Progress again = orders.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(again.rewritten() + again.stale() + again.missing()).isZero();
  }
}
