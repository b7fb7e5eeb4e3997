package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.internal.AzureKeys;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Update;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Azure Tables interop contract: an entity written with the plain {@link TableClient} holding
 * every EDM type (String, Int32, Int64, Double including NaN, infinities and negative zero,
 * Boolean, DateTime, Guid, Binary) reads through Stowage into the documented item, and comes out of
 * Stowage's read-modify-writes with every property's type and value; changed values keep their EDM
 * type where it holds them; items Stowage writes read natively with the same names and natural
 * types.
 */
class NativeInteropTest {
  private static final UUID ID = UUID.fromString("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
  private static final OffsetDateTime BORN =
      OffsetDateTime.of(2024, 5, 1, 12, 34, 56, 123456700, ZoneOffset.UTC);
  private static final List<String> TABLES = List.of("people", "events", "feed", "indexed");
  private static final Map<String, Table> STOWAGE = new LinkedHashMap<>();
  private static final Map<String, TableSpec> SPECS = new LinkedHashMap<>();
  private static final Map<String, TableClient> NATIVE = new LinkedHashMap<>();
  private static Stowage stowage;

  @BeforeAll
  static void setUp() {
    String conn = Emulators.shared().azurite().connectionString();
    String namespace = "ni" + Long.toString(System.nanoTime() % 100_000, 36);
    stowage =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn)).namespace(namespace).build();
    // No sort key and a sort key (single-entity writes), a sort key with descending queries
    // declared (item and mirror row in one transaction), and an index (writes read the replaced
    // version and write conditionally).
    STOWAGE.put(
        "people",
        ensure(TableSpec.builder("people", KeySchema.of("id", AttributeType.STRING)).build()));
    STOWAGE.put(
        "events",
        ensure(
            TableSpec.builder(
                    "events", KeySchema.of("id", AttributeType.STRING, "at", AttributeType.NUMBER))
                .build()));
    STOWAGE.put(
        "feed",
        ensure(
            TableSpec.builder(
                    "feed", KeySchema.of("id", AttributeType.STRING, "at", AttributeType.NUMBER))
                .descendingQueries()
                .build()));
    STOWAGE.put(
        "indexed",
        ensure(
            TableSpec.builder("indexed", KeySchema.of("id", AttributeType.STRING))
                .index(IndexSpec.of("byName", List.of("Name"), List.of("Age")))
                .build()));
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(conn).buildClient();
    for (String t : TABLES) {
      NATIVE.put(t, service.getTableClient(TableNames.dataTable(new TableRef(namespace, t))));
    }
  }

  @AfterAll
  static void tearDown() {
    TABLES.forEach(stowage::dropTable);
    stowage.close();
  }

  private static Table ensure(TableSpec spec) {
    SPECS.put(spec.name(), spec);
    return stowage.ensureTable(spec);
  }

  private static Table table(String t) {
    return STOWAGE.get(t);
  }

  private static TableClient nativeTable(String t) {
    return NATIVE.get(t);
  }

  private static boolean sorted(String t) {
    return t.equals("events") || t.equals("feed");
  }

  private static Key key(String t, String id) {
    return sorted(t) ? Key.of(AttributeValue.of(id), AttributeValue.of(7)) : Key.of(id);
  }

  /** An entity as an application using the Tables client writes it, at the item key's keys. */
  private static TableEntity nativePerson(String t, String id) {
    Key key = key(t, id);
    TableEntity e = new TableEntity(AzureKeys.partitionKey(key.partition()), AzureKeys.rowKey(key));
    e.addProperty("Name", "Zoë 🌍");
    e.addProperty("Nickname", "");
    e.addProperty("Age", 42);
    e.addProperty("Big", 9007199254740993L);
    e.addProperty("Score", 4.5);
    e.addProperty("Ratio", 0.1);
    e.addProperty("Whole", 3.0);
    e.addProperty("NotANumber", Double.NaN);
    e.addProperty("Infinite", Double.POSITIVE_INFINITY);
    e.addProperty("NegInfinite", Double.NEGATIVE_INFINITY);
    e.addProperty("NegZero", -0.0);
    e.addProperty("Active", true);
    e.addProperty("Born", BORN);
    e.addProperty("Id", ID);
    e.addProperty("Photo", new byte[] {0, -1, 7});
    return e;
  }

  /** What {@link #nativePerson} is in Stowage's item model. */
  private static Item expectedPerson(String t, String id) {
    Item.Builder b =
        Item.builder()
            .put("id", id)
            .put("Name", "Zoë 🌍")
            .put("Nickname", "")
            .put("Age", 42)
            .put("Big", 9007199254740993L)
            .put("Score", new BigDecimal("4.5"))
            .put("Ratio", new BigDecimal("0.1"))
            .put("Whole", 3)
            .put("NotANumber", "NaN")
            .put("Infinite", "Infinity")
            .put("NegInfinite", "-Infinity")
            // Azurite returns Edm.Double values without their annotation, so a negative zero
            // comes back (to every client) as the Int32 0; the real service keeps -0.0, which
            // reads as "-0" (EntityCodecTest).
            .put("NegZero", 0)
            .put("Active", true)
            .put("Born", "2024-05-01T12:34:56.1234567Z")
            .put("Id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
            .put("Photo", new byte[] {0, -1, 7});
    if (sorted(t)) {
      b.put("at", 7);
    }
    return b.build();
  }

  /**
   * The entity's properties as the Tables client reads them (binary wrapped for comparison),
   * without the service's and the driver's own.
   */
  private static Map<String, Object> nativeProperties(String t, String id) {
    Key key = key(t, id);
    TableEntity e =
        nativeTable(t).getEntity(AzureKeys.partitionKey(key.partition()), AzureKeys.rowKey(key));
    Map<String, Object> out = new LinkedHashMap<>();
    e.getProperties()
        .forEach(
            (k, v) -> {
              if (!k.contains("odata.")
                  && !List.of("PartitionKey", "RowKey", "Timestamp").contains(k)
                  && !k.startsWith("_0_")
                  && !k.startsWith("_3_stowage_3a_")) {
                out.put(k, v instanceof byte[] b ? Bytes.of(b) : v);
              }
            });
    return out;
  }

  @Test
  void nativeEntitiesReadExactly() {
    nativeTable("people").upsertEntity(nativePerson("people", "read"));
    assertThat(table("people").get(Key.of("read")).orElseThrow())
        .isEqualTo(expectedPerson("people", "read"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"people", "events", "feed", "indexed"})
  void nativeEntitiesSurviveAGetAndPutUntouched(String t) {
    nativeTable(t).upsertEntity(nativePerson(t, "put"));
    Map<String, Object> before = nativeProperties(t, "put");
    Item read = table(t).get(key(t, "put")).orElseThrow();
    assertThat(read).isEqualTo(expectedPerson(t, "put"));
    table(t).put(read);
    assertThat(nativeProperties(t, "put")).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"people", "events", "feed", "indexed"})
  void nativeEntitiesSurviveAnUpdateOfOneAttributeUntouched(String t) {
    nativeTable(t).upsertEntity(nativePerson(t, "upd"));
    Map<String, Object> before = nativeProperties(t, "upd");
    Item updated = table(t).update(key(t, "upd"), Update.builder().set("Name", "Ann").build());
    assertThat(updated).isEqualTo(expectedPerson(t, "upd").toBuilder().put("Name", "Ann").build());
    Map<String, Object> after = nativeProperties(t, "upd");
    assertThat(after.remove("Name")).isEqualTo("Ann");
    before.remove("Name");
    assertThat(after).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"people", "events", "feed", "indexed"})
  void nativeEntitiesSurviveABatchPutUntouched(String t) {
    nativeTable(t).upsertEntity(nativePerson(t, "batch"));
    Map<String, Object> before = nativeProperties(t, "batch");
    table(t).batchPut(List.of(table(t).get(key(t, "batch")).orElseThrow()));
    assertThat(nativeProperties(t, "batch")).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"people", "events", "feed"})
  void aPutOfAnItemReadThroughAnotherDriverIsABlindOverwriteWithStowagesTypes(String t) {
    nativeTable(t).upsertEntity(nativePerson(t, "blind"));
    Item read;
    try (Stowage other =
        Stowage.builder(
                AzureTablesDriver.fromConnectionString(
                    Emulators.shared().azurite().connectionString()))
            .namespace(stowage.namespace())
            .build()) {
      read = other.table(SPECS.get(t)).get(key(t, "blind")).orElseThrow();
    }
    // This driver never read the entity, so it remembers no template: Stowage's own types.
    table(t).put(read);
    Map<String, Object> after = nativeProperties(t, "blind");
    assertThat(after.get("Age")).isEqualTo(42L);
    assertThat(after.get("Born")).isInstanceOf(String.class);
    assertThat(table(t).get(key(t, "blind")).orElseThrow()).isEqualTo(read);
    // Written back by the driver that read it, the types it read stay.
    nativeTable(t).upsertEntity(nativePerson(t, "blind"));
    Map<String, Object> before = nativeProperties(t, "blind");
    table(t).put(table(t).get(key(t, "blind")).orElseThrow());
    assertThat(nativeProperties(t, "blind")).isEqualTo(before);
  }

  @Test
  void changedValuesKeepTheirEdmTypeWhereTheTypeHoldsThem() {
    nativeTable("people").upsertEntity(nativePerson("people", "chg"));
    table("people")
        .update(
            Key.of("chg"),
            Update.builder()
                .increment("Age", 1)
                .set("Score", AttributeValue.of(new BigDecimal("4.25")))
                .set("Born", "2025-01-02T03:04:05.0000006Z")
                .set("Id", "00000000-0000-0000-0000-000000000001")
                .build());
    Map<String, Object> after = nativeProperties("people", "chg");
    assertThat(after.get("Age")).isEqualTo(43);
    assertThat(after.get("Score")).isEqualTo(4.25);
    assertThat(after.get("Born"))
        .isEqualTo(OffsetDateTime.of(2025, 1, 2, 3, 4, 5, 600, ZoneOffset.UTC));
    assertThat(after.get("Id")).isEqualTo(UUID.fromString("00000000-0000-0000-0000-000000000001"));
    // Values the EDM type cannot hold take Stowage's own type.
    table("people")
        .update(
            Key.of("chg"),
            Update.builder()
                .set("Age", 3_000_000_000L)
                .set("Born", "next Tuesday")
                .set("Id", "not a guid")
                .build());
    after = nativeProperties("people", "chg");
    assertThat(after.get("Age")).isEqualTo(3_000_000_000L);
    assertThat(after.get("Born")).isEqualTo("next Tuesday");
    assertThat(after.get("Id")).isEqualTo("not a guid");
  }

  @Test
  void stowageItemsReadNativelyWithTheSameNamesAndNaturalTypes() {
    Item item =
        Item.builder()
            .put("id", "stowage")
            .put("Name", "Zoë")
            .put("Age", 42)
            .put("Price", new BigDecimal("19.99"))
            .put("Exact", new BigDecimal("0.12345678901234567890"))
            .put("Active", true)
            .put("Photo", new byte[] {1, 2})
            .put("Address", AttributeValue.map(Map.of("Street", AttributeValue.of("1 Main St"))))
            .build();
    table("people").put(item);
    assertThat(table("people").get(Key.of("stowage")).orElseThrow()).isEqualTo(item);
    Map<String, Object> raw = nativeProperties("people", "stowage");
    assertThat(raw.get("Name")).isEqualTo("Zoë");
    assertThat(raw.get("Age")).isEqualTo(42L);
    assertThat(raw.get("Price")).isEqualTo(19.99);
    assertThat(raw.get("Active")).isEqualTo(true);
    assertThat(raw.get("Photo")).isEqualTo(Bytes.of(new byte[] {1, 2}));
    // Azure has no exact decimal and no map: those are Stowage's typed encoding, under "_1_".
    assertThat(raw.get("_1_Exact")).isInstanceOf(Bytes.class);
    assertThat(raw).containsKey("_1_Address");
    assertThat(raw).doesNotContainKeys("Exact", "Address");
  }
}
