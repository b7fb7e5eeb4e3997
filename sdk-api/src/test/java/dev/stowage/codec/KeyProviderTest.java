package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkProtoKeysetFormat;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every way of supplying keys, against a local stand-in for a cloud KMS. */
class KeyProviderTest {
  private static final Key KEY = Key.of("k");
  private static final AttributeValue VALUE = AttributeValue.of("secret");

  @Test
  void cleartextJsonFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keyset.json");
    Files.writeString(file, TestKeys.fixedKeysetJson());
    KeyProvider p = KeyProvider.ofCleartextJsonKeysetFile(file);
    assertThat(p.primaryKeyId()).contains(0x5A5A0001);
    assertThat(p.toString()).contains("keyset.json").doesNotContain("GiC4");
    roundTrip(p, p);
    assertThatThrownBy(() -> KeyProvider.ofCleartextJsonKeysetFile(dir.resolve("absent.json")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("cannot read keyset file");
    Files.writeString(file, "{\"not\":\"a keyset\"}");
    assertThatThrownBy(() -> KeyProvider.ofCleartextJsonKeysetFile(file))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("not a valid Tink JSON keyset");
  }

  @Test
  void keysetEncryptedUnderAKmsKeyCallsTheKmsOnce() throws Exception {
    FakeKms kms = new FakeKms();
    String uri = "fake-kms://keyset-kek";
    KeysetHandle keyset = TestKeys.fresh();
    byte[] encrypted =
        TinkProtoKeysetFormat.serializeEncryptedKeyset(
            keyset, kms.getAead(uri), new byte[0], RegistryConfiguration.get());
    kms.calls.set(0);
    KeyProvider p = KeyProvider.ofKmsEncryptedKeyset(kms, uri, encrypted);
    assertThat(kms.calls.get()).isEqualTo(1);
    Codecs codecs = Codecs.builder().keys(p).build();
    for (int i = 0; i < 10; i++) {
      AttributeValue stored = codecs.encode("t", KEY, "a", AttributePolicy.ENCRYPTED, VALUE);
      assertThat(codecs.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, stored)).isEqualTo(VALUE);
    }
    assertThat(kms.calls.get()).isEqualTo(1);
    assertThat(p.primaryKeyId()).contains(keyset.getPrimary().getId());
    // Values interoperate with the same keyset supplied in the clear.
    roundTrip(p, KeyProvider.ofKeyset(keyset));

    assertThatThrownBy(
            () -> KeyProvider.ofKmsEncryptedKeyset(kms, "fake-kms://other-kek", encrypted))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("cannot decrypt");
    assertThatThrownBy(() -> KeyProvider.ofKmsEncryptedKeyset(kms, "aws-kms://arn", encrypted))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("does not support");
  }

  @Test
  void keysetEncryptedUnderAnyAead() throws Exception {
    FakeKms kms = new FakeKms();
    var kek = kms.getAead("fake-kms://kek");
    KeysetHandle keyset = TestKeys.fresh();
    byte[] ad = "stowage keyset".getBytes(StandardCharsets.UTF_8);
    byte[] encrypted =
        TinkProtoKeysetFormat.serializeEncryptedKeyset(
            keyset, kek, ad, RegistryConfiguration.get());
    roundTrip(KeyProvider.ofEncryptedKeyset(encrypted, kek, ad), KeyProvider.ofKeyset(keyset));
    assertThatThrownBy(() -> KeyProvider.ofEncryptedKeyset(encrypted, kek, new byte[0]))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void kmsEnvelopePerValue() {
    FakeKms kms = new FakeKms();
    KeyProvider p = KeyProvider.ofKmsEnvelope(kms, "fake-kms://envelope");
    assertThat(p.primaryKeyId()).isEmpty();
    Codecs codecs = Codecs.builder().keys(p).build();
    AttributeValue stored =
        codecs.encode("t", KEY, "a", AttributePolicy.COMPRESSED_AND_ENCRYPTED, VALUE);
    assertThat(kms.calls.get()).isEqualTo(1);
    assertThat(codecs.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, stored)).isEqualTo(VALUE);
    assertThat(kms.calls.get()).isEqualTo(2);
    assertThat(codecs.needsReencryption(stored)).isFalse();
    // Still bound to its place.
    assertThatThrownBy(() -> codecs.decode("t", KEY, "b", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class);
    // An unreachable KMS: writes may be retried, reads say what may have happened.
    kms.down = true;
    assertThatThrownBy(() -> codecs.encode("t", KEY, "a", AttributePolicy.ENCRYPTED, VALUE))
        .isInstanceOf(dev.stowage.UnavailableException.class)
        .hasMessageContaining("KMS");
    assertThatThrownBy(() -> codecs.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("KMS could not be reached");
  }

  @Test
  void nonAeadKeysetsAreRejected() throws Exception {
    KeysetHandle mac =
        KeysetHandle.generateNew(
            com.google.crypto.tink.mac.PredefinedMacParameters.HMAC_SHA256_128BITTAG,
            RegistryConfiguration.get());
    assertThatThrownBy(() -> KeyProvider.ofKeyset(mac))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("AEAD");
  }

  private static void roundTrip(KeyProvider writer, KeyProvider reader) {
    Codecs w = Codecs.builder().keys(writer).build();
    Codecs r = Codecs.builder().keys(reader).build();
    AttributeValue stored = w.encode("t", KEY, "a", AttributePolicy.ENCRYPTED, VALUE);
    assertThat(r.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, stored)).isEqualTo(VALUE);
  }
}
