package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** The copy-free serialisation paths produce exactly ValueWire's bytes. */
class SerialTest {
  @Property(tries = 300)
  void stringsMatchValueWire(@ForAll String s) {
    AttributeValue v;
    try {
      v = AttributeValue.of(s);
    } catch (IllegalArgumentException unpairedSurrogate) {
      return;
    }
    assertThat(Serial.serialize(v)).isEqualTo(ValueWire.encode(v));
  }

  @Property(tries = 300)
  void binaryMatchesValueWire(@ForAll @Size(max = 400) byte[] b) {
    AttributeValue v = AttributeValue.of(Bytes.of(b));
    assertThat(Serial.serialize(v)).isEqualTo(ValueWire.encode(v));
    byte[] s = Serial.serialize(v);
    assertThat(Serial.deserialize(s, 0, s.length)).isEqualTo(v);
  }

  @Property(tries = 20)
  void longValuesUseMultiByteLengths(
      @ForAll @net.jqwik.api.constraints.IntRange(min = 128, max = 70_000) int n) {
    AttributeValue v = AttributeValue.of("x".repeat(n));
    assertThat(Serial.serialize(v)).isEqualTo(ValueWire.encode(v));
  }

  @org.junit.jupiter.api.Test
  void fastPathsValidateLikeValueWire() {
    assertThat(decode(0x01, 0x03, 0xEF, 0xBF, 0xBD)).isEqualTo(AttributeValue.of("\uFFFD"));
    assertThat(decode(0x03, 0x02, 0xAA, 0xBB))
        .isEqualTo(AttributeValue.of(new byte[] {(byte) 0xAA, (byte) 0xBB}));
    assertThat(decode(0x01, 0x00)).isEqualTo(AttributeValue.of(""));
    for (int[] bad :
        new int[][] {
          {0x01, 0x01, 0xFF}, // malformed UTF-8
          {0x01, 0x02, 0xC3}, // length beyond the input
          {0x01, 0x01, 0x41, 0x41}, // trailing byte
          {0x01, 0x03, 0xED, 0xA0, 0x80}, // an encoded surrogate
          {0x03, 0x05, 0xAA},
          {0x03, 0x80}
        }) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> decode(bad))
          .isInstanceOf(ValueWire.MalformedException.class);
    }
  }

  private static AttributeValue decode(int... b) {
    byte[] bytes = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      bytes[i] = (byte) b[i];
    }
    return Serial.deserialize(bytes, 0, bytes.length);
  }
}
