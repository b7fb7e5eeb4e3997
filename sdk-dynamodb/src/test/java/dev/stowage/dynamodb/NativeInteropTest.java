package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Update;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The DynamoDB interop contract: items written with the plain {@link DynamoDbClient} in the shapes
 * applications use (single-table design: strings, numbers, nested maps, lists, sets, binary, map
 * keys like AppSync's {@code __typename} and keys starting with U+E000) read through Stowage
 * exactly and come out of Stowage writes untouched; items Stowage writes read natively with the
 * same names and DynamoDB's own types.
 */
class NativeInteropTest {
  private static final DynamoDbClient SDK = Emulators.shared().dynamoDb().client();
  private static final KeySchema KEYS =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.STRING);
  private static Stowage stowage;
  private static Table table;
  private static String physical;

  @BeforeAll
  static void setUp() {
    DynamoDbDriver driver = DynamoDbDriver.create(SDK);
    String namespace = "ni" + Long.toString(System.nanoTime() % 1_000_000, 36);
    stowage = Stowage.builder(driver).namespace(namespace).build();
    table = stowage.ensureTable(TableSpec.builder("app", KEYS).build());
    physical = driver.physicalTableName(new TableRef(namespace, "app"));
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("app");
    stowage.close();
  }

  // ---- native values --------------------------------------------------------------------------

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue b(int... bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = (byte) bytes[i];
    }
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
        SdkBytes.fromByteArray(out));
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue m(
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(m);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue l(
      software.amazon.awssdk.services.dynamodb.model.AttributeValue... l) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(List.of(l));
  }

  /** A user profile of a single-table design, as an AppSync/Amplify style application writes it. */
  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      nativeProfile(String user) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
        new HashMap<>();
    item.put("pk", s("USER#" + user));
    item.put("sk", s("PROFILE"));
    item.put("GSI1PK", s("ORG#acme"));
    item.put("type", s("User"));
    item.put("name", s("Zoë 🌍"));
    item.put("nickname", s(""));
    item.put("age", n("42"));
    item.put("balance", n("-1234.5678"));
    item.put("huge", n("9.99E+125"));
    item.put("exact", n("12345678901234567890123456789012345678"));
    item.put("avatar", b(0, 255, 7));
    item.put("emptyBinary", b());
    item.put(
        "active", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBool(true));
    item.put(
        "deletedAt", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(true));
    item.put(
        "roles",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(
            List.of("admin", "user", "")));
    item.put(
        "scores",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNs(
            List.of("1", "2.5", "-3")));
    item.put(
        "keys",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBs(
            List.of(SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[0]))));
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> address =
        new HashMap<>();
    address.put("__typename", s("Address"));
    address.put("street", s("1 Main St"));
    address.put("geo", m(Map.of("lat", n("52.52"), "lng", n("13.405"))));
    item.put("address", m(address));
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> icons =
        new HashMap<>();
    icons.put("\uE000icon", s("private-use glyph first"));
    icons.put("\uE000\uE000double", s("two of them"));
    icons.put("a\uE000", s("private-use glyph last"));
    icons.put("__typename", s("Icons"));
    icons.put("~tilde", s("tilde"));
    item.put("icons", m(icons));
    item.put(
        "orders",
        l(
            m(Map.of("__typename", s("Order"), "id", s("o1"), "total", n("19.99"))),
            m(Map.of("__typename", s("Order"), "id", s("o2"), "lines", l(n("1"), s("x"))))));
    item.put("emptyList", l());
    item.put("emptyMap", m(Map.of()));
    return item;
  }

  /** What {@link #nativeProfile} is in Stowage's item model. */
  private static Item expectedProfile(String user) {
    Map<String, AttributeValue> icons = new HashMap<>();
    icons.put("\uE000icon", AttributeValue.of("private-use glyph first"));
    icons.put("\uE000\uE000double", AttributeValue.of("two of them"));
    icons.put("a\uE000", AttributeValue.of("private-use glyph last"));
    icons.put("__typename", AttributeValue.of("Icons"));
    icons.put("~tilde", AttributeValue.of("tilde"));
    return Item.builder()
        .put("pk", "USER#" + user)
        .put("sk", "PROFILE")
        .put("GSI1PK", "ORG#acme")
        .put("type", "User")
        .put("name", "Zoë 🌍")
        .put("nickname", "")
        .put("age", 42)
        .put("balance", new BigDecimal("-1234.5678"))
        .put("huge", new BigDecimal("9.99E+125"))
        .put("exact", new BigDecimal("12345678901234567890123456789012345678"))
        .put("avatar", new byte[] {0, -1, 7})
        .put("emptyBinary", new byte[0])
        .put("active", true)
        .put("deletedAt", AttributeValue.nullValue())
        .put("roles", AttributeValue.stringSet("admin", "user", ""))
        .put(
            "scores",
            AttributeValue.numberSet(
                List.of(BigDecimal.ONE, new BigDecimal("2.5"), new BigDecimal("-3"))))
        .put("keys", AttributeValue.binarySet(List.of(Bytes.of(new byte[] {1}), Bytes.empty())))
        .put(
            "address",
            AttributeValue.map(
                Map.of(
                    "__typename", AttributeValue.of("Address"),
                    "street", AttributeValue.of("1 Main St"),
                    "geo",
                        AttributeValue.map(
                            Map.of(
                                "lat", AttributeValue.of(new BigDecimal("52.52")),
                                "lng", AttributeValue.of(new BigDecimal("13.405")))))))
        .put("icons", AttributeValue.map(icons))
        .put(
            "orders",
            AttributeValue.list(
                AttributeValue.map(
                    Map.of(
                        "__typename", AttributeValue.of("Order"),
                        "id", AttributeValue.of("o1"),
                        "total", AttributeValue.of(new BigDecimal("19.99")))),
                AttributeValue.map(
                    Map.of(
                        "__typename", AttributeValue.of("Order"),
                        "id", AttributeValue.of("o2"),
                        "lines",
                            AttributeValue.list(AttributeValue.of(1), AttributeValue.of("x"))))))
        .put("emptyList", AttributeValue.list(List.of()))
        .put("emptyMap", AttributeValue.map(Map.of()))
        .build();
  }

  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      readNatively(String user) {
    return SDK.getItem(
            b ->
                b.tableName(physical)
                    .consistentRead(true)
                    .key(Map.of("pk", s("USER#" + user), "sk", s("PROFILE"))))
        .item();
  }

  /**
   * A native item in a comparable form: numbers by value (DynamoDB keeps no number text), sets as
   * sets (nor set order), Stowage's token left out.
   */
  private static Map<String, Object> comparable(
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
    Map<String, Object> out = new LinkedHashMap<>();
    item.forEach(
        (k, v) -> {
          if (!dev.stowage.item.AttributeNames.isReserved(k)) {
            out.put(k, comparable(v));
          }
        });
    return out;
  }

  private static Object comparable(
      software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
    return switch (v.type()) {
      case SS -> new HashSet<>(v.ss());
      case NS ->
          v.ns().stream()
              .map(x -> new BigDecimal(x).stripTrailingZeros())
              .collect(Collectors.toSet());
      case BS -> v.bs().stream().map(SdkBytes::asByteBuffer).collect(Collectors.toSet());
      case L -> v.l().stream().map(NativeInteropTest::comparable).toList();
      case M -> comparable(v.m());
      case N -> new BigDecimal(v.n()).stripTrailingZeros();
      default -> v;
    };
  }

  // ---- the contract ---------------------------------------------------------------------------

  @Test
  void nativeItemsReadExactly() {
    SDK.putItem(b -> b.tableName(physical).item(nativeProfile("read")));
    Item read = table.get(Key.of("USER#read", "PROFILE")).orElseThrow();
    assertThat(read).isEqualTo(expectedProfile("read"));
  }

  @Test
  void nativeItemsSurviveAGetAndPutUntouched() {
    SDK.putItem(b -> b.tableName(physical).item(nativeProfile("put")));
    Map<String, Object> before = comparable(readNatively("put"));
    table.put(table.get(Key.of("USER#put", "PROFILE")).orElseThrow());
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> after =
        readNatively("put");
    assertThat(after).containsKey("stowage:tok");
    assertThat(comparable(after)).isEqualTo(before);
  }

  @Test
  void nativeItemsSurviveAnUpdateOfOneAttributeUntouched() {
    SDK.putItem(b -> b.tableName(physical).item(nativeProfile("upd")));
    Map<String, Object> before = comparable(readNatively("upd"));
    Item updated =
        table.update(Key.of("USER#upd", "PROFILE"), Update.builder().set("name", "Ann").build());
    assertThat(updated).isEqualTo(expectedProfile("upd").toBuilder().put("name", "Ann").build());
    Map<String, Object> after = comparable(readNatively("upd"));
    assertThat(after.remove("name")).isEqualTo(s("Ann"));
    before.remove("name");
    assertThat(after).isEqualTo(before);
  }

  @Test
  void stowageItemsReadNativelyWithTheSameNamesAndNaturalTypes() {
    table.put(expectedProfile("stowage"));
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> raw =
        new HashMap<>(readNatively("stowage"));
    assertThat(raw.remove("stowage:tok").s()).hasSize(22);
    assertThat(comparable(raw)).isEqualTo(comparable(nativeProfile("stowage")));
  }

  @Test
  void mapKeysOfEveryShapeRoundTripThroughStowage() {
    Map<String, AttributeValue> keys = new HashMap<>();
    for (String k :
        new String[] {
          "",
          "\uE000",
          "\uE000\uE000",
          "\uE000\uE000\uE000",
          "\uE000icon",
          "\uE000\uE000x",
          "a\uE000",
          "__typename",
          "~",
          "plain"
        }) {
      keys.put(k, AttributeValue.of("value of [" + k + "]"));
    }
    Item item =
        Item.builder()
            .put("pk", "USER#keys")
            .put("sk", "PROFILE")
            .put("m", AttributeValue.map(keys))
            .put("l", AttributeValue.list(AttributeValue.map(keys)))
            .build();
    table.put(item);
    assertThat(table.get(Key.of("USER#keys", "PROFILE")).orElseThrow()).isEqualTo(item);
    var raw = readNatively("keys").get("m").m();
    // Only a map key made of U+E000 alone (including none: the empty key) gets one more in front.
    assertThat(raw.get("\uE000").s()).isEqualTo("value of []");
    assertThat(raw.get("\uE000\uE000").s()).isEqualTo("value of [\uE000]");
    assertThat(raw.get("\uE000icon").s()).isEqualTo("value of [\uE000icon]");
    assertThat(raw.get("\uE000\uE000x").s()).isEqualTo("value of [\uE000\uE000x]");
    assertThat(raw.keySet()).hasSize(keys.size());
  }
}
