package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.mac.MacConfig;
import com.google.crypto.tink.mac.PredefinedMacParameters;
import dev.stowage.InvalidCursorException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Which keys seal cursors by default, and what a cursor under a key the store lacks reports. */
class CursorKeysTest {
  private final MemoryDriver driver = MemoryDriver.create();
  private static final TableSpec SPEC =
      TableSpec.builder(
              "events", KeySchema.of("feed", AttributeType.STRING, "at", AttributeType.NUMBER))
          .build();

  private static Table filled(Stowage store) {
    Table t = store.ensureTable(SPEC);
    for (int i = 0; i < 5; i++) {
      t.put(Item.builder().put("feed", "f").put("at", i).build());
    }
    return t;
  }

  private static String cursor(Table t) {
    Page p = t.query(Query.partition("f").limit(2).build());
    return p.after().orElseThrow();
  }

  @Test
  void aKmsEnvelopeProviderIsNotCalledForCursors() {
    FakeKms kms = new FakeKms();
    Codecs envelope = Codecs.builder().keys(KeyProvider.ofKmsEnvelope(kms, "fake-kms://k")).build();
    Table a = filled(Stowage.builder(driver).codecs(envelope).build());
    Table b = Stowage.builder(driver).codecs(envelope).build().ensureTable(SPEC);
    int before = kms.calls.get();
    assertThat(b.page(cursor(a)).items()).hasSize(2);
    assertThat(kms.calls.get()).as("no KMS call per cursor").isEqualTo(before);
  }

  @Test
  void aCodecKeysetSealsCursorsUnderItsPrimaryKeyId() {
    KeyProvider keys = KeyProvider.ofKeyset(TestKeys.fresh());
    Table t = filled(Stowage.builder(driver).codecs(Codecs.builder().keys(keys).build()).build());
    byte[] sealed = Base64.getUrlDecoder().decode(cursor(t));
    assertThat(sealed[0]).as("Tink output prefix").isEqualTo((byte) 1);
    int keyId =
        ((sealed[1] & 0xFF) << 24)
            | ((sealed[2] & 0xFF) << 16)
            | ((sealed[3] & 0xFF) << 8)
            | (sealed[4] & 0xFF);
    assertThat(keyId).isEqualTo(keys.primaryKeyId().orElseThrow());
  }

  @Test
  void anUnknownKeyIsNamedWithTheKeysTheStoreUses() {
    Table a = filled(Stowage.builder(driver).build());
    Table b =
        Stowage.builder(driver).codecs(TestKeys.codecs(TestKeys.fresh())).build().ensureTable(SPEC);
    InvalidCursorException e =
        catchThrowableOfType(InvalidCursorException.class, () -> b.page(cursor(a)));
    assertThat(e.reason()).isEqualTo(InvalidCursorException.Reason.UNKNOWN_KEY);
    assertThat(e.getMessage()).contains("the store's codec keyset").doesNotContain("AES");
    assertThat(e.retryable()).isFalse();
  }

  @Test
  void aCursorKeysetMustBeAnAeadKeyset() throws Exception {
    MacConfig.register();
    KeysetHandle mac = KeysetHandle.generateNew(PredefinedMacParameters.HMAC_SHA256_128BITTAG);
    assertThatThrownBy(() -> Stowage.builder(driver).cursorKeys(mac))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("AEAD");
  }
}
