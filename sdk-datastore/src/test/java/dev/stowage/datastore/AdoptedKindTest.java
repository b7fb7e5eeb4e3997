package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.ConditionFailedException;
import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.datastore.internal.TableCatalog;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Scan;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Adopting kinds that another application wrote with the plain {@link Datastore} client: every
 * native value reads exactly, survives Stowage's read-modify-writes with its type and index flag,
 * keys are the entities' own names or ids, and everything Stowage cannot address is refused with an
 * error naming it.
 */
class AdoptedKindTest {
  private static final Datastore DS = Emulators.shared().datastore().client();
  private static final String RUN = Long.toString(System.nanoTime() % 1_000_000, 36);
  private static final String NS = "ad" + RUN;
  private static final int ORDERS = 300;
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private static Stowage stowage;
  private static Stowage root;

  @BeforeAll
  static void setUp() {
    DatastoreDriver driver = DatastoreDriver.of(DS);
    stowage =
        Stowage.builder(driver)
            .blobStore(GcsBlobStore.of(LocalStorageHelper.getOptions().getService(), "adopt", NS))
            .namespace(NS)
            .build();
    root = Stowage.builder(DatastoreDriver.of(DS)).build();
  }

  @AfterAll
  static void tearDown() {
    stowage.close();
    root.close();
  }

  // ---- the native data set ----

  private static KeyFactory kind(String namespace, String kind) {
    return DS.newKeyFactory().setNamespace(namespace).setKind(kind);
  }

  private static com.google.cloud.datastore.Key customer(int c) {
    return kind(NS, "Customer").newKey("c" + c);
  }

  private static Value<?> excluded(Value<?> v) {
    return v.toBuilder().setExcludeFromIndexes(true).build();
  }

