package dev.stowage.test;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import dev.stowage.test.internal.Ports;
import org.junit.jupiter.api.Test;

/** Each emulator starts, answers its native client, and is shared by later callers. */
class EmulatorsTest {
  private final Emulators emulators = Emulators.shared();

  @Test
  void dynamoDbLocalAnswersItsClient() {
    assertThat(emulators.dynamoDb().client().listTables().tableNames()).isNotNull();
    assertThat(emulators.dynamoDb()).isSameAs(emulators.dynamoDb());
  }

  @Test
  void s3ProxyHoldsBucketsAndObjects() {
    S3Emulator s3 = emulators.s3();
    String bucket = s3.newBucket();
    s3.client()
        .putObject(
            b -> b.bucket(bucket).key("k"),
            software.amazon.awssdk.core.sync.RequestBody.fromString("v"));
    assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("v");
  }

  @Test
  void firestoreEmulatorInDatastoreModeStoresEntities() {
    DatastoreEmulator emulator = emulators.datastore();
    try (Datastore client = emulator.client()) {
      Key key = client.newKeyFactory().setKind("Thing").newKey("a");
      client.put(Entity.newBuilder(key).set("n", 1).build());
      assertThat(client.get(key).getLong("n")).isEqualTo(1);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(emulators.datastore()).isSameAs(emulator);
  }

  @Test
  void azuriteListensOnBothServices() {
    Azurite azurite = emulators.azurite();
    assertThat(Ports.listening(azurite.blobEndpoint().getPort())).isTrue();
    assertThat(Ports.listening(azurite.tableEndpoint().getPort())).isTrue();
    assertThat(azurite.connectionString())
        .contains("AccountName=devstoreaccount1")
        .contains("TableEndpoint=" + azurite.tableEndpoint());
  }

  @Test
  void theCloudStorageFakeIsShared() {
    assertThat(emulators.gcs()).isSameAs(emulators.gcs());
  }

  @Test
  void namespacesAreNeverReused() {
    assertThat(emulators.newNamespace())
        .isNotEqualTo(emulators.newNamespace())
        .matches("t[0-9a-z]+");
  }
}
