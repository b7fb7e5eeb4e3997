package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Tables written by Stowage are ordinary DynamoDB tables, and the reverse. */
class InteropTest extends DriverTestBase {
  private static final DynamoDbClient SDK = Emulators.shared().dynamoDb().client();

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      nativeItem() {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m = new HashMap<>();
    m.put("customer", s("c-1"));
    m.put("orderedAt", n("20240101"));
    m.put("total", n("19.99"));
    m.put("note", s(""));
    m.put(
        "raw",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
            SdkBytes.fromByteArray(new byte[] {9, 8})));
    m.put("paid", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBool(true));
    m.put("coupon", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(true));
    m.put(
        "lines",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
            List.of(
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                    Map.of("sku", s("A"), "qty", n("2"))))));
    m.put(
        "tags",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(
            List.of("gift", "rush")));
    m.put(
        "codes",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNs(List.of("1", "2.5")));
    m.put(
        "blobs",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBs(
            List.of(SdkBytes.fromByteArray(new byte[] {1}))));
    m.put("empty", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(List.of()));
    return m;
  }

  private static String createPlainTable() {
    String name = "Orders_" + System.nanoTime() % 1000000;
    SDK.createTable(
        b ->
            b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("customer")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("orderedAt")
                        .attributeType(ScalarAttributeType.N)
                        .build())
                .keySchema(
                    KeySchemaElement.builder()
                        .attributeName("customer")
                        .keyType(KeyType.HASH)
                        .build(),
                    KeySchemaElement.builder()
                        .attributeName("orderedAt")
                        .keyType(KeyType.RANGE)
                        .build()));
    return name;
  }

  @Test
  void adoptsATableWrittenByPlainSdkCode() {
    String physical = createPlainTable();
    SDK.putItem(b -> b.tableName(physical).item(nativeItem()));
    DynamoDbDriver adopting =
        DynamoDbDriver.builder().client(SDK).adoptTable("orders", physical).build();
    TableLayout l =
        new TableLayout(
            new dev.stowage.spi.TableRef("", "orders"),
            dev.stowage.KeySchema.of(
                "customer", AttributeType.STRING, "orderedAt", AttributeType.NUMBER),
            List.of());
    adopting.ensureTable(l);
    Key key = Key.of(AttributeValue.of("c-1"), AttributeValue.of(20240101));
    StoredItem read = adopting.get(l, key, true).orElseThrow();
    Item i = read.item();
    assertThat(i.getNumber("total")).isEqualByComparingTo(new BigDecimal("19.99"));
    assertThat(i.getString("note")).isEmpty();
    assertThat(i.getBinary("raw").toByteArray()).containsExactly(9, 8);
    assertThat(i.getBoolean("paid")).isTrue();
    assertThat(i.get("coupon")).isEqualTo(AttributeValue.nullValue());
    assertThat(i.getList("lines").get(0))
        .isEqualTo(
            AttributeValue.map(Map.of("sku", AttributeValue.of("A"), "qty", AttributeValue.of(2))));
    assertThat(i.getStringSet("tags")).containsExactly("gift", "rush");
    assertThat(i.getList("empty")).isEmpty();
    assertThat(read.token()).isEqualTo("-");
    assertThat(
            adopting
                .query(
                    l,
                    new DriverQuery(
                        null, AttributeValue.of("c-1"), KeyRange.ALL, false, 10, null, true))
                .items())
        .containsExactly(read);

    // The fixed "no token" token works for compare-and-set exactly once.
    String t2 = adopting.put(l, i, Expectation.token(read.token()), false).token();
    assertThatThrownBy(() -> adopting.put(l, i, Expectation.token("-"), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(adopting.get(l, key, true).orElseThrow().token()).isEqualTo(t2);

    // Another tool rewrites it without the token: the stale Stowage token no longer matches.
    SDK.putItem(b -> b.tableName(physical).item(nativeItem()));
    assertThatThrownBy(() -> adopting.put(l, i, Expectation.token(t2), false))
        .isInstanceOf(ConditionFailedException.class);
  }

  @Test
  void stowageItemsAreOrdinaryDynamoDbItems() {
    TableLayout t = newTable(AttributeType.NUMBER);
    Map<String, AttributeValue> attrs = new HashMap<>(ItemRoundTripTest.everyType());
    attrs.put("sk", AttributeValue.of(7));
    Item item = Fixtures.item("p", attrs);
    driver.put(t, item, Expectation.ANY, false);
    var raw =
        SDK.getItem(
                b ->
                    b.tableName(driver.physicalTableName(t.ref()))
                        .key(Map.of("pk", s("p"), "sk", n("7"))))
            .item();
    assertThat(raw.get("s").s()).isEqualTo("héllo 🌍");
    assertThat(raw.get("exact").n()).isEqualTo("12345678901234567890123456789012345678");
    assertThat(new BigDecimal(raw.get("huge").n())).isEqualByComparingTo("9.99E+125");
    assertThat(raw.get("nul").nul()).isTrue();
    assertThat(raw.get("emptyList").l()).isEmpty();
    assertThat(raw.get("nested").m().get("inner").l()).hasSize(2);
    // DynamoDB rejects empty names, also inside maps: an empty key is stored escaped.
    assertThat(raw.get("nested").m().get("\uE000").s()).isEqualTo("empty key");
    assertThat(raw.get("nested").m().get("\uE000\uE000").s()).isEqualTo("escape character key");
    assertThat(raw.get("nested").m().get("odd name.with #chars").s()).isEmpty();
    assertThat(raw.get("ss").ss()).containsExactlyInAnyOrder("a", "b", "");
    assertThat(raw.get("ns").ns()).hasSize(3);
    assertThat(raw.get("bs").bs()).hasSize(2);
    assertThat(raw.get("b").b().asByteArray()).containsExactly(0, -1, 7);
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> withoutToken =
        new HashMap<>(raw);
    assertThat(withoutToken.remove("stowage:tok").s()).hasSize(22);
    assertThat(withoutToken.keySet()).isEqualTo(item.names());
  }
}
