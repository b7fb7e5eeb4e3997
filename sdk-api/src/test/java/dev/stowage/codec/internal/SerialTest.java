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

  @Property(tries = 300)
  void splitIsTheSerialisationInTwoParts(
      @ForAll @Size(max = 300) String s,
      @ForAll @Size(max = 300) byte[] b,
      @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 3) int offset) {
    AttributeValue binaryView =
        AttributeValue.of(
            dev.stowage.internal.BytesAccess.wrap(
                b, Math.min(offset, b.length), b.length - Math.min(offset, b.length)));
    java.util.List<AttributeValue> values =
        new java.util.ArrayList<>(
            java.util.List.of(
                AttributeValue.of(Bytes.of(b)),
                binaryView,
                AttributeValue.of(42),
                AttributeValue.list(AttributeValue.of(b), AttributeValue.of(true))));
    try {
      values.add(AttributeValue.of(s));
    } catch (IllegalArgumentException unpairedSurrogate) {
      // not a value
    }
    for (AttributeValue v : values) {
      Serial.Split split = Serial.split(v);
      byte[] joined = new byte[split.size()];
      System.arraycopy(split.head(), 0, joined, 0, split.headLength());
      System.arraycopy(split.body(), split.offset(), joined, split.headLength(), split.length());
      assertThat(joined).isEqualTo(ValueWire.encode(v));
    }
  }

  @org.junit.jupiter.api.Test
  void splitBinaryValuesAreNotCopied() {
    byte[] backing = new byte[100];
    Serial.Split split =
        Serial.split(AttributeValue.of(dev.stowage.internal.BytesAccess.wrap(backing, 10, 80)));
    assertThat(split.body()).isSameAs(backing);
    assertThat(split.offset()).isEqualTo(10);
    assertThat(split.length()).isEqualTo(80);
    assertThat(split.headLength()).isEqualTo(2);
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

  @Property(tries = 200)
  void aDecodedBinaryValueReserialisesAsTheArrayItSharesWithoutACopy(
      @ForAll @Size(max = 300) byte[] b) {
    byte[] s = ValueWire.encode(AttributeValue.of(Bytes.of(b)));
    AttributeValue decoded = Serial.deserialize(s, 0, s.length);
    byte[] again = Serial.serialize(decoded);
    assertThat(again).isEqualTo(ValueWire.encode(decoded));
    if (b.length > 0) {
      assertThat(again).isSameAs(s);
    }
  }

  @org.junit.jupiter.api.Test
  void aBinaryValueInsideAnotherArrayIsSerialisedAfresh() {
    // Shares an array whose bytes before the value are not its serialisation header: a wrong tag,
    // a wrong length, a non-minimal length, and trailing bytes after the value.
    byte[][] arrays = {
      {0x01, 0x02, 7, 8},
      {0x03, 0x03, 7, 8},
      {0x03, (byte) 0x82, 0x00, 7, 8},
      {0x03, 0x02, 7, 8, 9},
    };
    int[] offsets = {2, 2, 3, 2};
    for (int i = 0; i < arrays.length; i++) {
      AttributeValue v =
          AttributeValue.of(dev.stowage.internal.BytesAccess.wrap(arrays[i], offsets[i], 2));
      byte[] s = Serial.serialize(v);
      assertThat(s).isNotSameAs(arrays[i]).containsExactly(0x03, 0x02, 7, 8);
    }
  }

  @Property(tries = 20)
  void reserialisingLongDecodedValuesKeepsMultiByteLengths(
      @ForAll @net.jqwik.api.constraints.IntRange(min = 128, max = 70_000) int n) {
    byte[] s = ValueWire.encode(AttributeValue.of(new byte[n]));
    AttributeValue decoded = Serial.deserialize(s, 0, s.length);
    assertThat(Serial.serialize(decoded)).isSameAs(s);
  }

  @org.junit.jupiter.api.Test
  void decodedBinaryValuesMayShareTheirSerialisation() {
    byte[] s = Serial.serialize(AttributeValue.of(new byte[] {7, 8, 9}));
    AttributeValue v = Serial.deserialize(s, 0, s.length);
    Bytes b = ((AttributeValue.BinaryValue) v).value();
    assertThat(b.size()).isEqualTo(3);
    assertThat(b.toByteArray()).containsExactly(7, 8, 9);
    assertThat(b).isEqualTo(Bytes.of(new byte[] {7, 8, 9}));
    assertThat(b.hashCode()).isEqualTo(Bytes.of(new byte[] {7, 8, 9}).hashCode());
    assertThat(b.compareTo(Bytes.of(new byte[] {7, 8, 10}))).isNegative();
    assertThat(b.startsWith(Bytes.of(new byte[] {7, 8}))).isTrue();
    assertThat(b.byteAt(2)).isEqualTo((byte) 9);
    assertThat(b.asReadOnlyBuffer().remaining()).isEqualTo(3);
    assertThat(b.asReadOnlyBuffer().get(0)).isEqualTo((byte) 7);
    assertThat(b.toBase64()).isEqualTo(Bytes.of(new byte[] {7, 8, 9}).toBase64());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.byteAt(3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  private static AttributeValue decode(int... b) {
    byte[] bytes = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      bytes[i] = (byte) b[i];
    }
    return Serial.deserialize(bytes, 0, bytes.length);
  }
}
