package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.datastore.internal.KeyNames;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Update;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Datastore interop contract: an entity written with the plain {@link Datastore} client holding
 * every native value type (indexed and excluded, embedded entities with and without keys, arrays)
 * reads through Stowage into the documented item, and comes out of Stowage's read-modify-writes
 * with every value, type and index flag it had; values Stowage changes keep their native type where
 * it holds them; items Stowage writes read natively with the same names and natural types.
 */
class NativeInteropTest {
  private static final Datastore DS = Emulators.shared().datastore().client();
  private static final String KIND = "places";
  private static Stowage stowage;
  private static Table table;
  private static String namespace;

  @BeforeAll
  static void setUp() {
    namespace = "ni" + Long.toString(System.nanoTime() % 1_000_000, 36);
    stowage = Stowage.builder(DatastoreDriver.of(DS)).namespace(namespace).build();
    table =
        stowage.ensureTable(
            TableSpec.builder(KIND, KeySchema.of("id", AttributeType.STRING)).build());
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable(KIND);
    stowage.close();
  }

  private static com.google.cloud.datastore.Key nativeKey(String id) {
    return DS.newKeyFactory()
        .setNamespace(namespace)
        .setKind(KIND)
        .newKey(KeyNames.name(Key.of(id)));
  }

  private static com.google.cloud.datastore.Key owner() {
    return DS.newKeyFactory().setNamespace(namespace).setKind("User").newKey("ann");
  }

  private static com.google.cloud.datastore.Key lastOrder() {
    return com.google.cloud.datastore.Key.newBuilder(owner(), "Order", 7L).build();
  }

  private static final Timestamp CREATED = Timestamp.ofTimeSecondsAndNanos(1714566896L, 123456000);

  private static Value<?> excluded(Value<?> v) {
    return v.toBuilder().setExcludeFromIndexes(true).build();
  }

  /** A place as an application using the Datastore client writes it. */
  private static Entity nativePlace(String id) {
    FullEntity<IncompleteKey> address =
        FullEntity.newBuilder()
            .set("street", "1 Main St")
            .set("geo", LatLng.of(52.52, 13.405))
            .set("zip", 10115L)
            .set("~x", "tilde")
            .set("__typename", "Address")
            .build();
    FullEntity<com.google.cloud.datastore.Key> home =
        FullEntity.newBuilder(
                DS.newKeyFactory().setNamespace(namespace).setKind("Address").newKey("home"))
            .set("city", "Berlin")
            .build();
    return Entity.newBuilder(nativeKey(id))
        // The driver reads key attributes from their properties; the key name is their encoding.
        .set("id", id)
        .set("name", "Café 🌍")
        .set("description", excluded(StringValue.of("a long text")))
        .set("visits", 42L)
        .set("rating", 4.5)
        .set("ratio", 0.1)
        .set("whole", 3.0)
        .set("notANumber", Double.NaN)
        .set("infinite", Double.POSITIVE_INFINITY)
        .set("negInfinite", Double.NEGATIVE_INFINITY)
        .set("negZero", -0.0)
        .set("tiny", Double.MIN_VALUE)
        .set("created", CREATED)
        .set("location", LatLng.of(52.52, 13.405))
        .set("owner", owner())
        .set("lastOrder", lastOrder())
        .set("photo", excluded(BlobValue.of(Blob.copyFrom(new byte[] {0, -1, 7}))))
        .set("thumb", Blob.copyFrom(new byte[] {1, 2}))
        .set("open", true)
        .set("closedOn", NullValue.of())
        .set("tags", ListValue.of(StringValue.of("cafe"), StringValue.of("wifi")))
        .set(
            "history",
            ListValue.of(
                LongValue.of(1),
                DoubleValue.of(2.5),
                TimestampValue.of(CREATED),
                NullValue.of(),
                EntityValue.of(FullEntity.newBuilder().set("a", 1L).build())))
        .set("address", EntityValue.of(address))
        .set("home", EntityValue.of(home))
        .set("emptyList", ListValue.newBuilder().build())
        .set("emptyEntity", EntityValue.of(FullEntity.newBuilder().build()))
        .build();
  }

  private static AttributeValue n(String v) {
    return AttributeValue.of(new BigDecimal(v));
  }

  private static AttributeValue s(String v) {
    return AttributeValue.of(v);
  }

  private static AttributeValue point() {
    return AttributeValue.map(Map.of("latitude", n("52.52"), "longitude", n("13.405")));
  }

