package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import org.junit.jupiter.api.Test;

/** Key rotation: a new primary encrypts, old keys decrypt, and re-encryption finds old values. */
class RotationTest {
  private static final Key KEY = Key.of("acct#9");
  private static final AttributeValue VALUE = AttributeValue.of(Values.json(500, 5));

  @Test
  void rotatedKeysetReadsOldValuesAndWritesUnderTheNewPrimary() {
    KeysetHandle v1 = TestKeys.fresh();
    KeysetHandle v2 = TestKeys.rotate(v1);
    Codecs before = TestKeys.codecs(v1);
    Codecs after = TestKeys.codecs(v2);
    assertThat(after.keys().orElseThrow().primaryKeyId())
        .contains(v2.getPrimary().getId())
        .isNotEqualTo(before.keys().orElseThrow().primaryKeyId());

    for (AttributePolicy policy :
        new AttributePolicy[] {
          AttributePolicy.ENCRYPTED, AttributePolicy.COMPRESSED_AND_ENCRYPTED
        }) {
      AttributeValue old = before.encode("t", KEY, "a", policy, VALUE);
      assertThat(before.needsReencryption(old)).isFalse();
      assertThat(after.needsReencryption(old)).isTrue();
      assertThat(after.needsRewrite(policy, old)).isTrue();
      assertThat(after.decode("t", KEY, "a", policy, old)).isEqualTo(VALUE);

      // What the re-encryption job does: decode, encode, write conditionally.
      AttributeValue rewritten =
          after.encode("t", KEY, "a", policy, after.decode("t", KEY, "a", policy, old));
      assertThat(after.needsReencryption(rewritten)).isFalse();
      assertThat(after.needsRewrite(policy, rewritten)).isFalse();
      // The old keyset does not know the new key.
      assertThatThrownBy(() -> before.decode("t", KEY, "a", policy, rewritten))
          .isInstanceOf(IntegrityException.class)
          .hasMessageContaining("missing key")
          .hasMessageContaining(Integer.toUnsignedString(v2.getPrimary().getId()));

      // After the old key is removed, a value left under it fails, naming the missing key id.
      Codecs pruned = TestKeys.codecs(TestKeys.primaryOnly(v2));
      assertThat(pruned.decode("t", KEY, "a", policy, rewritten)).isEqualTo(VALUE);
      assertThatThrownBy(() -> pruned.decode("t", KEY, "a", policy, old))
          .isInstanceOf(IntegrityException.class)
          .hasMessageContaining("missing key")
          .hasMessageContaining(Integer.toUnsignedString(v1.getPrimary().getId()));
    }
  }

  @Test
  void wrongKeysetIsAnIntegrityErrorNotAMissingKey() {
    // A different keyset whose key happens to carry the same id (ids are small random ints) is
    // indistinguishable from tampering: the message says so.
    KeysetHandle a = TestKeys.fresh();
    Codecs writer = TestKeys.codecs(a);
    AttributeValue stored = writer.encode("t", KEY, "a", AttributePolicy.ENCRYPTED, VALUE);
    Codecs stranger = TestKeys.codecs(TestKeys.fresh());
    assertThatThrownBy(() -> stranger.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("attribute 'a'");
  }

  @Test
  void needsRewriteCoversPolicyChanges() {
    Codecs codecs = TestKeys.codecs(TestKeys.fresh());
    AttributeValue plain = AttributeValue.of("x");
    AttributeValue compressed = codecs.encode("t", KEY, "a", AttributePolicy.COMPRESSED, VALUE);
    AttributeValue encrypted = codecs.encode("t", KEY, "a", AttributePolicy.ENCRYPTED, plain);
    // Plaintext left in an attribute now declared encrypted.
    assertThat(codecs.needsRewrite(AttributePolicy.ENCRYPTED, plain)).isTrue();
    assertThat(codecs.needsRewrite(AttributePolicy.ENCRYPTED, compressed)).isTrue();
    // Ciphertext in an attribute no longer declared encrypted.
    assertThat(codecs.needsRewrite(AttributePolicy.PLAIN, encrypted)).isTrue();
    // Compression differences alone are not worth a rewrite.
    assertThat(codecs.needsRewrite(AttributePolicy.PLAIN, compressed)).isFalse();
    assertThat(codecs.needsRewrite(AttributePolicy.COMPRESSED, plain)).isFalse();
    assertThat(codecs.needsRewrite(AttributePolicy.COMPRESSED_AND_ENCRYPTED, encrypted)).isFalse();
    assertThat(codecs.needsReencryption(plain)).isFalse();
    assertThat(codecs.needsReencryption(compressed)).isFalse();
    assertThat(Codecs.defaults().needsReencryption(encrypted)).isFalse();
  }
}
