package dev.stowage.cli.crossbackend;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.cli.migrate.Migrator;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.StorageDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * DynamoDB Local → Datastore emulator → Azurite → DynamoDB Local (another namespace) with
 * compressed, encrypted and overflowed items; the migrator never holds the keys. Overflow blobs go
 * to Azure Blob on Azurite on the Azure hop and to in-memory blob stores elsewhere (there is no
 * offline S3 or GCS server in this module's tests; the blob copy uses only the BlobStore
 * interface).
 */
class CrossBackendMigrationTest {
  /**
   * 3,000 by default to keep the suite fast; {@code -Dstowage.crossbackend.items=50000} for the
   * full run.
   */
  static final int ITEMS = Integer.getInteger("stowage.crossbackend.items", 3000);

  static final TableSpec SPEC =
      TableSpec.builder("ledger", KeySchema.of("account", STRING, "seq", NUMBER))
          .index("byDay", List.of("day"), List.of("seq"))
          .compressed("memo")
          .encrypted("iban")
          .compressed("attachment")
          .encrypted("attachment")
          .build();

  static Emulators.DynamoLocal dynamo;
  static Emulators.Firestore firestore;
  static Emulators.Azurite azurite;
  static Codecs codecs;

  @BeforeAll
  static void start() throws Exception {
    dynamo = new Emulators.DynamoLocal();
    firestore = new Emulators.Firestore();
    azurite = new Emulators.Azurite();
    AeadConfig.register();
    codecs =
        Codecs.builder()
            .keys(
                KeyProvider.ofKeyset(KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM)))
            .build();
  }

  @AfterAll
  static void stop() {
    if (azurite != null) {
      azurite.close();
    }
    if (firestore != null) {
      firestore.close();
    }
    if (dynamo != null) {
      dynamo.close();
    }
  }

  static StorageDriver dynamoDriver() {
    return DynamoDbDriver.builder()
        .region(Region.US_EAST_1)
        .endpoint(dynamo.endpoint)
        .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
        .build();
  }

  static List<Item> originals() {
    Random random = new Random(11);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < ITEMS; i++) {
      Item.Builder b =
          Item.builder()
              .put("account", "acct-" + (i % 50))
              .put("seq", i)
              .put("day", "2026-11-" + (10 + i % 20))
              .put("amount", new java.math.BigDecimal(i + ".25"))
              .put("memo", "transfer for invoice " + i + " ".repeat(80))
              .put("iban", "DE" + (1000000 + i));
      if (i % 500 == 7) {
        byte[] attachment = new byte[500_000];
        random.nextBytes(attachment);
        b.put("attachment", attachment);
      }
      items.add(b.build());
    }
    return items;
  }

  @Test
  void dynamoToDatastoreToAzureToDynamoKeepsEveryItemWithoutTheKeys() {
    List<Item> originals = originals();
    StorageDriver ddb = dynamoDriver();
    MemoryBlobStore s3 = new MemoryBlobStore();
    Table source =
        Stowage.builder(ddb).blobStore(s3).codecs(codecs).namespace("prod").build().table(SPEC);
    source.batchPut(originals);
    int blobs = (ITEMS + 492) / 500;
    assertThat(s3.size()).isEqualTo(blobs);

    StorageDriver ds =
        DatastoreDriver.builder().projectId("test").emulatorHost(firestore.hostPort()).build();
    MemoryBlobStore gcs = new MemoryBlobStore();
    Migrator toDatastore =
        Migrator.builder(SPEC)
            .source(ddb, s3, "prod")
            .target(ds, gcs, "prod")
            .pageSize(500)
            .build();
    Migrator.Report first = toDatastore.run();
    assertThat(first.progress().itemsCopied()).isEqualTo(ITEMS);
    assertThat(first.progress().blobsCopied()).isEqualTo(blobs);
    assertThat(first.misfits()).isEmpty();
    assertThat(toDatastore.verify().ok()).isTrue();

    MemoryBlobStore s3Back = new MemoryBlobStore();
    Migrator back =
        Migrator.builder(SPEC)
            .source(ds, gcs, "prod")
            .target(ddb, s3Back, "back")
            .pageSize(500)
            .build();
    assertThat(back.run().progress().itemsCopied()).isEqualTo(ITEMS);
    assertThat(back.verify().ok()).isTrue();
    assertThat(s3Back.list("back/ledger/").count()).isEqualTo(blobs);

    Table result =
        Stowage.builder(dynamoDriver())
            .blobStore(s3Back)
            .codecs(codecs)
            .namespace("back")
            .build()
            .table(SPEC);
    Map<Key, Item> read = result.batchGet(originals.stream().map(SPEC.keySchema()::keyOf).toList());
    assertThat(read).hasSize(ITEMS);
    for (Item original : originals) {
      assertThat(read.get(SPEC.keySchema().keyOf(original))).isEqualTo(original);
    }
    Table onDatastore =
        Stowage.builder(ds).blobStore(gcs).codecs(codecs).namespace("prod").build().table(SPEC);
    assertThat(
            onDatastore
                .queryAll(
                    dev.stowage.query.Query.index("byDay")
                        .partition(dev.stowage.item.AttributeValue.of("2026-11-17"))
                        .build())
                .count())
        .isEqualTo(ITEMS / 20);
  }
}