  /** What {@link #nativePlace} is in Stowage's item model. */
  private static Item expectedPlace(String id) {
    Map<String, AttributeValue> address = new HashMap<>();
    address.put("street", s("1 Main St"));
    address.put("geo", point());
    address.put("zip", n("10115"));
    address.put("~x", s("tilde"));
    address.put("__typename", s("Address"));
    return Item.builder()
        .put("id", id)
        .put("name", "Café 🌍")
        .put("description", "a long text")
        .put("visits", 42)
        .put("rating", n("4.5"))
        .put("ratio", n("0.1"))
        .put("whole", n("3"))
        .put("notANumber", "NaN")
        .put("infinite", "Infinity")
        .put("negInfinite", "-Infinity")
        .put("negZero", "-0")
        .put("tiny", "5E-324")
        .put("created", "2024-05-01T12:34:56.123456Z")
        .put("location", point())
        .put("owner", owner().toUrlSafe())
        .put("lastOrder", lastOrder().toUrlSafe())
        .put("photo", new byte[] {0, -1, 7})
        .put("thumb", new byte[] {1, 2})
        .put("open", true)
        .put("closedOn", AttributeValue.nullValue())
        .put("tags", AttributeValue.list(s("cafe"), s("wifi")))
        .put(
            "history",
            AttributeValue.list(
                n("1"),
                n("2.5"),
                s("2024-05-01T12:34:56.123456Z"),
                AttributeValue.nullValue(),
                AttributeValue.map(Map.of("a", n("1")))))
        .put("address", AttributeValue.map(address))
        .put("home", AttributeValue.map(Map.of("city", s("Berlin"))))
        .put("emptyList", AttributeValue.list(List.of()))
        .put("emptyEntity", AttributeValue.map(Map.of()))
        .build();
  }

  /** The properties of the stored entity, without Stowage's own (token, write id). */
  private static Map<String, Value<?>> nativeProperties(String id) {
    Map<String, Value<?>> out = new LinkedHashMap<>(DS.get(nativeKey(id)).getProperties());
    out.keySet().removeIf(AttributeNames::isReserved);
    return out;
  }

  private static Value<?> prop(com.google.cloud.datastore.BaseEntity<?> e, String name) {
    return e.getValue(name);
  }

  @Test
  void nativeEntitiesReadExactly() {
    DS.put(nativePlace("read"));
    assertThat(table.get(Key.of("read")).orElseThrow()).isEqualTo(expectedPlace("read"));
  }

  @Test
  void nativeEntitiesSurviveAGetAndPutUntouched() {
    DS.put(nativePlace("put"));
    Map<String, Value<?>> before = nativeProperties("put");
    table.put(table.get(Key.of("put")).orElseThrow());
    assertThat(DS.get(nativeKey("put")).contains("stowage:tok")).isTrue();
    assertThat(nativeProperties("put")).isEqualTo(before);
  }

  @Test
  void aPutOfAnItemReadThroughAnotherDriverIsABlindOverwriteInStowagesOwnForm() {
    DS.put(nativePlace("blind"));
    Item read;
    try (Stowage other = Stowage.builder(DatastoreDriver.of(DS)).namespace(namespace).build()) {
      read =
          other
              .table(TableSpec.builder(KIND, KeySchema.of("id", AttributeType.STRING)).build())
              .get(Key.of("blind"))
              .orElseThrow();
    }
    // This driver never read the entity, so it remembers no template: the put is one commit and
    // writes Stowage's own types (a timestamp becomes its string, an integral double a number).
    table.put(read);
    Entity e = DS.get(nativeKey("blind"));
    assertThat(prop(e, "created")).isInstanceOf(StringValue.class);
    assertThat(prop(e, "whole").getType()).isEqualTo(com.google.cloud.datastore.ValueType.LONG);
    assertThat(table.get(Key.of("blind")).orElseThrow()).isEqualTo(read);
    // Written back by the driver that read it: the types it read stay.
    DS.put(nativePlace("blind"));
    table.put(table.get(Key.of("blind")).orElseThrow());
    assertThat(prop(DS.get(nativeKey("blind")), "created"))
        .isEqualTo(prop(nativePlace("blind"), "created"));
  }

  @Test
  void nativeEntitiesSurviveAnUpdateOfOneAttributeUntouched() {
    DS.put(nativePlace("upd"));
    Map<String, Value<?>> before = nativeProperties("upd");
    Item updated = table.update(Key.of("upd"), Update.builder().set("name", "Chez Ann").build());
    assertThat(updated).isEqualTo(expectedPlace("upd").toBuilder().put("name", "Chez Ann").build());
    Map<String, Value<?>> after = nativeProperties("upd");
    // The changed string keeps the property's index flag (indexed, as the application wrote it).
    assertThat(after.remove("name")).isEqualTo(StringValue.of("Chez Ann"));
    before.remove("name");
    assertThat(after).isEqualTo(before);
  }

  @Test
  void nativeEntitiesSurviveABatchPutUntouched() {
    DS.put(nativePlace("batch"));
    Map<String, Value<?>> before = nativeProperties("batch");
    table.batchPut(List.of(table.get(Key.of("batch")).orElseThrow()));
    assertThat(nativeProperties("batch")).isEqualTo(before);
  }

