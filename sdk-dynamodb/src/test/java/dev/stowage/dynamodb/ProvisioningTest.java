package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class ProvisioningTest extends DriverTestBase {

  private static TableDescription describe(String physical) {
    return Emulators.shared().dynamoDb().client().describeTable(b -> b.tableName(physical)).table();
  }

  @Test
  void createsTableAndGsisOnDemandIdempotently() {
    TableLayout l =
        newTable(
            AttributeType.NUMBER,
            Fixtures.index("byA", IndexSpec.Projection.ALL),
            Fixtures.index("k", IndexSpec.Projection.KEYS_ONLY));
    driver.ensureTable(l);
    TableDescription d = describe(driver.physicalTableName(l.ref()));
    assertThat(d.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(d.globalSecondaryIndexes())
        .extracting(g -> g.indexName())
        .containsExactlyInAnyOrder("__ix_byA", "__ix_k");
    assertThat(d.globalSecondaryIndexes())
        .allSatisfy(g -> assertThat(g.keySchema()).extracting(k -> k.attributeName()).hasSize(2));
  }

  @Test
  void provisionedThroughputWhenConfigured() {
    DynamoDbDriver provisioned =
        DynamoDbDriver.builder()
            .client(Emulators.shared().dynamoDb().client())
            .provisionedThroughput(3, 4)
            .build();
    TableLayout l =
        Fixtures.layout(
            "", Fixtures.uniqueName("prov"), null, Fixtures.index("byA", IndexSpec.Projection.ALL));
    provisioned.ensureTable(l);
    TableDescription d = describe(l.ref().table());
    assertThat(d.provisionedThroughput().readCapacityUnits()).isEqualTo(3);
    assertThat(d.provisionedThroughput().writeCapacityUnits()).isEqualTo(4);
    provisioned.close();
    assertThat(Emulators.shared().dynamoDb().client().listTables().tableNames()).isNotEmpty();
  }

  @Test
  void disagreementsAreExplained() {
    TableLayout l = newTable(AttributeType.STRING);
    TableLayout wrongSort =
        new TableLayout(
            l.ref(),
            KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER),
            List.of());
    assertThatThrownBy(() -> driver.ensureTable(wrongSort))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("RANGE sk (S)")
        .hasMessageContaining("RANGE sk (N)");
    TableLayout noSort =
        new TableLayout(l.ref(), KeySchema.of("pk", AttributeType.STRING), List.of());
    assertThatThrownBy(() -> driver.ensureTable(noSort)).hasMessageContaining("no RANGE key");
    TableLayout missingIndex =
        new TableLayout(
            l.ref(), l.keySchema(), List.of(Fixtures.index("later", IndexSpec.Projection.ALL)));
    assertThatThrownBy(() -> driver.ensureTable(missingIndex))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("index 'later' has no global secondary index '__ix_later'");
  }

  @Test
  void namespacesMapToPrefixedTablesAndStayIsolated() {
    String name = Fixtures.uniqueName("iso");
    TableLayout root = Fixtures.layout("", name, null);
    TableLayout prod = Fixtures.layout("prod", name, null);
    TableLayout dev = Fixtures.layout("dev1", name, null);
    driver.ensureTable(root);
    driver.ensureTable(prod);
    driver.ensureTable(dev);
    assertThat(driver.physicalTableName(prod.ref())).isEqualTo("prod." + name);
    assertThat(driver.physicalTableName(root.ref())).isEqualTo(name);
    driver.put(prod, Fixtures.item("k", Map.of()), Expectation.ANY, false);
    assertThat(driver.get(prod, Key.of("k"), true)).isPresent();
    assertThat(driver.get(dev, Key.of("k"), true)).isEmpty();
    assertThat(driver.get(root, Key.of("k"), true)).isEmpty();
  }

  @Test
  void dropIsIdempotentAndMissingTablesAreNotFound() {
    TableLayout l = newTable(null);
    driver.dropTable(l.ref());
    driver.dropTable(l.ref());
    assertThatThrownBy(() -> driver.get(l, Key.of("k"), true))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> driver.put(l, Fixtures.item("k", Map.of()), Expectation.ANY, false))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void adoptTableAddressesAnExistingTableByItsOwnName() {
    String physical = "Legacy.Orders-" + System.nanoTime() % 100000;
    DynamoDbDriver adopting =
        DynamoDbDriver.builder()
            .client(Emulators.shared().dynamoDb().client())
            .adoptTable("orders", physical)
            .build();
    TableLayout l = Fixtures.layout("", "orders", null);
    adopting.ensureTable(l);
    assertThat(describe(physical).tableName()).isEqualTo(physical);
    assertThat(adopting.physicalTableName(new TableRef("prod", "orders"))).isEqualTo("prod.orders");
    assertThatThrownBy(() -> DynamoDbDriver.builder().adoptTable("orders", "no"))
        .isInstanceOf(InvalidRequestException.class);
  }
}
