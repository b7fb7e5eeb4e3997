package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.Stowage;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.typed.Shop.Order;
import dev.stowage.typed.Shop.Status;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A typed put keeps what the class does not map; replace is the explicit whole-item overwrite. */
class KeepUnmappedAttributesTest {
  static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

  /** Values of every form, none of which the classes below map. */
  static Map<String, AttributeValue> extras() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("audit", AttributeValue.of("written by the billing service"));
    m.put("count", AttributeValue.of(new BigDecimal("12345678901234567890.000120")));
    m.put("blob", AttributeValue.of(new byte[] {0, 1, (byte) 0xfe}));
    m.put("flag", AttributeValue.of(false));
    m.put("nothing", AttributeValue.nullValue());
    m.put("names", AttributeValue.stringSet("x", "y"));
    m.put("scores", AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("2.5"))));
    m.put(
        "nested",
        AttributeValue.map(
            Map.of(
                "list",
                AttributeValue.list(AttributeValue.of(1), AttributeValue.nullValue()),
                "deep",
                AttributeValue.map(Map.of("b", AttributeValue.of(new byte[] {9}))))));
    return m;
  }

  private final Stowage store = TypedTableTest.store();
  private final TypedTable<Order> orders = store.ensureTable(Order.class);

  private Update addExtras() {
    Update.Builder u = Update.builder();
    extras().forEach(u::set);
    return u.build();
  }

  @Test
  void aTypedGetModifyPutKeepsAttributesWrittenThroughTheUntypedApi() {
    Order v1 = orders.put(Order.of("t1", T0, Status.OPEN));
    Key key = orders.keyOf(v1);
    orders.table().update(key, addExtras()); // version 2, as any update of a versioned table
    Order read = orders.get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read.version()).isEqualTo(2);
    Order v3 =
        orders.put(
            new Order(
                read.tenant(),
                read.placedAt(),
                Status.SHIPPED,
                read.due(),
                read.notes(),
                read.card(),
                read.version(),
                read.lines(),
                read.tags(),
                Optional.of("SAVE10")));
    assertThat(v3.version()).isEqualTo(3);
    Item raw = orders.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    extras().forEach((n, v) -> assertThat(raw.get(n)).as(n).isEqualTo(v));
    assertThat(raw.getString("status")).isEqualTo("SHIPPED");
    assertThat(raw.getString("coupon")).isEqualTo("SAVE10");
    assertThat(orders.get(key, ReadOptions.CONSISTENT)).contains(v3);

    // A stale instance still fails its version check, and changes nothing.
    assertThatThrownBy(() -> orders.put(read.withStatus(Status.CANCELLED)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> orders.put(Order.of("t1", T0, Status.CANCELLED)))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(orders.table().get(key, ReadOptions.CONSISTENT)).contains(raw);

    // A field set to empty is removed; the extras stay.
    Order v4 =
        orders.put(
            new Order(
                v3.tenant(),
                v3.placedAt(),
                v3.status(),
                v3.due(),
                null,
                v3.card(),
                v3.version(),
                v3.lines(),
                v3.tags(),
                Optional.empty()));
    Item after = orders.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(after.find("coupon")).isEmpty();
    assertThat(after.find("notes")).isEmpty();
    extras().forEach((n, v) -> assertThat(after.get(n)).as(n).isEqualTo(v));
    assertThat(v4.version()).isEqualTo(4);

    // Index values follow the typed put.
    assertThat(orders.queryAll(q -> q.index("byStatus").partition(Status.SHIPPED)).toList())
        .containsExactly(v4);
  }

  @Test
  void replaceOverwritesTheWholeItem() {
    Order v1 = orders.put(Order.of("t1", T0, Status.OPEN));
    Key key = orders.keyOf(v1);
    orders.table().update(key, addExtras());
    Order read = orders.get(key, ReadOptions.CONSISTENT).orElseThrow();
    Order v3 = orders.replace(read.withStatus(Status.SHIPPED));
    assertThat(v3.version()).isEqualTo(3);
    Item raw = orders.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(raw.find("audit")).isEmpty();
    assertThat(raw.find("nested")).isEmpty();
    assertThatThrownBy(() -> orders.replace(read)).isInstanceOf(ConditionFailedException.class);
  }

  @Test
  void aPutOfANewInstanceCreatesTheItemAndANullVersionMeansNoneStored() {
    Order v1 = orders.put(Order.of("t2", T0, Status.OPEN));
    assertThat(v1.version()).isEqualTo(1);
    assertThat(orders.get(orders.keyOf(v1), ReadOptions.CONSISTENT)).contains(v1);
    TypedTable<Boxed> boxed = store.ensureTable(Boxed.class);
    Boxed b = boxed.put(new Boxed("b", "one", null));
    assertThat(b.version()).isEqualTo(1L);
    assertThatThrownBy(() -> boxed.put(new Boxed("b", "two", null)))
        .isInstanceOf(ConditionFailedException.class);
  }

  @StowageTable("boxed")
  record Boxed(@PartitionKey String id, String text, @Version Long version) {}

  /** No version, no codecs, no index: the put is a native update on backends that have them. */
  @StowageTable("notes")
  record Note(
      @PartitionKey String id,
      @Attribute(value = "body", aliases = "text") String body,
      Integer stars) {}

  @Test
  void aRenamedAttributeLeavesNoCopyUnderItsOldName() {
    TypedTable<Note> notes = store.ensureTable(Note.class);
    Item.Builder old = Item.builder().put("id", "n1").put("text", "old body").put("stars", 4);
    extras().forEach(old::put);
    notes.table().put(old.build());
    Note read = notes.get(notes.key("n1"), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read).isEqualTo(new Note("n1", "old body", 4));
    notes.put(new Note("n1", read.body() + ", edited", null));
    Item raw = notes.table().get(notes.key("n1"), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(raw.getString("body")).isEqualTo("old body, edited");
    assertThat(raw.find("text")).isEmpty();
    assertThat(raw.find("stars")).isEmpty();
    extras().forEach((n, v) -> assertThat(raw.get(n)).as(n).isEqualTo(v));
    assertThat(raw.attributes().keySet())
        .containsExactlyInAnyOrderElementsOf(
            new java.util.HashSet<>(
                List.of(
                    "id", "body", "audit", "count", "blob", "flag", "nothing", "names", "scores",
                    "nested")));
  }

  /** A class that maps only its key: a put creates the item and leaves an existing one alone. */
  @StowageTable("marks")
  record Mark(@PartitionKey String id) {}

  @Test
  void aKeyOnlyClassLeavesAnExistingItemAlone() {
    TypedTable<Mark> marks = store.ensureTable(Mark.class);
    marks.table().put(Item.builder().put("id", "m1").put("audit", "kept").build());
    marks.put(new Mark("m1"));
    marks.put(new Mark("m2"));
    assertThat(marks.table().get(marks.key("m1")).orElseThrow().getString("audit"))
        .isEqualTo("kept");
    assertThat(marks.get(marks.key("m2"))).contains(new Mark("m2"));
  }

  /** A profile with a nested record that holds another, stored as maps inside maps. */
  @StowageTable("profiles")
  record Profile(@PartitionKey String id, Address address, @Encrypted Address billing, int n) {}

  record Address(
      String street, @Attribute(value = "town", aliases = "city") String town, Geo geo) {}

  record Geo(double lat, double lon) {}

  private static AttributeValue.MapValue map(Object... kv) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (AttributeValue) kv[i + 1]);
    }
    return AttributeValue.map(m);
  }

  @Test
  void aTypedPutKeepsKeysOtherWritersAddedInsideNestedMapsAtEveryLevel() {
    TypedTable<Profile> profiles = store.ensureTable(Profile.class);
    Profile p =
        new Profile("p1", new Address("1 Main St", "Springfield", new Geo(1.5, 2.5)), null, 1);
    profiles.put(p);
    Key key = profiles.keyOf(p);
    // Another tool adds keys inside the nested maps, and one under the field's old name.
    AttributeValue.MapValue foreign =
        map(
            "street", AttributeValue.of("1 Main St"),
            "town", AttributeValue.of("Springfield"),
            "city", AttributeValue.of("old name of town"),
            "zip", AttributeValue.of("12345"),
            "geo",
                map(
                    "lat", AttributeValue.of(new BigDecimal("1.5")),
                    "lon", AttributeValue.of(new BigDecimal("2.5")),
                    "alt", AttributeValue.of(300)),
            "tags", AttributeValue.list(AttributeValue.of("a")));
    AttributeValue.MapValue foreignBilling =
        map("street", AttributeValue.of("2 Bank St"), "vat", AttributeValue.of("GB123"));
    profiles
        .table()
        .update(
            key, Update.builder().set("address", foreign).set("billing", foreignBilling).build());

    Profile read = profiles.get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read.address().geo()).isEqualTo(new Geo(1.5, 2.5));
    assertThat(read.billing().street()).isEqualTo("2 Bank St");
    profiles.put(
        new Profile(
            "p1",
            new Address("9 Elm St", read.address().town(), new Geo(3.0, 4.0)),
            new Address("3 Bank St", null, null),
            2));

    Item raw = profiles.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    Map<String, AttributeValue> address = raw.getMap("address");
    assertThat(address.get("street")).isEqualTo(AttributeValue.of("9 Elm St"));
    assertThat(address.get("zip")).isEqualTo(AttributeValue.of("12345"));
    assertThat(address.get("tags")).isEqualTo(AttributeValue.list(AttributeValue.of("a")));
    assertThat(address).doesNotContainKey("city"); // an alias: the renamed field's stale copy
    Map<String, AttributeValue> geo = ((AttributeValue.MapValue) address.get("geo")).values();
    assertThat(geo.get("lat")).isEqualTo(AttributeValue.of(new BigDecimal("3.0")));
    assertThat(geo.get("alt")).isEqualTo(AttributeValue.of(300));
    Map<String, AttributeValue> billing = raw.getMap("billing"); // encrypted, merged in plaintext
    assertThat(billing.get("street")).isEqualTo(AttributeValue.of("3 Bank St"));
    assertThat(billing.get("vat")).isEqualTo(AttributeValue.of("GB123"));
    assertThat(billing).doesNotContainKey("town");
    assertThat(raw.getLong("n")).isEqualTo(2);

    // replace is still the whole-item overwrite: the foreign keys go.
    profiles.replace(p);
    Item replaced = profiles.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(replaced.getMap("address")).doesNotContainKeys("zip", "tags");
  }

  @Test
  void aTypedPutOfANestedRecordRetriesWhenAnotherWriterChangesTheMapInBetween() {
    TypedTable<Profile> profiles = store.ensureTable(Profile.class);
    Profile p = new Profile("p2", new Address("1 Main St", "X", null), null, 1);
    profiles.put(p);
    Key key = profiles.keyOf(p);
    // A put whose condition fails for a reason of its own is not retried.
    assertThatThrownBy(
            () ->
                profiles.put(
                    new Profile("p2", new Address("2 Main St", "X", null), null, 2),
                    dev.stowage.query.WriteOptions.when(profiles.field("n").eq(99))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(profiles.get(key, ReadOptions.CONSISTENT).orElseThrow().n()).isEqualTo(1);

    // Another writer adds a key to the nested map between the put's read and its write: the
    // guarded write fails, and the put reads again and keeps the new key.
    dev.stowage.Table real = profiles.table();
    int[] raced = {0};
    dev.stowage.Table racing =
        (dev.stowage.Table)
            java.lang.reflect.Proxy.newProxyInstance(
                dev.stowage.Table.class.getClassLoader(),
                new Class<?>[] {dev.stowage.Table.class},
                (proxy, method, args) -> {
                  if (method.getName().startsWith("update") && raced[0]++ == 0) {
                    Item now = real.get(key, ReadOptions.CONSISTENT).orElseThrow();
                    Map<String, AttributeValue> m = new LinkedHashMap<>(now.getMap("address"));
                    m.put("zip", AttributeValue.of("99999"));
                    real.update(
                        key, Update.builder().set("address", AttributeValue.map(m)).build());
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    TypedTable<Profile> racy = TypedTable.of(racing, TypedSchema.of(Profile.class));
    racy.put(new Profile("p2", new Address("3 Main St", "X", null), null, 3));
    assertThat(raced[0]).isGreaterThanOrEqualTo(2);
    Map<String, AttributeValue> address =
        real.get(key, ReadOptions.CONSISTENT).orElseThrow().getMap("address");
    assertThat(address.get("zip")).isEqualTo(AttributeValue.of("99999"));
    assertThat(address.get("street")).isEqualTo(AttributeValue.of("3 Main St"));
  }
}