  @Test
  void changedValuesKeepTheirNativeTypesWhereTheTypeHoldsThem() {
    DS.put(nativePlace("chg"));
    table.update(
        Key.of("chg"),
        Update.builder()
            .increment("visits", 1)
            .set("rating", n("4.25"))
            .set("whole", n("4"))
            .set("notANumber", n("1.5"))
            .set("created", "2025-01-02T03:04:05.000006Z")
            .set(
                "location",
                AttributeValue.map(Map.of("latitude", n("-33.9"), "longitude", n("151.2"))))
            .set("owner", lastOrder().toUrlSafe())
            .appendToList("tags", s("terrace"))
            .set(
                "address",
                AttributeValue.map(
                    Map.of("street", s("2 Side St"), "geo", point(), "zip", n("10117"))))
            .set("home", AttributeValue.map(Map.of("city", s("Potsdam"))))
            .build());
    Entity e = DS.get(nativeKey("chg"));
    assertThat(prop(e, "visits")).isEqualTo(LongValue.of(43));
    assertThat(prop(e, "rating")).isEqualTo(DoubleValue.of(4.25));
    assertThat(prop(e, "whole")).isEqualTo(DoubleValue.of(4.0));
    assertThat(prop(e, "notANumber")).isEqualTo(DoubleValue.of(1.5));
    assertThat(prop(e, "created"))
        .isEqualTo(TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(1735787045L, 6000)));
    assertThat(prop(e, "location")).isEqualTo(LatLngValue.of(LatLng.of(-33.9, 151.2)));
    assertThat(prop(e, "owner")).isEqualTo(com.google.cloud.datastore.KeyValue.of(lastOrder()));
    assertThat(e.getList("tags"))
        .containsExactly(StringValue.of("cafe"), StringValue.of("wifi"), StringValue.of("terrace"));
    FullEntity<?> address = e.getEntity("address");
    assertThat(address.getKey()).isNull();
    assertThat(prop(address, "geo")).isEqualTo(LatLngValue.of(LatLng.of(52.52, 13.405)));
    assertThat(prop(address, "zip")).isEqualTo(LongValue.of(10117));
    assertThat(address.getNames()).containsExactlyInAnyOrder("street", "geo", "zip");
    FullEntity<?> home = e.getEntity("home");
    assertThat(home.getKey()).isEqualTo(nativePlace("chg").getEntity("home").getKey());
    assertThat(home.getString("city")).isEqualTo("Potsdam");
    // A text the timestamp type cannot hold becomes a string, indexed as the property was.
    table.update(Key.of("chg"), Update.builder().set("created", "next Tuesday").build());
    assertThat(prop(DS.get(nativeKey("chg")), "created")).isEqualTo(StringValue.of("next Tuesday"));
  }

  @Test
  void stowageItemsReadNativelyWithTheSameNamesAndNaturalTypes() {
    Map<String, AttributeValue> keys = new LinkedHashMap<>();
    for (String k : new String[] {"", "~", "~~", "__x__", "~__x__", "~x", "__typename", "a b"}) {
      keys.put(k, s("[" + k + "]"));
    }
    Item item =
        Item.builder()
            .put("id", "stowage")
            .put("name", "Café")
            .put("visits", 42)
            .put("price", n("19.99"))
            .put("exact", n("12345678901234567890123456789012345678"))
            .put("open", true)
            .put("closedOn", AttributeValue.nullValue())
            .put("photo", new byte[] {1, 2})
            .put("tags", AttributeValue.list(s("a"), n("1"), n("0.5")))
            .put("address", AttributeValue.map(Map.of("street", s("1 Main St"), "zip", n("10115"))))
            .put("keys", AttributeValue.map(keys))
            .build();
    table.put(item);
    assertThat(table.get(Key.of("stowage")).orElseThrow()).isEqualTo(item);
    Entity e = DS.get(nativeKey("stowage"));
    assertThat(e.getString("name")).isEqualTo("Café");
    assertThat(e.getLong("visits")).isEqualTo(42);
    assertThat(e.getDouble("price")).isEqualTo(19.99);
    // A decimal no double holds exactly is Stowage's tagged decimal.
    assertThat(e.getEntity("exact").getKey().getKind()).isEqualTo("stowage.dec");
    assertThat(e.getBoolean("open")).isTrue();
    assertThat(e.isNull("closedOn")).isTrue();
    assertThat(e.getBlob("photo").toByteArray()).containsExactly(1, 2);
    assertThat(e.<Value<?>>getList("tags"))
        .extracting(Value::getType)
        .containsExactly(ValueType.STRING, ValueType.LONG, ValueType.DOUBLE);
    FullEntity<?> address = e.getEntity("address");
    assertThat(address.getKey()).isNull();
    assertThat(address.getString("street")).isEqualTo("1 Main St");
    assertThat(address.getLong("zip")).isEqualTo(10115);
    // Map keys are property names as they are, except the ones Datastore rejects ("" and
    // __x__), which get a "~" (as do those with "~"s before them, to stay reversible).
    assertThat(e.getEntity("keys").getNames())
        .containsExactlyInAnyOrder(
            "~", "~~", "~~~", "~__x__", "~~__x__", "~x", "__typename", "a b");
    assertThat(e.getEntity("keys").getString("~x")).isEqualTo("[~x]");
    assertThat(e.getEntity("keys").getString("~")).isEqualTo("[]");
    assertThat(e.getProperties().values())
        .filteredOn(v -> v.getType() != ValueType.LIST)
        .allMatch(Value::excludeFromIndexes);
  }
}
