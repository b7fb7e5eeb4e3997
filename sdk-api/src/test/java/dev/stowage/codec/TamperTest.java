package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every single-byte change, truncation or extension of an envelope is an integrity error. The only
 * exception is the two magic bytes of an envelope read where plaintext is acceptable: without its
 * magic the value is an ordinary binary value (as written before the attribute was encoded).
 */
class TamperTest {
  private static final Key KEY = Key.of("customer#7", "order#2");
  private static final ZstdDictionary DICT =
      ZstdDictionary.of(42, Values.json(4000, 3).getBytes(StandardCharsets.UTF_8));
  private static final Codecs CODECS =
      Codecs.builder()
          .keys(KeyProvider.ofKeyset(TestKeys.fresh()))
          .dictionary("doc", DICT)
          .plaintextPolicy(PlaintextPolicy.FORBID)
          .build();
  private static final int[] FLIPS = {0x01, 0x80, 0xFF};

  static Stream<Arguments> envelopes() {
    AttributeValue json = AttributeValue.of(Values.json(3000, 11));
    AttributeValue small = AttributeValue.of("card 4111-1111");
    AttributeValue lookalike = AttributeValue.of(new byte[] {(byte) 0xF5, 0x53, 1, 2, 3});
    return Stream.of(
        Arguments.of("encrypted", "note", AttributePolicy.ENCRYPTED, small),
        Arguments.of(
            "compressed+encrypted", "body", AttributePolicy.COMPRESSED_AND_ENCRYPTED, json),
        Arguments.of("dictionary+encrypted", "doc", AttributePolicy.COMPRESSED_AND_ENCRYPTED, json),
        Arguments.of("compressed", "body", AttributePolicy.COMPRESSED, json),
        Arguments.of("dictionary", "doc", AttributePolicy.COMPRESSED, json),
        Arguments.of("escaped binary", "raw", AttributePolicy.COMPRESSED, lookalike));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envelopes")
  void everyByteFlipIsDetected(
      String name, String attribute, AttributePolicy policy, AttributeValue value) {
    byte[] env = envelope(attribute, policy, value);
    assertThat(CODECS.decode("orders", KEY, attribute, policy, stored(env))).isEqualTo(value);
    for (int i = 0; i < env.length; i++) {
      for (int flip : FLIPS) {
        byte[] bad = env.clone();
        bad[i] ^= (byte) flip;
        if (i < 2 && !policy.encrypted()) {
          // No magic: an ordinary binary value, returned as stored.
          assertThat(CODECS.decode("orders", KEY, attribute, policy, stored(bad)))
              .isEqualTo(stored(bad));
          continue;
        }
        int at = i;
        assertThatThrownBy(() -> CODECS.decode("orders", KEY, attribute, policy, stored(bad)))
            .as("%s: flip 0x%x at byte %d of %d", name, flip, at, env.length)
            .isInstanceOf(IntegrityException.class)
            .hasMessageContaining("table 'orders'")
            .hasMessageContaining(KEY.toString())
            .hasMessageContaining("attribute '" + attribute + "'");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("envelopes")
  void everyTruncationAndExtensionIsDetected(
      String name, String attribute, AttributePolicy policy, AttributeValue value) {
    byte[] env = envelope(attribute, policy, value);
    int from = policy.encrypted() ? 0 : 2;
    for (int n = from; n < env.length; n++) {
      byte[] cut = Arrays.copyOf(env, n);
      assertThatThrownBy(() -> CODECS.decode("orders", KEY, attribute, policy, stored(cut)))
          .as("%s truncated to %d bytes", name, n)
          .isInstanceOf(IntegrityException.class);
    }
    for (int extra : new int[] {0, 1, 0x80}) {
      byte[] longer = Arrays.copyOf(env, env.length + 1);
      longer[env.length] = (byte) extra;
      assertThatThrownBy(() -> CODECS.decode("orders", KEY, attribute, policy, stored(longer)))
          .isInstanceOf(IntegrityException.class);
    }
  }

  private static byte[] envelope(String attribute, AttributePolicy policy, AttributeValue value) {
    AttributeValue stored = CODECS.encode("orders", KEY, attribute, policy, value);
    assertThat(stored).isInstanceOf(BinaryValue.class);
    return ((BinaryValue) stored).value().toByteArray();
  }

  private static AttributeValue stored(byte[] b) {
    return AttributeValue.of(Bytes.of(b));
  }
}
