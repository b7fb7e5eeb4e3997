package dev.stowage.cli;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.test.Emulators;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code stowage migrate --from-adopt} on DynamoDB Local: a table the AWS SDK wrote (every DynamoDB
 * type, an item near 400 KB) is copied by the command line into a second namespace laid out by
 * Stowage and into the Datastore emulator, each with the target's own byStatus index, and every
 * item and index query of both copies is checked.
 */
class NativeMigrateCommandTest {
  static final int ITEMS = 200;
  static final List<String> STATUSES = List.of("new", "paid", "shipped");
  static final KeySchema KEY = KeySchema.of("customer", STRING, "orderNo", NUMBER);

  @TempDir Path dir;

  static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> order(int i) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> m =
        new LinkedHashMap<>();
    m.put("customer", s("c-" + i % 13));
    m.put("orderNo", n(Integer.toString(i)));
    if (i % 9 != 0) {
      m.put("status", s(STATUSES.get(i % STATUSES.size())));
    }
    m.put("total", n((i % 20) + "." + (i % 10)));
    m.put("big", n("12345678901234567890123456789012345678"));
    m.put(
        "raw",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(
            SdkBytes.fromByteArray(new byte[] {(byte) i, 0, -1})));
    m.put(
        "paid", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBool(i % 2 == 0));
    m.put("note", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(true));
    m.put(
        "lines",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
            List.of(
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(
                    Map.of("sku", s("sku-" + i), "__typename", s("Line"))),
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
                    List.of(n("1"))))));
    m.put(
        "tags",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(List.of("a", "b")));
    m.put(
        "sizes",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNs(
            List.of("-1", Integer.toString(100 + i))));
    m.put(
        "keys",
        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBs(
            List.of(SdkBytes.fromByteArray(new byte[] {1}))));
    if (i == 7) {
      m.put("document", s("d".repeat(390_000)));
    }
    return m;
  }

  static Map<Key, Item> readAll(Table t) {
    Map<Key, Item> out = new TreeMap<>();
    Page p = t.scan(Scan.all().withLimit(500));
    while (true) {
      p.items().forEach(i -> out.put(KEY.keyOf(i), i));
      if (!p.hasAfter() || p.after().isEmpty()) {
        return out;
      }
      p = t.page(p.after().get());
    }
  }

  @Test
  void migratesATableTheAwsSdkWroteIntoAnotherNamespaceWithItsOwnIndex() throws Exception {
    DynamoDbClient sdk = Emulators.shared().dynamoDb().client();
    String physical = "Cli.Native-" + System.nanoTime();
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
    for (int i = 0; i < ITEMS; i++) {
      var item = order(i);
      sdk.putItem(b -> b.tableName(physical).item(item));
    }
    String endpoint = Emulators.shared().dynamoDb().endpoint().toString();
    String store =
        "dynamodb://orders?region=us-east-1&accessKey=local&secretKey=local&endpoint=" + endpoint;
    Path targetSpec = dir.resolve("target.json");
    Files.writeString(
        targetSpec,
        "{\"key\":\"customer:S\",\"sort\":\"orderNo:N\",\"indexes\":[\"byStatus=status/total\"]}");
    Path blobs = Files.createDirectories(dir.resolve("blobs"));

    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            store,
            "--from-adopt",
            physical,
            "--pk",
            "customer:S",
            "--sk",
            "orderNo:N",
            "--to",
            store + "&namespace=cli",
            "--to-spec",
            targetSpec.toString(),
            "--to-blobs",
            blobs.toUri().toString(),
            "--checkpoint",
            dir.resolve("cp").toString());
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("(adopted '" + physical + "') -> dynamodb:cli.orders")
        .contains("copied " + ITEMS + " item(s)")
        .contains(
            "verification: source "
                + ITEMS
                + ", target "
                + ITEMS
                + ", missing 0, extra 0, different 0 -> OK");

    // A second hop through the command line, across backends: into the Datastore emulator.
    String datastore =
        "datastore://orders?project=test&namespace=cli&emulator="
            + Emulators.shared().datastore().hostPort();
    Path dsBlobs = Files.createDirectories(dir.resolve("ds-blobs"));
    Cli.Result toDatastore =
        Cli.run(
            "migrate",
            "--from",
            store,
            "--from-adopt",
            physical,
            "--pk",
            "customer:S",
            "--sk",
            "orderNo:N",
            "--to",
            datastore,
            "--to-spec",
            targetSpec.toString(),
            "--to-blobs",
            dsBlobs.toUri().toString(),
            "--page-size",
            "2000");
    assertThat(toDatastore.code()).as(toDatastore.err() + toDatastore.out()).isZero();
    assertThat(toDatastore.out())
        .contains("(adopted '" + physical + "') -> datastore:cli.orders")
        .contains("different 0 -> OK");

    DynamoDbDriver driver = DynamoDbDriver.create(sdk);
    Table source =
        Stowage.builder(driver)
            .build()
            .table(TableSpec.builder("orders", KEY).adopt(physical).build());
    TableSpec spec =
        TableSpec.builder("orders", KEY)
            .index("byStatus", List.of("status"), List.of("total"))
            .build();
    Table copy =
        Stowage.builder(driver)
            .blobStore(new FileBlobStore(blobs))
            .namespace("cli")
            .build()
            .table(spec);
    Table datastoreCopy =
        Stowage.builder(
                DatastoreDriver.builder()
                    .projectId("test")
                    .emulatorHost(Emulators.shared().datastore().hostPort())
                    .build())
            .blobStore(new FileBlobStore(dsBlobs))
            .namespace("cli")
            .build()
            .table(spec);
    Map<Key, Item> items = readAll(source);
    assertThat(items).hasSize(ITEMS);
    assertThat(readAll(copy)).isEqualTo(items);
    assertThat(readAll(datastoreCopy)).isEqualTo(items);
    for (Table t : List.of(copy, datastoreCopy)) {
      assertByStatus(t, items);
    }
  }

  static void assertByStatus(Table copy, Map<Key, Item> items) {
    for (String status : STATUSES) {
      List<Key> expected = new ArrayList<>();
      items.entrySet().stream()
          .filter(e -> e.getValue().find("status").isPresent())
          .filter(e -> e.getValue().getString("status").equals(status))
          .sorted(
              java.util.Comparator.<Map.Entry<Key, Item>, java.math.BigDecimal>comparing(
                      e -> e.getValue().getNumber("total"))
                  .thenComparing(Map.Entry::getKey))
          .forEach(e -> expected.add(e.getKey()));
      assertThat(
              copy.queryAll(Query.index("byStatus").partition(AttributeValue.of(status)).build())
                  .map(KEY::keyOf)
                  .toList())
          .as(status)
          .isEqualTo(expected);
    }
  }
}
