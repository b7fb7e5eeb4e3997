package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore.BlobInfo;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.test.Emulators;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * DynamoDB Local enforces the 400 KB item limit: items of 399 KB, 401 KB and 5 MB all round trip
 * through Stowage, the larger ones overflowing to S3 (S3Proxy).
 */
class OverflowRoundTripTest {
  static Stowage stowage;
  static S3BlobStore blobs;
  static Table table;
  static String namespace = "ovf" + Long.toString(System.nanoTime() % 1_000_000, 36);

  @BeforeAll
  static void setUp() {
    Emulators e = Emulators.shared();
    blobs =
        S3BlobStore.builder()
            .client(e.s3().client())
            .bucket(e.s3().newBucket())
            .prefix("blobs")
            .build();
    stowage =
        Stowage.builder(DynamoDbDriver.create(e.dynamoDb().client()))
            .blobStore(blobs)
            .namespace(namespace)
            .build();
    table =
        stowage.ensureTable(
            TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build());
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("docs");
    stowage.close();
  }

  private static Item item(String id, int bytes) {
    byte[] body = new byte[bytes];
    new Random(bytes).nextBytes(body);
    return Item.builder().put("id", id).put("title", "t-" + id).put("body", body).build();
  }

  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> raw(
      String id) {
    GetItemResponse r =
        Emulators.shared()
            .dynamoDb()
            .client()
            .getItem(
                b ->
                    b.tableName(namespace + ".docs")
                        .key(
                            Map.of(
                                "id",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                    id))));
    return r.item();
  }

  private static long blobCount() {
    try (Stream<BlobInfo> s = blobs.list("")) {
      return s.count();
    }
  }

  @Test
  void itemsOf399Kb401KbAnd5MbRoundTrip() {
    long before = blobCount();
    Item small = item("kb399", 399 * 1024);
    table.put(small);
    assertThat(raw("kb399")).doesNotContainKey("stowage:ovf");
    assertThat(blobCount()).isEqualTo(before);

    Item over = item("kb401", 401 * 1024);
    table.put(over);
    assertThat(raw("kb401")).containsKey("stowage:ovf");

    Item huge = item("mb5", 5 * 1024 * 1024);
    table.put(huge);
    assertThat(raw("mb5")).containsKey("stowage:ovf");
    assertThat(blobCount()).isEqualTo(before + 2);

    for (Item i : List.of(small, over, huge)) {
      assertThat(table.get(Key.of(i.getString("id")), ReadOptions.CONSISTENT)).contains(i);
    }
    assertThat(table.batchGet(List.of(Key.of("kb399"), Key.of("kb401"), Key.of("mb5"))).values())
        .containsExactlyInAnyOrder(small, over, huge);
    assertThat(table.queryAll(Query.partition("mb5").build()).toList()).containsExactly(huge);

    table.delete(Key.of("mb5"));
    table.delete(Key.of("kb401"));
    assertThat(blobCount()).isEqualTo(before);
  }
}