  private static byte[] bytes(int seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String orderName(int i) {
    if (i == 5) {
      return "n".repeat(600); // the longest name Stowage can also address by key
    }
    if (i % 37 == 0) {
      return "ö-" + i;
    }
    if (i % 41 == 0) {
      return "\uD83C\uDF0D-" + i; // a supplementary character
    }
    return String.format("o-%04d", i);
  }

  private static Timestamp created(int i) {
    return Timestamp.ofTimeSecondsAndNanos(1_700_000_000L + i * 3600L, (i % 1000) * 1000);
  }

  private static double price(int i) {
    return i * 0.5 + 0.25;
  }

  private static long qty(int i) {
    return i == 3 ? Long.MAX_VALUE : i == 4 ? Long.MIN_VALUE : i;
  }

  private static String title(int i) {
    return i == 1 ? "t".repeat(1500) : "Order " + i; // 1500 bytes: Datastore's indexed limit
  }

  private static String notes(int i) {
    return i == 2 ? "a".repeat(1_000_000) : "note " + i; // near the 1 MiB entity limit
  }

  private static byte[] scan(int i) {
    return i == 7 ? bytes(i, 1_000_000) : bytes(i, 100);
  }

  /** Order {@code i} as an application using the Datastore client writes it. */
  private static Entity nativeOrder(com.google.cloud.datastore.Key key, int i) {
    FullEntity<IncompleteKey> address =
        FullEntity.newBuilder()
            .set("street", i + " Main St")
            .set("zip", 10_000L + i)
            .set("note", excluded(StringValue.of("ring twice")))
            .build();
    List<EntityValue> lines = new ArrayList<>();
    for (int l = 0; l < 1 + i % 3; l++) {
      lines.add(
          EntityValue.of(
              FullEntity.newBuilder().set("sku", "sku-" + l).set("n", (long) l + 1).build()));
    }
    return Entity.newBuilder(key)
        .set("customer", "c" + i % 7)
        .set("title", title(i))
        .set("notes", excluded(StringValue.of(notes(i))))
        .set("qty", qty(i))
        .set("price", i == 6 ? Double.NaN : price(i))
        .set("ratio", excluded(DoubleValue.of(0.1)))
        .set("paid", i % 2 == 0)
        .set("cancelledAt", NullValue.of())
        .set("createdAt", created(i))
        .set("thumb", Blob.copyFrom(bytes(i, 16)))
        .set("scan", excluded(BlobValue.of(Blob.copyFrom(scan(i)))))
        .set("customerKey", customer(i % 7))
        .set("shipTo", LatLng.of(-45 + i * 0.25, 100 - i * 0.5))
        .set("address", EntityValue.of(address))
        .set("lines", ListValue.of(lines))
        .set("tags", ListValue.of(StringValue.of("t" + i % 3), StringValue.of("all")))
        .set(
            "mixed",
            ListValue.of(
                LongValue.of(i),
                StringValue.of("x"),
                BooleanValue.of(true),
                NullValue.of(),
                DoubleValue.of(1.5),
                TimestampValue.of(created(i))))
        .set("emptyList", ListValue.newBuilder().build())
        .build();
  }

  private static AttributeValue n(double d) {
    return AttributeValue.of(BigDecimal.valueOf(d));
  }

  private static AttributeValue s(String v) {
    return AttributeValue.of(v);
  }

  /** What {@link #nativeOrder} is in Stowage's item model, keyed by {@code keyAttribute}. */
  private static Item expectedOrder(String keyAttribute, AttributeValue key, int i) {
    List<AttributeValue> lines = new ArrayList<>();
    for (int l = 0; l < 1 + i % 3; l++) {
      lines.add(
          AttributeValue.map(Map.of("sku", s("sku-" + l), "n", AttributeValue.of((long) l + 1))));
    }
    String createdText =
        MICROS
            .format(Instant.ofEpochSecond(1_700_000_000L + i * 3600L, 0))
            .replace(".000000Z", String.format(".%06dZ", i % 1000));
    return Item.builder()
        .put(keyAttribute, key)
        .put("customer", "c" + i % 7)
        .put("title", title(i))
        .put("notes", notes(i))
        .put("qty", qty(i))
        .put("price", i == 6 ? s("NaN") : n(price(i)))
        .put("ratio", n(0.1))
        .put("paid", i % 2 == 0)
        .put("cancelledAt", AttributeValue.nullValue())
        .put("createdAt", createdText)
        .put("thumb", bytes(i, 16))
        .put("scan", scan(i))
        .put("customerKey", customer(i % 7).toUrlSafe())
        .put(
            "shipTo",
            AttributeValue.map(
                Map.of("latitude", n(-45 + i * 0.25), "longitude", n(100 - i * 0.5))))
        .put(
            "address",
            AttributeValue.map(
                Map.of(
                    "street",
                    s(i + " Main St"),
                    "zip",
                    AttributeValue.of(10_000L + i),
                    "note",
                    s("ring twice"))))
        .put("lines", AttributeValue.list(lines))
        .put("tags", AttributeValue.list(s("t" + i % 3), s("all")))
        .put(
            "mixed",
            AttributeValue.list(
                AttributeValue.of(i),
                s("x"),
                AttributeValue.of(true),
                AttributeValue.nullValue(),
                n(1.5),
                s(createdText)))
        .put("emptyList", AttributeValue.list())
        .build();
  }

  /** Writes orders {@code 0..count-1} natively under their names; big ones one at a time. */
  private static void writeNamedOrders(String namespace, String kindName, int count) {
    KeyFactory kf = kind(namespace, kindName);
    List<Entity> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Entity e = nativeOrder(kf.newKey(orderName(i)), i);
      if (i == 2 || i == 7) {
        DS.put(e);
      } else {
        batch.add(e);
      }
      if (batch.size() == 100) {
        DS.put(batch.toArray(new Entity[0]));
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      DS.put(batch.toArray(new Entity[0]));
    }
  }

  private static TableSpec.Builder adopting(String table, String kindName, AttributeType type) {
    return TableSpec.builder(table, KeySchema.of("id", type)).adopt(kindName);
  }

  private static List<Item> scanAll(Table t) {
    List<Item> out = new ArrayList<>();
    Page p = t.scan(Scan.all());
    out.addAll(p.items());
    while (p.hasAfter()) {
      p = t.page(p.after().orElseThrow());
      out.addAll(p.items());
    }
    return out;
  }

  /** The entity's properties without Stowage's own ({@code stowage:…}). */
  private static Map<String, Value<?>> nativeProperties(com.google.cloud.datastore.Key key) {
    Map<String, Value<?>> out = new LinkedHashMap<>(DS.get(key).getProperties());
    out.keySet().removeIf(AttributeNames::isReserved);
    return out;
  }

  // ---- reading ----

  @Test
  void everyNativeEntityReadsExactlyInKeyOrder() {
    String kindName = "Orders" + RUN;
    writeNamedOrders(NS, kindName, ORDERS);
    Table orders = stowage.table(adopting("orders", kindName, AttributeType.STRING).build());

    List<Item> expected = new ArrayList<>();
    for (int i = 0; i < ORDERS; i++) {
      expected.add(expectedOrder("id", s(orderName(i)), i));
    }
    // Datastore orders key names by their UTF-8 bytes, which is Stowage's string key order.
    expected.sort((a, b) -> keyOf(a).compareTo(keyOf(b)));
    List<Item> scanned = scanAll(orders);
    assertThat(scanned).hasSize(ORDERS);
    for (int i = 0; i < ORDERS; i++) {
      assertThat(scanned.get(i)).as("entity %s", i).isEqualTo(expected.get(i));
    }

    for (int i : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 37, 41, 299}) {
      assertThat(orders.get(Key.of(orderName(i))))
          .as("get %s", i)
          .contains(expectedOrder("id", s(orderName(i)), i));
    }
    Map<Key, Item> wanted = new HashMap<>();
    for (int i = 100; i < 200; i++) {
      wanted.put(Key.of(orderName(i)), expectedOrder("id", s(orderName(i)), i));
    }
    assertThat(orders.batchGet(wanted.keySet())).isEqualTo(wanted);
    // A partition of an adopted kind is its one entity.
    assertThat(orders.query(dev.stowage.query.Query.partition(orderName(10)).build()).items())
        .containsExactly(expectedOrder("id", s(orderName(10)), 10));
    assertThat(orders.query(dev.stowage.query.Query.partition("nope").build()).items()).isEmpty();
    assertThat(orders.get(Key.of("nope"))).isEmpty();
    // Adopting created no table record.
    assertThat(DS.get(kind(NS, TableCatalog.KIND).newKey("orders"))).isNull();
  }

