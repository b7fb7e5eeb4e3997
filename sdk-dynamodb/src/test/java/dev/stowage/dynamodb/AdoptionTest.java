package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A table the AWS SDK created and filled, with a name Stowage's logical names cannot spell, is
 * adopted through {@code TableSpec.Builder.adopt}: read as it is, written back exactly, and a
 * mistaken or missing table creates nothing.
 */
class AdoptionTest {
  private static final DynamoDbClient SDK = Emulators.shared().dynamoDb().client();
  private static final String PHYSICAL = "Prod-Orders.v2";
  private static final int CUSTOMERS = 20;
  private static final int ORDERS_EACH = 15;
  private static Stowage stowage;

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  @BeforeAll
  static void nativeTable() {
    if (SDK.listTables().tableNames().contains(PHYSICAL)) {
      SDK.deleteTable(b -> b.tableName(PHYSICAL));
    }
    SDK.createTable(
        b ->
            b.tableName(PHYSICAL)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    d -> d.attributeName("customerId").attributeType(ScalarAttributeType.S),
                    d -> d.attributeName("orderNo").attributeType(ScalarAttributeType.N))
                .keySchema(
                    k -> k.attributeName("customerId").keyType(KeyType.HASH),
                    k -> k.attributeName("orderNo").keyType(KeyType.RANGE)));
    for (int c = 0; c < CUSTOMERS; c++) {
      for (int o = 0; o < ORDERS_EACH; o++) {
        var item = nativeOrder(c, o);
        SDK.putItem(b -> b.tableName(PHYSICAL).item(item));
      }
    }
    stowage = Stowage.builder(DynamoDbDriver.create(SDK)).build();
  }

  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      nativeOrder(int c, int o) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m = new HashMap<>();
    m.put("customerId", s("cust-" + c));
    m.put("orderNo", n(Integer.toString(o * 10 - 50)));
    m.put("total", n("19.990"));
    m.put("status", s(o % 3 == 0 ? "PAID" : "NEW"));
    m.put(
        "raw",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
            SdkBytes.fromByteArray(new byte[] {(byte) c, (byte) o, -1})));
    m.put(
        "lines",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
            List.of(
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                    Map.of("sku", s("A" + o), "qty", n("2"))))));
    m.put(
        "tags",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(List.of("x", "y")));
    m.put("gift", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(true));
    return m;
  }

  private static TableSpec spec() {
    return TableSpec.builder(
            "orders",
            KeySchema.of("customerId", AttributeType.STRING, "orderNo", AttributeType.NUMBER))
        .adopt(PHYSICAL)
        .build();
  }

  @Test
  void everyNativeItemReadsAsItIs() {
    Table orders = stowage.table(spec());
    List<Item> all = new ArrayList<>();
    Page page = orders.scan(dev.stowage.query.Scan.all().withLimit(50));
    all.addAll(page.items());
    while (page.after().isPresent()) {
      page = orders.page(page.after().get());
      all.addAll(page.items());
    }
    assertThat(all).hasSize(CUSTOMERS * ORDERS_EACH);
    Item one = orders.get(Key.of("cust-3", -50), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(one.get("total")).isEqualTo(AttributeValue.of(new BigDecimal("19.990")));
    assertThat(one.get("raw"))
        .isEqualTo(AttributeValue.of(dev.stowage.item.Bytes.wrap(new byte[] {3, 0, -1})));
    assertThat(one.get("gift")).isEqualTo(AttributeValue.nullValue());

    List<Item> desc = orders.queryAll(Query.partition("cust-3").descending().build()).toList();
    assertThat(desc).hasSize(ORDERS_EACH);
    assertThat(desc.get(0).get("orderNo")).isEqualTo(AttributeValue.of(90));
  }

  @Test
  void aStowageWriteChangesOnlyWhatItChanged() {
    Table orders = stowage.table(spec());
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> nativeBefore =
        SDK.getItem(
                b ->
                    b.tableName(PHYSICAL)
                        .consistentRead(true)
                        .key(Map.of("customerId", s("cust-5"), "orderNo", n("0"))))
            .item();
    Item before = orders.get(Key.of("cust-5", 0), ReadOptions.CONSISTENT).orElseThrow();
    orders.put(before.toBuilder().put("status", "SHIPPED").build());
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> after =
        SDK.getItem(
                b ->
                    b.tableName(PHYSICAL)
                        .consistentRead(true)
                        .key(Map.of("customerId", s("cust-5"), "orderNo", n("0"))))
            .item();
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> expected =
        new HashMap<>(nativeBefore);
    expected.put("status", s("SHIPPED"));
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> withoutToken =
        new HashMap<>(after);
    withoutToken.remove("stowage:tok");
    assertThat(withoutToken).isEqualTo(expected);
    assertThat(after).containsKey("stowage:tok");
  }

  @Test
  void aMissingOrMistakenTableCreatesNothing() {
    List<String> tablesBefore = SDK.listTables().tableNames();
    TableSpec typo =
        TableSpec.builder("orders", KeySchema.of("customerId", AttributeType.STRING))
            .adopt("Prod-Ordres.v2")
            .build();
    Throwable missing = catchThrowable(() -> stowage.table(typo));
    assertThat(missing)
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("Prod-Ordres.v2");
    Throwable plainTypo =
        catchThrowable(
            () ->
                stowage.table(
                    TableSpec.builder("ordres", KeySchema.of("id", AttributeType.STRING)).build()));
    assertThat(plainTypo).isInstanceOf(NotFoundException.class).hasMessageContaining("ordres");
    assertThat(SDK.listTables().tableNames()).isEqualTo(tablesBefore);

    TableSpec wrongKeys =
        TableSpec.builder(
                "orders",
                KeySchema.of("customer", AttributeType.STRING, "orderNo", AttributeType.STRING))
            .adopt(PHYSICAL)
            .build();
    Throwable e =
        catchThrowable(() -> Stowage.builder(DynamoDbDriver.create(SDK)).build().table(wrongKeys));
    assertThat(e)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(PHYSICAL)
        .hasMessageContaining("customerId")
        .hasMessageContaining("customer");
    TableSpec withIndex =
        TableSpec.builder(
                "orders",
                KeySchema.of("customerId", AttributeType.STRING, "orderNo", AttributeType.NUMBER))
            .adopt(PHYSICAL)
            .index("byStatus", List.of("status"), List.of())
            .build();
    Throwable noGsi =
        catchThrowable(() -> Stowage.builder(DynamoDbDriver.create(SDK)).build().table(withIndex));
    assertThat(noGsi)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("__ix_byStatus");
    assertThat(SDK.listTables().tableNames()).isEqualTo(tablesBefore);
  }
}
