package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

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
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.KeySchema;
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
import dev.stowage.query.Page;
import dev.stowage.query.Scan;
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

  private static Key keyOf(Item item) {
    return Key.of((dev.stowage.item.KeyValue) item.find("id").orElseThrow());
  }
}