  @Test
  void keyNamesUpToDatastoresOwnLimitAreKeys() {
    String kindName = "Long" + RUN;
    String longName = "L".repeat(1500); // Datastore's longest key name
    DS.put(Entity.newBuilder(kind(NS, kindName).newKey(longName)).set("v", 1L).build());
    Table t = stowage.table(adopting("long", kindName, AttributeType.STRING).build());
    Item item = Item.builder().put("id", longName).put("v", 1).build();
    assertThat(scanAll(t)).containsExactly(item);
    assertThat(t.get(Key.of(longName))).contains(item);
    t.put(item.toBuilder().put("v", 2).build());
    assertThat(DS.get(kind(NS, kindName).newKey(longName)).getLong("v")).isEqualTo(2L);
    assertThatThrownBy(() -> t.get(Key.of(longName + "L")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("1500");
  }

  // ---- writing back ----

  @Test
  void readModifyWritesKeepEveryOtherPropertyItsTypeAndIndexFlag() {
    String kindName = "Rmw" + RUN;
    int count = 40;
    writeNamedOrders(NS, kindName, count);
    Table t = stowage.table(adopting("rmw", kindName, AttributeType.STRING).build());
    KeyFactory kf = kind(NS, kindName);
    Map<Integer, Map<String, Value<?>>> before = new HashMap<>();
    for (int i = 0; i < count; i++) {
      before.put(i, nativeProperties(kf.newKey(orderName(i))));
    }

    for (int i = 0; i < 4; i++) { // a get and a put of the same item
      t.put(t.get(Key.of(orderName(i))).orElseThrow());
    }
    List<Item> read = new ArrayList<>();
    for (int i = 4; i < 10; i++) {
      read.add(t.get(Key.of(orderName(i))).orElseThrow());
    }
    t.batchPut(read);
    for (int i = 10; i < 20; i++) { // a native indexed string changes
      Item updated =
          t.update(Key.of(orderName(i)), Update.builder().set("customer", "moved").build());
      assertThat(updated)
          .isEqualTo(
              expectedOrder("id", s(orderName(i)), i).toBuilder().put("customer", "moved").build());
    }
    for (int i = 20; i < 25; i++) { // a native indexed integer is incremented
      t.update(Key.of(orderName(i)), Update.builder().increment("qty", 1).build());
    }
    for (int i = 25; i < 30; i++) { // a new attribute
      t.update(Key.of(orderName(i)), Update.builder().set("audit", "checked").build());
    }

    // Value equality covers the index flag, so the comparisons below check flags too.
    assertThat((Value<?>) StringValue.of("x")).isNotEqualTo(excluded(StringValue.of("x")));
    for (int i = 0; i < count; i++) {
      com.google.cloud.datastore.Key key = kf.newKey(orderName(i));
      Entity e = DS.get(key);
      assertThat(e.contains("stowage:tok")).as("token of %s", i).isEqualTo(i < 30);
      assertThat(e.contains("id")).as("key attribute of %s stored as property", i).isFalse();
      Map<String, Value<?>> expected = new LinkedHashMap<>(before.get(i));
      if (i >= 10 && i < 20) {
        expected.put("customer", StringValue.of("moved")); // indexed, as the application wrote it
      } else if (i >= 20 && i < 25) {
        expected.put("qty", LongValue.of(qty(i) + 1)); // still an indexed integer
      } else if (i >= 25 && i < 30) {
        expected.put("audit", excluded(StringValue.of("checked"))); // Stowage's own: unindexed
      }
      assertThat(nativeProperties(key)).as("entity %s", i).isEqualTo(expected);
    }
    // The other application's queries on its indexed properties still find the entities.
    assertThat(nativeCount(kindName, PropertyFilter.eq("customer", "moved"))).isEqualTo(10);
    assertThat(nativeCount(kindName, PropertyFilter.eq("qty", 21L))).isEqualTo(1);
    assertThat(nativeCount(kindName, PropertyFilter.eq("title", title(1)))).isEqualTo(1);
  }

  private static int nativeCount(String kindName, PropertyFilter filter) {
    QueryResults<com.google.cloud.datastore.Key> r =
        DS.run(
            Query.newKeyQueryBuilder()
                .setNamespace(NS)
                .setKind(kindName)
                .setFilter(filter)
                .build());
    int n = 0;
    while (r.hasNext()) {
      r.next();
      n++;
    }
    return n;
  }

  @Test
  void aPropertyNamedLikeTheKeyAttributeIsKeptIfItAgreesAndRefusedIfNot() {
    String kindName = "Dup" + RUN;
    KeyFactory kf = kind(NS, kindName);
    DS.put(
        Entity.newBuilder(kf.newKey("a")).set("id", "a").set("v", 1L).build(),
        Entity.newBuilder(kf.newKey("b")).set("id", "other").set("v", 2L).build());
    Table t = stowage.table(adopting("dup", kindName, AttributeType.STRING).build());
    assertThat(t.get(Key.of("a"))).contains(Item.builder().put("id", "a").put("v", 1).build());
    t.update(Key.of("a"), Update.builder().set("v", 3).build());
    assertThat((Value<?>) DS.get(kf.newKey("a")).getValue("id")).isEqualTo(StringValue.of("a"));
    assertThatThrownBy(() -> t.get(Key.of("b")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("Key(" + kindName + ", 'b') in namespace '" + NS + "'")
        .hasMessageContaining("property 'id'");
  }

  // ---- keys ----

  @Test
  void numericIdsInTheDefaultNamespace() {
    String kindName = "Invoices" + RUN;
    KeyFactory kf = kind("", kindName);
    long[] ids = {Long.MAX_VALUE, 1, -5, 42, 7, 1_000_000_007L};
    for (long id : ids) {
      DS.put(Entity.newBuilder(kf.newKey(id)).set("total", id % 1000).set("who", "w" + id).build());
    }
    Table t = root.table(adopting("invoices", kindName, AttributeType.NUMBER).build());
    // Ids order numerically, negative ones first: Stowage's number order.
    assertThat(scanAll(t))
        .extracting(i -> i.getNumber("id").longValueExact())
        .containsExactly(-5L, 1L, 7L, 42L, 1_000_000_007L, Long.MAX_VALUE);
    assertThat(t.get(Key.of(AttributeValue.of(42))))
        .contains(Item.builder().put("id", 42).put("total", 42).put("who", "w42").build());
    assertThat(t.query(dev.stowage.query.Query.partition(AttributeValue.of(-5)).build()).items())
        .containsExactly(Item.builder().put("id", -5).put("total", -5).put("who", "w-5").build());

    Item created = Item.builder().put("id", 99).put("total", 5).build();
    t.put(created);
    Entity e = DS.get(kf.newKey(99L));
    assertThat(e.getNames()).containsExactlyInAnyOrder("total", "stowage:tok");
    assertThat(t.get(Key.of(AttributeValue.of(99)))).contains(created);
    assertThat(t.delete(Key.of(AttributeValue.of(7)))).isTrue();
    assertThat(DS.get(kf.newKey(7L))).isNull();

    for (String bad : new String[] {"1.5", "0", "9223372036854775808", "-9223372036854775809"}) {
      assertThatThrownBy(
              () -> t.put(Item.builder().put("id", new BigDecimal(bad)).put("x", 1).build()))
          .as(bad)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("numeric Datastore id");
    }
    assertThat(scanAll(t)).hasSize(6);

    // The same kind read as names: the first entity's key says otherwise.
    TableSpec asNames = adopting("invnames", kindName, AttributeType.STRING).build();
    for (var open : List.<Runnable>of(() -> root.table(asNames), () -> root.ensureTable(asNames))) {
      assertThatThrownBy(open::run)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("Key(" + kindName + ", -5) in the default namespace")
          .hasMessageContaining("numeric id");
    }
  }

  @Test
  void entitiesStowageCannotAddressAreRefusedNamingThem() {
    String kindName = "Mixed" + RUN;
    KeyFactory kf = kind(NS, kindName);
    DS.put(
        Entity.newBuilder(kf.newKey("o-1")).set("v", 1L).build(),
        Entity.newBuilder(
                com.google.cloud.datastore.Key.newBuilder(customer(1), kindName, "o-17").build())
            .set("v", 17L)
            .build());
    Table t = stowage.table(adopting("mixed", kindName, AttributeType.STRING).build());
    assertThat(t.get(Key.of("o-1"))).contains(Item.builder().put("id", "o-1").put("v", 1).build());
    // The root entity o-17 is another entity than Customer c1's child o-17.
    assertThat(t.get(Key.of("o-17"))).isEmpty();
    assertThatThrownBy(() -> scanAll(t))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("Key(Customer, 'c1', " + kindName + ", 'o-17') in namespace '" + NS)
        .hasMessageContaining("ancestor path");

    String idsName = "Ids" + RUN;
    KeyFactory ids = kind(NS, idsName);
    DS.put(
        Entity.newBuilder(ids.newKey(1L)).set("v", 1L).build(),
        Entity.newBuilder(ids.newKey("x")).set("v", 2L).build());
    Table byId = stowage.table(adopting("ids", idsName, AttributeType.NUMBER).build());
    assertThatThrownBy(() -> scanAll(byId))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("Key(" + idsName + ", 'x') in namespace '" + NS + "'")
        .hasMessageContaining("has a key name, but the partition key 'id' is NUMBER");
  }

  @Test
  void keysThatAreNoDatastoreNameAreRefusedBeforeWriting() {
    String kindName = "Names" + RUN;
    DS.put(Entity.newBuilder(kind(NS, kindName).newKey("a")).set("v", 1L).build());
    Table t = stowage.table(adopting("names", kindName, AttributeType.STRING).build());
    assertThatThrownBy(() -> t.put(Item.builder().put("id", "__x__").build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("reserves key names matching __.*__");
    assertThatThrownBy(() -> t.put(Item.builder().put("id", "").build()))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(scanAll(t)).hasSize(1);
  }

  // ---- specs and tables ----

  @Test
  void specsAnAdoptedKindCannotHaveAreRefused() {
    String kindName = "Spec" + RUN;
    DS.put(Entity.newBuilder(kind(NS, kindName).newKey("a")).set("v", 1L).build());
    TableSpec sorted =
        TableSpec.builder(
                "sorted", KeySchema.of("id", AttributeType.STRING, "line", AttributeType.NUMBER))
            .adopt(kindName)
            .build();
    for (var open :
        List.<Runnable>of(() -> stowage.table(sorted), () -> stowage.ensureTable(sorted))) {
      assertThatThrownBy(open::run)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("sort key 'line'")
          .hasMessageContaining("keyed by one name or id");
    }
    assertThatThrownBy(
            () ->
                stowage.table(
                    TableSpec.builder("bin", KeySchema.of("id", AttributeType.BINARY))
                        .adopt(kindName)
                        .build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("BINARY");
    assertThatThrownBy(
            () -> stowage.table(adopting("stat", "__Stat_Kind__", AttributeType.STRING).build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("reserved");
  }

  @Test
  void aKindWithoutEntitiesIsNotFoundUnlessEnsured() {
    String missing = "Nope" + RUN;
    assertThatThrownBy(() -> stowage.table(adopting("nope", missing, AttributeType.STRING).build()))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("kind '" + missing + "' in namespace '" + NS + "'");
    assertThatThrownBy(() -> root.table(adopting("nope", missing, AttributeType.STRING).build()))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("kind '" + missing + "' in the default namespace");

    // ensureTable adopts an empty kind and creates nothing: no record, no entity.
    String empty = "Empty" + RUN;
    Table t = stowage.ensureTable(adopting("empty", empty, AttributeType.STRING).build());
    assertThat(DS.get(kind(NS, TableCatalog.KIND).newKey("empty"))).isNull();
    assertThat(nativeCount(empty, PropertyFilter.ge("__key__", kind(NS, empty).newKey("-"))))
        .isZero();
    t.put(Item.builder().put("id", "first").put("v", 1).build());
    assertThat(DS.get(kind(NS, empty).newKey("first")).getLong("v")).isEqualTo(1);
    assertThat(
            stowage
                .table(adopting("empty2", empty, AttributeType.STRING).build())
                .get(Key.of("first")))
        .isPresent();
  }

  @Test
  void adoptedKindsAreNotDroppedAndStowageTablesAreNotAdopted() {
    String kindName = "Keep" + RUN;
    com.google.cloud.datastore.Key kept = kind(NS, kindName).newKey("a");
    DS.put(Entity.newBuilder(kept).set("v", 1L).build());
    stowage.table(adopting("keep", kindName, AttributeType.STRING).build());
    assertThatThrownBy(() -> stowage.dropTable("keep"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("does not delete the entities of kinds it adopted");
    assertThat(DS.get(kept)).isNotNull();

    // A kind whose name is a table name but that has no Stowage record is not Stowage's to drop.
    String plain = "plain" + RUN;
    com.google.cloud.datastore.Key plainKey = kind(NS, plain).newKey("a");
    DS.put(Entity.newBuilder(plainKey).set("v", 1L).build());
    try (Stowage fresh = Stowage.builder(DatastoreDriver.of(DS)).namespace(NS).build()) {
      fresh.dropTable(plain);
    }
    assertThat(DS.get(plainKey)).isNotNull();

    stowage
        .ensureTable(TableSpec.builder("owned", KeySchema.of("id", AttributeType.STRING)).build())
        .put(Item.builder().put("id", "x").build());
    assertThatThrownBy(
            () -> stowage.table(adopting("other", "owned", AttributeType.STRING).build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("it is the Stowage table 'owned'");
    stowage.dropTable("owned");
  }

  // ---- tokens, conditions, transactions, batches ----

  @Test
  void conditionalWritesWorkOnEntitiesWithoutAToken() {
    String kindName = "Tok" + RUN;
    KeyFactory kf = kind(NS, kindName);
    DS.put(
        Entity.newBuilder(kf.newKey("a")).set("state", "new").build(),
        Entity.newBuilder(kf.newKey("b")).set("state", "new").build(),
        Entity.newBuilder(kf.newKey("c")).set("state", "new").build());
    TableSpec spec = adopting("tok", kindName, AttributeType.STRING).build();
    Table t = stowage.table(spec);

    DatastoreDriver driver = DatastoreDriver.of(DS);
    TableLayout layout =
        new TableLayout(
            new dev.stowage.spi.TableRef(NS, "tok"), spec.keySchema(), List.of(), kindName);
    driver.openTable(layout);
    StoredItem a = driver.get(layout, Key.of("a"), true).orElseThrow();
    assertThat(a.token()).isEmpty(); // the fixed token of entities no Stowage write touched
    Item shipped = Item.builder().put("id", "a").put("state", "shipped").build();
    String token = driver.put(layout, shipped, Expectation.token(""), false).token();
    assertThat(token).isNotEmpty();
    assertThatThrownBy(() -> driver.put(layout, shipped, Expectation.token(""), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.get(layout, Key.of("a"), true).orElseThrow().token()).isEqualTo(token);
    assertThatThrownBy(
            () ->
                driver.put(
                    layout, Item.builder().put("id", "b").build(), Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);

    // Through the core: conditions on native entities, putIfAbsent, conditional deletes.
    t.put(
        Item.builder().put("id", "b").put("state", "paid").build(),
        WriteOptions.when(Condition.eq("state", "new")));
    assertThat((Value<?>) DS.get(kf.newKey("b")).getValue("state"))
        .isEqualTo(StringValue.of("paid"));
    assertThatThrownBy(
            () ->
                t.put(
                    Item.builder().put("id", "b").put("state", "again").build(),
                    WriteOptions.when(Condition.eq("state", "new"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(t.putIfAbsent(Item.builder().put("id", "c").build())).isFalse();
    assertThat(t.putIfAbsent(Item.builder().put("id", "d").put("state", "new").build())).isTrue();
    assertThat(t.delete(Key.of("c"), WriteOptions.when(Condition.eq("state", "new")))).isTrue();
    assertThat(DS.get(kf.newKey("c"))).isNull();
    driver.close();
  }

  @Test
  void transactionsAndBatchesSpanAdoptedKindsAndStowageTables() {
    String kindName = "Tx" + RUN;
    KeyFactory kf = kind(NS, kindName);
    DS.put(
        Entity.newBuilder(kf.newKey("a")).set("state", "new").set("n", 1L).build(),
        Entity.newBuilder(kf.newKey("b")).set("state", "new").build());
    Table adopted = stowage.table(adopting("txs", kindName, AttributeType.STRING).build());
    Table ledger =
        stowage.ensureTable(
            TableSpec.builder("ledger", KeySchema.of("id", AttributeType.STRING)).build());

    stowage
        .transaction()
        .put(
            adopted,
            Item.builder().put("id", "a").put("state", "shipped").put("n", 1).build(),
            Condition.eq("state", "new"))
        .delete(adopted, Key.of("b"), null)
        .put(ledger, Item.builder().put("id", "e1").put("what", "shipped a").build(), null)
        .commit();
    Entity a = DS.get(kf.newKey("a"));
    assertThat((Value<?>) a.getValue("state")).isEqualTo(StringValue.of("shipped"));
    assertThat((Value<?>) a.getValue("n")).isEqualTo(LongValue.of(1));
    assertThat(DS.get(kf.newKey("b"))).isNull();
    assertThat(ledger.get(Key.of("e1"))).isPresent();

    assertThatThrownBy(
            () ->
                stowage
                    .transaction()
                    .put(
                        adopted,
                        Item.builder().put("id", "a").put("state", "lost").build(),
                        Condition.eq("state", "new"))
                    .put(ledger, Item.builder().put("id", "e2").build(), null)
                    .commit())
        .isInstanceOf(ConditionFailedException.class);
    assertThat(DS.get(kf.newKey("a")).getString("state")).isEqualTo("shipped");
    assertThat(ledger.get(Key.of("e2"))).isEmpty();

    adopted.batchPut(
        List.of(
            Item.builder().put("id", "c").put("n", 3).build(),
            Item.builder().put("id", "d").put("n", 4).build()));
    assertThat(DS.get(kf.newKey("c")).getLong("n")).isEqualTo(3);
    adopted.batchDelete(List.of(Key.of("c"), Key.of("a")));
    assertThat(DS.get(kf.newKey("c"))).isNull();
    assertThat(DS.get(kf.newKey("a"))).isNull();
    assertThat(scanAll(adopted)).containsExactly(Item.builder().put("id", "d").put("n", 4).build());
    stowage.dropTable("ledger");
  }

  // ---- Stowage's indexes and overflow ----

  @Test
  void backfilledIndexesServeQueriesOnAdoptedKinds() {
    String kindName = "Ix" + RUN;
    int count = 60;
    writeNamedOrders(NS, kindName, count);
    KeyFactory kf = kind(NS, kindName);
    Map<String, Value<?>> before = nativeProperties(kf.newKey(orderName(10)));
    Table t =
        stowage.table(
            adopting("indexed", kindName, AttributeType.STRING)
                .index(IndexSpec.of("byCustomer", List.of("customer"), List.of("qty")))
                .build());
    dev.stowage.query.Query c3 =
        dev.stowage.query.Query.index("byCustomer")
            .partition(AttributeValue.of("c3"))
            .limit(4)
            .build();
    assertThat(t.queryAll(c3)).isEmpty(); // nothing is indexed before the backfill

    MaintenanceJob.Progress p = t.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(p.done()).isTrue();
    assertThat(p.scanned()).isEqualTo(count);
    assertThat(p.rewritten()).isEqualTo(count);

    List<Item> expected = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (i % 7 == 3) {
        expected.add(expectedOrder("id", s(orderName(i)), i));
      }
    }
    expected.sort((x, y) -> Long.compare(x.getLong("qty"), y.getLong("qty")));
    assertThat(t.queryAll(c3)).containsExactlyElementsOf(expected);
    List<Item> reversed = new ArrayList<>(expected);
    java.util.Collections.reverse(reversed);
    assertThat(
            t.queryAll(
                dev.stowage.query.Query.index("byCustomer")
                    .partition(AttributeValue.of("c3"))
                    .descending()
                    .limit(3)
                    .build()))
        .containsExactlyElementsOf(reversed);
    // The backfill added only Stowage's properties.
    assertThat(nativeProperties(kf.newKey(orderName(10)))).isEqualTo(before);
    assertThat(DS.get(kf.newKey(orderName(10))).getNames())
        .contains("stowage:ix:byCustomer:p", "stowage:ix:byCustomer:s", "stowage:tok");

    // Stowage's writes keep the index in step; native writes need another backfill.
    t.update(Key.of(orderName(11)), Update.builder().set("customer", "c3").build());
    DS.put(nativeOrder(kf.newKey("late"), 3));
    assertThat(t.queryAll(c3))
        .extracting(i -> i.getString("id"))
        .contains(orderName(11))
        .doesNotContain("late");
    t.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(t.queryAll(c3)).extracting(i -> i.getString("id")).contains("late");
  }

  @Test
  void largeItemsOverflowToTheBlobStore() {
    String kindName = "Big" + RUN;
    KeyFactory kf = kind(NS, kindName);
    DS.put(Entity.newBuilder(kf.newKey("a")).set("label", "small").set("n", 1L).build());
    Map<String, Value<?>> before = nativeProperties(kf.newKey("a"));
    Table t = stowage.table(adopting("big", kindName, AttributeType.STRING).build());
    Item big =
        t.get(Key.of("a")).orElseThrow().toBuilder().put("payload", bytes(1, 1_300_000)).build();
    t.put(big);
    assertThat(t.get(Key.of("a"))).contains(big);
    Entity e = DS.get(kf.newKey("a"));
    assertThat(e.contains("stowage:ovf")).isTrue();
    assertThat(nativeProperties(kf.newKey("a"))).isEqualTo(before);
  }

  private static Key keyOf(Item item) {
    return Key.of((dev.stowage.item.KeyValue) item.find("id").orElseThrow());
  }
}
