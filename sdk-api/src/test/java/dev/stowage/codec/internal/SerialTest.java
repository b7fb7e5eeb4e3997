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
}
