package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plaintext in attributes declared encrypted: accepted during migration, rejected afterwards. */
class PlaintextPolicyTest {
  private static final Key KEY = Key.of("u#1");
  private static final KeyProvider KEYS = KeyProvider.ofKeyset(TestKeys.fresh());
  private static final Codecs FORBID = Codecs.builder().keys(KEYS).build();
  private static final Codecs ALLOW =
      Codecs.builder().keys(KEYS).plaintextPolicy(PlaintextPolicy.ALLOW).build();

  /** Values written before the attribute was declared encrypted. */
  private static List<AttributeValue> legacy() {
    AttributeValue doc = AttributeValue.of(Values.json(800, 2));
    return List.of(
        AttributeValue.of("an old email"),
        AttributeValue.of(42),
        AttributeValue.of(new byte[] {1, 2, 3}),
        AttributeValue.map(java.util.Map.of("k", AttributeValue.of(true))),
        // Compressed before encryption was added to the policy.
        FORBID.encode("t", KEY, "email", AttributePolicy.COMPRESSED, doc),
        // An escaped binary (no-op envelope) written under a compressed policy, below its
        // threshold.
        FORBID.encode(
            "t",
            KEY,
            "email",
            AttributePolicy.COMPRESSED,
            AttributeValue.of(new byte[] {(byte) 0xF5, 0x53})));
  }

  @Test
  void forbidRejectsPlaintextInEncryptedAttributes() {
    for (AttributeValue stored : legacy()) {
      for (AttributePolicy policy :
          List.of(AttributePolicy.ENCRYPTED, AttributePolicy.COMPRESSED_AND_ENCRYPTED)) {
        assertThatThrownBy(() -> FORBID.decode("t", KEY, "email", policy, stored))
            .isInstanceOf(IntegrityException.class)
            .hasMessageContaining("plaintext")
            .hasMessageContaining("PlaintextPolicy.ALLOW")
            .hasMessageContaining("attribute 'email'");
      }
    }
  }

  @Test
  void allowReadsPlaintextDuringMigration() {
    for (AttributeValue stored : legacy()) {
      AttributeValue expected = ALLOW.decode("t", KEY, "email", AttributePolicy.PLAIN, stored);
      assertThat(ALLOW.decode("t", KEY, "email", AttributePolicy.ENCRYPTED, stored))
          .isEqualTo(expected);
      assertThat(ALLOW.needsRewrite(AttributePolicy.ENCRYPTED, stored)).isTrue();
    }
  }

  @Test
  void writesAlwaysEncryptAndPlainPoliciesIgnoreThePlaintextPolicy() {
    AttributeValue v = AttributeValue.of("x");
    AttributeValue stored = ALLOW.encode("t", KEY, "email", AttributePolicy.ENCRYPTED, v);
    assertThat(stored).isNotEqualTo(v);
    assertThat(FORBID.decode("t", KEY, "email", AttributePolicy.ENCRYPTED, stored)).isEqualTo(v);
    assertThat(FORBID.decode("t", KEY, "email", AttributePolicy.PLAIN, v)).isEqualTo(v);
    assertThat(FORBID.decode("t", KEY, "email", AttributePolicy.COMPRESSED, v)).isEqualTo(v);
    // Encryption turned off later: old ciphertext still reads under the plain policy.
    assertThat(FORBID.decode("t", KEY, "email", AttributePolicy.PLAIN, stored)).isEqualTo(v);
  }
}
