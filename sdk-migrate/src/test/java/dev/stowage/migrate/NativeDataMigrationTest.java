package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
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
import com.google.cloud.datastore.ValueType;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Native data, end to end: each backend's own SDK writes a realistic data set (every native value
 * type, a few items near the backend's size limit), Stowage adopts it with a {@code byStatus}
 * index, and the migrator copies it to each of the other backends and into a second namespace of
 * the same backend, every target with a blob store. Each hop is verified three ways: {@link
 * Migrator#verify()}, every item read through Stowage on the target equal to the item read through
 * Stowage on the source (value types included), and every {@code byStatus} query (each status, both
 * directions, paged) returning the same keys on the target as the in-memory expectation and as the
 * adopted source after {@code backfillIndexes}. What native types become on the other backends
 * (docs/migration.md) is asserted natively on the targets.
 */
class NativeDataMigrationTest {
  /**
   * Items per backend: 3,000 in the default build (9,000 native items in all: 130 s for the three
   * tests on a quiet two-core machine, more under load); {@code -Dstowage.nativedata.items=N}.
   */
  static final int ITEMS = Integer.getInteger("stowage.nativedata.items", 3_000);

  static final int PAGE = 2000;
  static final List<String> STATUSES = List.of("new", "paid", "shipped", "returned");

  static void log(String what, long startNanos) {
    System.out.printf(
        "native data %s: %,d ms%n", what, (System.nanoTime() - startNanos) / 1_000_000);
  }

  static byte[] bytes(int seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  // ---- stores ----

  static DynamoDbClient ddbClient() {
    return Emulators.shared().dynamoDb().client();
  }

  static StorageDriver dynamo() {
    return DynamoDbDriver.create(ddbClient());
  }

  static BlobStore s3(String prefix) {
    return S3BlobStore.builder()
        .client(Emulators.shared().s3().client())
        .bucket(Emulators.shared().s3().newBucket())
        .prefix(prefix)
        .build();
  }

  static StorageDriver datastore() {
    return DatastoreDriver.builder()
        .projectId("test")
        .emulatorHost(Emulators.shared().datastore().hostPort())
        .build();
  }

  static BlobStore gcs(String prefix) {
    return GcsBlobStore.of(Emulators.shared().gcs(), "native-" + prefix, prefix);
  }

  static StorageDriver azure() {
    return AzureTablesDriver.fromConnectionString(Emulators.shared().azurite().connectionString());
  }

  static BlobStore azureBlobs(String container) {
    return AzureBlobStore.fromConnectionString(
        Emulators.shared().azurite().connectionString(), container, "ov");
  }

  /** A target: a driver, its blob store and namespace. */
  record Target(String name, StorageDriver driver, BlobStore blobs, String namespace) {}

  // ---- checks ----

  /** Every item of a table, read through Stowage, by key. */
  static Map<Key, Item> readAll(Table t, KeySchema key) {
    Map<Key, Item> out = new TreeMap<>();
    Page p = t.scan(Scan.all().withLimit(1000));
    while (true) {
      p.items().forEach(i -> out.put(key.keyOf(i), i));
      if (!p.hasAfter() || p.after().isEmpty()) {
        return out;
      }
      p = t.page(p.after().get());
    }
  }

  /** The keys a byStatus query returns, read in pages of 97. */
  static List<Key> query(Table t, KeySchema key, String status, boolean descending) {
    List<Key> keys = new ArrayList<>();
    Page p =
        t.query(
            Query.index("byStatus")
                .partition(AttributeValue.of(status))
                .descending(descending)
                .limit(97)
                .build());
    while (true) {
      p.items().forEach(i -> keys.add(key.keyOf(i)));
      boolean more = descending ? p.hasBefore() : p.hasAfter();
      if (!more) {
        return keys;
      }
      p = t.page((descending ? p.before() : p.after()).orElseThrow());
    }
  }

  /** What byStatus (partition status, sort total) returns, computed from the items themselves. */
  static List<Key> expected(Map<Key, Item> items, String status, boolean descending) {
    Comparator<Map.Entry<Key, Item>> order =
        Comparator.<Map.Entry<Key, Item>, BigDecimal>comparing(e -> e.getValue().getNumber("total"))
            .thenComparing(Map.Entry::getKey);
    return items.entrySet().stream()
        .filter(e -> e.getValue().find("status").isPresent())
        .filter(e -> e.getValue().getString("status").equals(status))
        .sorted(descending ? order.reversed() : order)
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * Migrates the adopted source into {@code target} under {@code targetSpec} and checks the copy:
   * verification, every item equal to the source's, every index query as expected.
   */
  static Table migrateAndCheck(
      String hop,
      TableSpec sourceSpec,
      StorageDriver sourceDriver,
      TableSpec targetSpec,
      Target target,
      Map<Key, Item> sourceItems,
      Map<String, List<List<Key>>> sourceQueries) {
    long t = System.nanoTime();
    Migrator m =
        Migrator.builder(sourceSpec)
            .source(sourceDriver, null, "")
            .target(target.driver(), target.blobs(), target.namespace())
            .targetSpec(targetSpec)
            .pageSize(PAGE)
            .build();
    Migrator.Report r = m.run();
    log(hop + ": copy of " + r.progress().itemsCopied() + " items", t);
    assertThat(r.misfits()).as(hop).isEmpty();
    assertThat(r.progress().itemsCopied()).as(hop).isEqualTo(sourceItems.size());
    t = System.nanoTime();
    Verification v = m.verify();
    log(hop + ": verification", t);
    assertThat(v.ok()).as(hop + ": " + v).isTrue();

    Table copy =
        Stowage.builder(target.driver())
            .blobStore(target.blobs())
            .namespace(target.namespace())
            .build()
            .table(targetSpec);
    t = System.nanoTime();
    Map<Key, Item> copied = readAll(copy, targetSpec.keySchema());
    assertThat(copied.keySet()).as(hop).isEqualTo(sourceItems.keySet());
    for (var e : sourceItems.entrySet()) {
      assertThat(copied.get(e.getKey())).as(hop + ": item " + e.getKey()).isEqualTo(e.getValue());
    }
    for (String status : STATUSES) {
      for (boolean descending : List.of(false, true)) {
        List<Key> got = query(copy, targetSpec.keySchema(), status, descending);
        String what = hop + ": byStatus " + status + (descending ? " descending" : "");
        assertThat(got).as(what).isEqualTo(expected(sourceItems, status, descending));
        assertThat(got)
            .as(what + " (as on the source)")
            .isEqualTo(sourceQueries.get(status).get(descending ? 1 : 0));
      }
    }
    log(hop + ": reads and queries", t);
    return copy;
  }

  /** Backfills the adopted source's byStatus index and runs every query on it. */
  static Map<String, List<List<Key>>> backfillAndQuery(
      Table source, KeySchema key, Map<Key, Item> items) {
    long t = System.nanoTime();
    MaintenanceJob.Progress p = source.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
    log("backfill of the adopted source (" + p.rewritten() + " rewritten)", t);
    Map<String, List<List<Key>>> out = new HashMap<>();
    for (String status : STATUSES) {
      List<Key> asc = query(source, key, status, false);
      List<Key> desc = query(source, key, status, true);
      assertThat(asc).as("source byStatus " + status).isEqualTo(expected(items, status, false));
      assertThat(desc)
          .as("source byStatus " + status + " desc")
          .isEqualTo(expected(items, status, true));
      assertThat(asc).isNotEmpty();
      out.put(status, List.of(asc, desc));
    }
    return out;
  }

  static TableSpec withIndex(String name, KeySchema key, String adopt) {
    TableSpec.Builder b =
        TableSpec.builder(name, key).index("byStatus", List.of("status"), List.of("total"));
    if (adopt != null) {
      b.adopt(adopt);
    }
    return b.build();
  }

  // ---- DynamoDB ----

  static final KeySchema DDB_KEY = KeySchema.of("customer", STRING, "orderNo", NUMBER);

  static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  /** Order {@code i} as an application writes it with the AWS SDK: every DynamoDB type. */
  static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> ddbOrder(
      int i) {
    var A = software.amazon.awssdk.services.dynamodb.model.AttributeValue.class;
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m =
        new LinkedHashMap<>();
    m.put("customer", s(String.format("c-%03d", i % 97)));
    m.put("orderNo", n(Integer.toString(i)));
    if (i % 11 != 0) {
      m.put("status", s(STATUSES.get(i % STATUSES.size())));
    }
    m.put("total", n(i % 5 == 0 ? Integer.toString(i % 50) : (i % 50) + "." + (i % 100)));
    m.put("title", s(i % 13 == 0 ? "" : "Order " + i + (i % 7 == 0 ? " — ünïcödé 🌍" : "")));
    m.put(
        "big",
        n(
            i % 3 == 0
                ? "12345678901234567890123456789012345678"
                : i % 3 == 1 ? "-0.000000000000000000001" : "9.99E+125"));
    m.put(
        "raw",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
            SdkBytes.fromByteArray(bytes(i, i % 17))));
    m.put(
        "paid", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBool(i % 2 == 0));
    m.put("cancelled", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(true));
    m.put(
        "lines",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
            List.of(
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                    Map.of("sku", s("sku-" + i % 9), "qty", n("2"))),
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
                    List.of(n("1"), s("nested list"))),
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(List.of()))));
    m.put(
        "address",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
            Map.of(
                "street", s(i + " Main St"),
                "__typename", s("Address"),
                "~tilde", s("kept"),
                "geo",
                    software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                        Map.of()))));
    m.put(
        "tags",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(
            List.of("t" + i % 3, "all")));
    m.put(
        "sizes",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNs(
            List.of("-1", "2.5", Integer.toString(1000 + i))));
    m.put(
        "keys",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBs(
            List.of(
                SdkBytes.fromByteArray(new byte[] {1, 2}), SdkBytes.fromByteArray(bytes(i, 4)))));
    if (i == 5) {
      m.put("document", s("d".repeat(390_000))); // near DynamoDB's 400 KB item limit
    }
    if (i == 6) {
      m.put(
          "scan",
          software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
              SdkBytes.fromByteArray(bytes(i, 380_000))));
    }
    return m;
  }

  @Test
  void dynamoDbTableWrittenByTheAwsSdkMigratesToDatastoreAzureAndAnotherNamespace() {
    String physical = "Native.Orders-" + System.nanoTime();
    DynamoDbClient sdk = ddbClient();
    long t = System.nanoTime();
    sdk.createTable(
        b ->
            b.tableName(physical)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    d -> d.attributeName("customer").attributeType(ScalarAttributeType.S),
                    d -> d.attributeName("orderNo").attributeType(ScalarAttributeType.N))
                .keySchema(
                    k -> k.attributeName("customer").keyType(KeyType.HASH),
                    k -> k.attributeName("orderNo").keyType(KeyType.RANGE)));
    List<WriteRequest> batch = new ArrayList<>();
    for (int i = 0; i < ITEMS; i++) {
      batch.add(
          WriteRequest.builder()
              .putRequest(PutRequest.builder().item(ddbOrder(i)).build())
              .build());
      if (batch.size() == 25 || i == ITEMS - 1) {
        var left = Map.of(physical, List.copyOf(batch));
        while (!left.isEmpty()) {
          var finalLeft = left;
          left = sdk.batchWriteItem(b -> b.requestItems(finalLeft)).unprocessedItems();
        }
        batch.clear();
      }
    }
    log("DynamoDB: " + ITEMS + " items written with the AWS SDK", t);

    // Adopted with a Stowage index, whose GSI the operator adds as opening the table asks for.
    sdk.updateTable(
        b ->
            b.tableName(physical)
                .attributeDefinitions(
                    d -> d.attributeName("customer").attributeType(ScalarAttributeType.S),
                    d -> d.attributeName("orderNo").attributeType(ScalarAttributeType.N),
                    d ->
                        d.attributeName("stowage:ix:byStatus:p")
                            .attributeType(ScalarAttributeType.B),
                    d ->
                        d.attributeName("stowage:ix:byStatus:s")
                            .attributeType(ScalarAttributeType.B))
                .globalSecondaryIndexUpdates(
                    u ->
                        u.create(
                            c ->
                                c.indexName("__ix_byStatus")
                                    .keySchema(
                                        k ->
                                            k.attributeName("stowage:ix:byStatus:p")
                                                .keyType(KeyType.HASH),
                                        k ->
                                            k.attributeName("stowage:ix:byStatus:s")
                                                .keyType(KeyType.RANGE))
                                    .projection(pr -> pr.projectionType(ProjectionType.ALL)))));
    TableSpec adopted = withIndex("orders", DDB_KEY, physical);
    StorageDriver ddb = dynamo();
    Table source = Stowage.builder(ddb).build().table(adopted);
    Map<Key, Item> items = readAll(source, DDB_KEY);
    assertThat(items).hasSize(ITEMS);
    Item every = items.get(Key.of("c-006", 6));
    assertThat(every.attributes().get("cancelled")).isEqualTo(AttributeValue.nullValue());

    TableSpec laidOut = withIndex("orders", DDB_KEY, null);
    // 1. Into Datastore, before the source's index is backfilled: the items carry no index values.
    Target ds = new Target("Datastore", datastore(), gcs("fromddb"), "fromddb");
    Map<String, List<List<Key>>> expectedQueries = new HashMap<>();
    for (String status : STATUSES) {
      expectedQueries.put(
          status, List.of(expected(items, status, false), expected(items, status, true)));
    }
    migrateAndCheck("DynamoDB -> Datastore", adopted, ddb, laidOut, ds, items, expectedQueries);
    // 2. The adopted source's own index, backfilled, answers as the expectation does.
    Map<String, List<List<Key>>> sourceQueries = backfillAndQuery(source, DDB_KEY, items);
    // 3. Into Azure: items near DynamoDB's limit overflow into the Azure blob store (64 KiB
    // properties).
    Target az = new Target("Azure", azure(), azureBlobs("fromddb"), "fromddb");
    migrateAndCheck("DynamoDB -> Azure", adopted, ddb, laidOut, az, items, sourceQueries);
    // 4. Into a second namespace of the same DynamoDB, laid out by Stowage.
    Target copy = new Target("DynamoDB", ddb, s3("copy"), "copy");
    migrateAndCheck(
        "DynamoDB -> DynamoDB namespace", adopted, ddb, laidOut, copy, items, sourceQueries);
    assertThat(az.blobs().list("").count()).as("Azure overflow blobs").isEqualTo(2);
  }

  // ---- Datastore ----

  static final KeySchema DS_KEY = KeySchema.of("id", STRING);

  static Value<?> excluded(Value<?> v) {
    return v.toBuilder().setExcludeFromIndexes(true).build();
  }

  static String dsName(int i) {
    return i % 37 == 0 ? "ö-" + i : String.format("o-%05d", i);
  }

  static Timestamp created(int i) {
    return Timestamp.ofTimeSecondsAndNanos(1_700_000_000L + i * 3600L, (i % 1000) * 1000);
  }

  /** Order {@code i} as an application writes it with the Datastore client: every value type. */
  static Entity dsOrder(KeyFactory kind, KeyFactory customers, int i) {
    FullEntity<IncompleteKey> address =
        FullEntity.newBuilder()
            .set("street", i + " Main St")
            .set("zip", 10_000L + i)
            .set("__typename", "Address")
            .build();
    Entity.Builder b =
        Entity.newBuilder(kind.newKey(dsName(i)))
            .set("total", i % 5 == 0 ? LongValue.of(i % 50) : DoubleValue.of((i % 50) + 0.25))
            .set("title", "Order " + i)
            .set("qty", i == 3 ? Long.MAX_VALUE : i == 4 ? Long.MIN_VALUE : (long) i)
            .set("ratio", i == 8 ? DoubleValue.of(Double.NaN) : DoubleValue.of(0.1 * (i % 10)))
            .set("paid", i % 2 == 0)
            .set("cancelledAt", NullValue.of())
            .set("createdAt", created(i))
            .set("thumb", Blob.copyFrom(bytes(i, 16)))
            .set("customerKey", customers.newKey("c" + i % 7))
            .set("shipTo", LatLng.of(-45 + (i % 100) * 0.25, 100 - (i % 100) * 0.5))
            .set("address", EntityValue.of(address))
            .set(
                "lines",
                ListValue.of(
                    EntityValue.of(
                        FullEntity.newBuilder().set("sku", "sku-" + i % 9).set("n", 2L).build())))
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
            .set("emptyList", ListValue.newBuilder().build());
    if (i % 11 != 0) {
      b.set("status", STATUSES.get(i % STATUSES.size()));
    }
    if (i == 2) {
      b.set("notes", excluded(StringValue.of("a".repeat(1_000_000)))); // near the 1 MiB limit
    }
    if (i == 7) {
      b.set("scan", excluded(BlobValue.of(Blob.copyFrom(bytes(i, 900_000)))));
    }
    return b.build();
  }

  @Test
  void datastoreKindWrittenByTheDatastoreClientMigratesToDynamoDbAzureAndAnotherNamespace() {
    Datastore client = Emulators.shared().datastore().client();
    String kindName = "NativeOrders" + System.nanoTime();
    KeyFactory kind = client.newKeyFactory().setKind(kindName);
    KeyFactory customers = client.newKeyFactory().setKind("Customer");
    long t = System.nanoTime();
    List<Entity> batch = new ArrayList<>();
    for (int i = 0; i < ITEMS; i++) {
      batch.add(dsOrder(kind, customers, i));
      if (batch.size() == (i < 10 ? 1 : 200) || i == ITEMS - 1) {
        client.put(batch.toArray(new Entity[0]));
        batch.clear();
      }
    }
    log("Datastore: " + ITEMS + " entities written with the Datastore client", t);

    TableSpec adopted = withIndex("orders", DS_KEY, kindName);
    StorageDriver driver = datastore();
    Table source = Stowage.builder(driver).build().table(adopted);
    Map<Key, Item> items = readAll(source, DS_KEY);
    assertThat(items).hasSize(ITEMS);
    Item every = items.get(Key.of(dsName(1)));
    // the documented readings of native types (docs/datastore.md, "Values other applications
    // wrote")
    assertThat(every.getString("createdAt")).isEqualTo("2023-11-14T23:13:20.000001Z");
    assertThat(every.attributes().get("shipTo"))
        .isEqualTo(
            AttributeValue.map(
                Map.of(
                    "latitude", AttributeValue.of(new BigDecimal("-44.75")),
                    "longitude", AttributeValue.of(new BigDecimal("99.5")))));
    assertThat(every.getString("customerKey")).isEqualTo(customers.newKey("c1").toUrlSafe());
    assertThat(items.get(Key.of(dsName(8))).getString("ratio")).isEqualTo("NaN");

    TableSpec laidOut = withIndex("orders", DS_KEY, null);
    Map<String, List<List<Key>>> expectedQueries = new HashMap<>();
    for (String status : STATUSES) {
      expectedQueries.put(
          status, List.of(expected(items, status, false), expected(items, status, true)));
    }
    // 1. Into DynamoDB before the source's index is backfilled: near-limit entities overflow to S3.
    StorageDriver ddb = dynamo();
    BlobStore s3 = s3("fromds");
    Target toDdb = new Target("DynamoDB", ddb, s3, "fromds");
    migrateAndCheck(
        "Datastore -> DynamoDB", adopted, driver, laidOut, toDdb, items, expectedQueries);
    assertThat(s3.list("").count()).as("S3 overflow blobs").isEqualTo(2);
    Map<String, List<List<Key>>> sourceQueries = backfillAndQuery(source, DS_KEY, items);
    // 2. Into Azure.
    Target az = new Target("Azure", azure(), azureBlobs("fromds"), "fromds");
    migrateAndCheck("Datastore -> Azure", adopted, driver, laidOut, az, items, sourceQueries);
    // 3. Into a second namespace of the same Datastore, laid out by Stowage.
    Target copy = new Target("Datastore", driver, gcs("copy"), "copy");
    migrateAndCheck(
        "Datastore -> Datastore namespace", adopted, driver, laidOut, copy, items, sourceQueries);

    // What the native types became, seen natively on the targets (docs/migration.md).
    var ddbItem =
        ddbClient().scan(b -> b.tableName("fromds.orders")).items().stream()
            .filter(m -> m.containsKey("createdAt") && m.get("title").s().equals("Order 1"))
            .findFirst()
            .orElseThrow();
    assertThat(ddbItem.get("createdAt").s()).isEqualTo("2023-11-14T23:13:20.000001Z");
    assertThat(ddbItem.get("customerKey").s()).isEqualTo(customers.newKey("c1").toUrlSafe());
    assertThat(ddbItem.get("shipTo").m().keySet())
        .containsExactlyInAnyOrder("latitude", "longitude");
    // Stowage excludes these properties from Datastore's indexes: find the entity by scanning.
    var all =
        client.run(
            com.google.cloud.datastore.Query.newEntityQueryBuilder()
                .setNamespace("copy")
                .setKind("orders")
                .build());
    Entity copied = null;
    Entity integral = null;
    while (all.hasNext()) {
      Entity e = all.next();
      if (e.contains("title") && e.getString("title").equals("Order 1")) {
        copied = e;
      }
      if (e.contains("title") && e.getString("title").equals("Order 10")) {
        integral = e;
      }
    }
    assertThat(copied).isNotNull();
    // a double holding an integer (0.0) reads as the number 0 and is written as an integer
    assertThat(client.get(kind.newKey(dsName(10))).getValue("ratio").getType())
        .isEqualTo(ValueType.DOUBLE);
    assertThat(integral.getValue("ratio").getType()).isEqualTo(ValueType.LONG);
    assertThat(copied.getValue("createdAt").getType()).isEqualTo(ValueType.STRING);
    assertThat(copied.getValue("shipTo").getType()).isEqualTo(ValueType.ENTITY);
    assertThat(copied.getValue("customerKey").getType()).isEqualTo(ValueType.STRING);
  }

  // ---- Azure Table Storage ----

  static final KeySchema AZ_KEY = KeySchema.of("customer", STRING, "orderId", STRING);

  static final OffsetDateTime EPOCH = OffsetDateTime.of(2024, 3, 1, 8, 0, 0, 0, ZoneOffset.UTC);

  /** Order {@code i} as an application writes it with the TableClient: every EDM type. */
  static TableEntity azOrder(int i) {
    TableEntity e = new TableEntity(String.format("c-%03d", i % 41), String.format("o-%05d", i));
    if (i % 11 != 0) {
      e.addProperty("status", STATUSES.get(i % STATUSES.size()));
    }
    e.addProperty("total", i % 5 == 0 ? (Object) (long) (i % 50) : (Object) ((i % 50) + 0.25));
    e.addProperty("title", i % 13 == 0 ? "" : "Order " + i);
    e.addProperty("qty", i % 1000); // Edm.Int32
    e.addProperty("serial", i == 3 ? Long.MAX_VALUE : 10_000_000_000L + i); // Edm.Int64
    e.addProperty("ratio", i % 7 == 0 ? 3.0 : 0.1 * (i % 10)); // Edm.Double, integral too
    e.addProperty("paid", i % 2 == 0); // Edm.Boolean
    e.addProperty("createdAt", EPOCH.plusSeconds(i * 3600L).plusNanos((i % 1000) * 100L));
    e.addProperty("trace", UUID.nameUUIDFromBytes(("g" + i).getBytes(StandardCharsets.UTF_8)));
    e.addProperty("thumb", bytes(i, i % 17)); // Edm.Binary
    if (i == 5) {
      // near Azure's 1 MiB entity limit: 14 properties at the 64 KiB property limit and a blob
      for (int p = 0; p < 14; p++) {
        e.addProperty(String.format("page%02d", p), Character.toString('a' + p).repeat(32_000));
      }
      e.addProperty("scan", bytes(i, 60_000));
    }
    return e;
  }

  @Test
  void azureTableWrittenByTheTableClientMigratesToDynamoDbDatastoreAndAnotherNamespace() {
    String conn = Emulators.shared().azurite().connectionString();
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(conn).buildClient();
    String physical = "NativeOrders" + (System.nanoTime() % 1_000_000_000L);
    TableClient sdk = service.createTableIfNotExists(physical);
    long t = System.nanoTime();
    Map<String, List<TableTransactionAction>> byPartition = new TreeMap<>();
    for (int i = 0; i < ITEMS; i++) {
      TableEntity e = azOrder(i);
      if (i == 5) {
        sdk.upsertEntity(e);
        continue;
      }
      List<TableTransactionAction> batch =
          byPartition.computeIfAbsent(e.getPartitionKey(), k -> new ArrayList<>());
      batch.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
      if (batch.size() == 50) {
        sdk.submitTransaction(batch);
        batch.clear();
      }
    }
    byPartition.values().stream().filter(b -> !b.isEmpty()).forEach(sdk::submitTransaction);
    log("Azure: " + ITEMS + " entities written with the TableClient", t);

    // Adopted with a Stowage index: ensureTable creates Stowage's index table for it.
    TableSpec adopted = withIndex("orders", AZ_KEY, physical);
    StorageDriver driver = azure();
    Table source = Stowage.builder(driver).build().ensureTable(adopted);
    Map<Key, Item> items = readAll(source, AZ_KEY);
    assertThat(items).hasSize(ITEMS);
    Item one = items.get(Key.of(AttributeValue.of("c-001"), AttributeValue.of("o-00001")));
    // the documented readings of EDM types (docs/azure.md, "Properties other tools wrote")
    assertThat(one.getString("createdAt")).isEqualTo("2024-03-01T09:00:00.0000001Z");
    assertThat(one.getString("trace"))
        .isEqualTo(UUID.nameUUIDFromBytes("g1".getBytes(StandardCharsets.UTF_8)).toString());
    assertThat(one.getNumber("qty")).isEqualByComparingTo("1");

    TableSpec laidOut = withIndex("orders", AZ_KEY, null);
    Map<String, List<List<Key>>> expectedQueries = new HashMap<>();
    for (String status : STATUSES) {
      expectedQueries.put(
          status, List.of(expected(items, status, false), expected(items, status, true)));
    }
    // 1. Into DynamoDB before the source's index is backfilled: the near-limit entity overflows.
    StorageDriver ddb = dynamo();
    BlobStore s3 = s3("fromaz");
    migrateAndCheck(
        "Azure -> DynamoDB",
        adopted,
        driver,
        laidOut,
        new Target("DynamoDB", ddb, s3, "fromaz"),
        items,
        expectedQueries);
    assertThat(s3.list("").count()).as("S3 overflow blobs").isEqualTo(1);
    Map<String, List<List<Key>>> sourceQueries = backfillAndQuery(source, AZ_KEY, items);
    // 2. Into Datastore.
    migrateAndCheck(
        "Azure -> Datastore",
        adopted,
        driver,
        laidOut,
        new Target("Datastore", datastore(), gcs("fromaz"), "fromaz"),
        items,
        sourceQueries);
    // 3. Into a second namespace of the same Azure account, laid out by Stowage.
    migrateAndCheck(
        "Azure -> Azure namespace",
        adopted,
        driver,
        laidOut,
        new Target("Azure", driver, azureBlobs("copyaz"), "copy"),
        items,
        sourceQueries);

    // What the EDM types became, seen natively on DynamoDB (docs/migration.md).
    var ddbItem =
        ddbClient()
            .getItem(
                b ->
                    b.tableName("fromaz.orders")
                        .key(Map.of("customer", s("c-001"), "orderId", s("o-00001"))))
            .item();
    assertThat(ddbItem.get("createdAt").s()).isEqualTo("2024-03-01T09:00:00.0000001Z");
    assertThat(ddbItem.get("trace").s()).isEqualTo(one.getString("trace"));
    assertThat(ddbItem.get("qty").n()).isEqualTo("1");
  }
}
