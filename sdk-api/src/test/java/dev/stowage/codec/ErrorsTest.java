package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import org.junit.jupiter.api.Test;

/** Configuration errors and undecodable envelopes give specific Stowage errors. */
class ErrorsTest {
  private static final Key KEY = Key.of("p", 3);

  @Test
  void encryptingWithoutKeysSaysHowToConfigureThem() {
    assertThatThrownBy(
            () ->
                Codecs.defaults()
                    .encode("t", KEY, "ssn", AttributePolicy.ENCRYPTED, AttributeValue.of("1")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("no keys are configured")
        .hasMessageContaining("KeyProvider")
        .hasMessageContaining("attribute 'ssn'");
  }

  @Test
  void readingCiphertextWithoutKeysIsAMissingKey() {
    AttributeValue stored =
        TestKeys.codecs(TestKeys.fresh())
            .encode("t", KEY, "ssn", AttributePolicy.ENCRYPTED, AttributeValue.of("1"));
    assertThatThrownBy(
            () -> Codecs.defaults().decode("t", KEY, "ssn", AttributePolicy.ENCRYPTED, stored))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("missing key")
        .hasMessageContaining("table 't'")
        .hasMessageContaining("Key(\"p\", 3)");
  }

  @Test
  void unknownVersionAndFlagsAreNamed() {
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x02, 0x00, 1, 2, 3, 4, 5))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("unknown envelope format version 2");
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x01, 0x20, 1, 2, 3, 4, 5))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("unknown envelope flags");
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x01, 0x80, 1, 2, 3, 4, 5))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("unknown envelope flags");
    // A payload kind (flags bits 3-4) exists only on encrypted, uncompressed envelopes.
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x01, 0x10, 1, 2, 3, 4, 5))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("payload kind");
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x01, 0x04, 7, 1, 2, 3, 4, 5))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("dictionary without compression");
    assertThatThrownBy(() -> decode(0xF5, 0x53, 0x01))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> decode(0xF5, 0x53))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("truncated");
  }

  @Test
  void nullsAreRejected() {
    Codecs c = Codecs.defaults();
    AttributeValue v = AttributeValue.of("x");
    assertThatThrownBy(() -> c.encode(null, KEY, "a", AttributePolicy.PLAIN, v))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> c.encode("t", null, "a", AttributePolicy.PLAIN, v))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> c.decode("t", KEY, "a", null, v))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> c.decode("t", KEY, "a", AttributePolicy.PLAIN, null))
        .isInstanceOf(NullPointerException.class);
    assertThat(c.keys()).isEmpty();
  }

  private static AttributeValue decode(int... b) {
    byte[] bytes = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      bytes[i] = (byte) b[i];
    }
    return Codecs.defaults()
        .decode("t", KEY, "a", AttributePolicy.COMPRESSED, AttributeValue.of(bytes));
  }
}
