package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A ciphertext only decrypts at the table, key and attribute it was written for. */
class SwapTest {
  private static final String KEYSET = TestKeys.json(TestKeys.fresh());
  private static final Codecs CODECS =
      Codecs.builder().keys(KeyProvider.ofCleartextJsonKeyset(KEYSET)).build();
  private static final AttributeValue SECRET = AttributeValue.of("salary 120000");

  @Test
  void movingCiphertextToAnotherPlaceFails() {
    Key key = Key.of("emp#1", "2024");
    for (AttributePolicy policy :
        List.of(AttributePolicy.ENCRYPTED, AttributePolicy.COMPRESSED_AND_ENCRYPTED)) {
      AttributeValue stored = CODECS.encode("people", key, "pay", policy, SECRET);
      List<Runnable> swaps =
          List.of(
              () -> CODECS.decode("people2", key, "pay", policy, stored),
              () -> CODECS.decode("peopl", key, "pay", policy, stored),
              () -> CODECS.decode("people", Key.of("emp#2", "2024"), "pay", policy, stored),
              () -> CODECS.decode("people", Key.of("emp#1", "2025"), "pay", policy, stored),
              () -> CODECS.decode("people", Key.of("emp#1"), "pay", policy, stored),
              () -> CODECS.decode("people", key, "bonus", policy, stored),
              () -> CODECS.decode("people", key, "Pay", policy, stored));
      for (Runnable swap : swaps) {
        assertThatThrownBy(swap::run)
            .isInstanceOf(IntegrityException.class)
            .hasMessageContaining("decryption failed");
      }
      assertThat(CODECS.decode("people", key, "pay", policy, stored)).isEqualTo(SECRET);
    }
  }

  @Test
  void keyValuesOfDifferentTypesAreDifferentKeys() {
    Key numeric = Key.of(AttributeValue.of(1));
    Key text = Key.of("1");
    Key binary = Key.of(AttributeValue.of(new byte[] {'1'}));
    AttributeValue stored = CODECS.encode("t", numeric, "a", AttributePolicy.ENCRYPTED, SECRET);
    assertThatThrownBy(() -> CODECS.decode("t", text, "a", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class);
    assertThatThrownBy(() -> CODECS.decode("t", binary, "a", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class);
    // Equal numbers are the same key however they are written.
    Key same = Key.of(AttributeValue.of(new BigDecimal("1.000")));
    assertThat(CODECS.decode("t", same, "a", AttributePolicy.ENCRYPTED, stored)).isEqualTo(SECRET);
  }

  @Test
  void boundariesBetweenTableKeyAndAttributeAreUnambiguous() {
    // Shifting characters between the table and attribute names must not reuse a ciphertext.
    Key key = Key.of("k");
    AttributeValue stored = CODECS.encode("ab", key, "c", AttributePolicy.ENCRYPTED, SECRET);
    assertThatThrownBy(() -> CODECS.decode("a", key, "bc", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class);
  }

  @Test
  void ciphertextIsPortableAcrossCodecInstancesNamespacesAndBackends() {
    // The codec never sees the namespace or backend: a copy of the bytes decodes anywhere the
    // same keyset is configured.
    Key key = Key.of(AttributeValue.of(Bytes.of(new byte[] {0, 1, 2})));
    AttributeValue stored =
        CODECS.encode("ledger", key, "iban", AttributePolicy.COMPRESSED_AND_ENCRYPTED, SECRET);
    Codecs elsewhere = Codecs.builder().keys(KeyProvider.ofCleartextJsonKeyset(KEYSET)).build();
    AttributeValue copied =
        AttributeValue.of(Bytes.of(((AttributeValue.BinaryValue) stored).value().toByteArray()));
    assertThat(elsewhere.decode("ledger", key, "iban", AttributePolicy.ENCRYPTED, copied))
        .isEqualTo(SECRET);
  }
}
