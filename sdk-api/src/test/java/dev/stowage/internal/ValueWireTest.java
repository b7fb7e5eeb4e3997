package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ValueWireTest {

  @Test
  void goldenBytesArePinned() {
    AttributeValue v =
        AttributeValue.map(
            Map.of(
                "s", AttributeValue.of("é"),
                "n", AttributeValue.of(new BigDecimal("0.30")),
                "l", AttributeValue.list(AttributeValue.of(true), AttributeValue.nullValue()),
                "b", AttributeValue.of(new byte[] {0, (byte) 0xFF}),
                "ss", AttributeValue.stringSet("b", "a")));
    String hex = HexFormat.of().formatHex(ValueWire.encode(v));
    assertThat(hex)
        .isEqualTo(
            "0805"
                + "0162"
                + "03"
                + "02"
                + "00ff" // b: binary 00 ff
                + "016c"
                + "07"
                + "02"
                + "05"
                + "06" // l: [true, null]
                + "016e"
                + "02"
                + "03"
                + "302e33" // n: "0.3"
                + "0173"
                + "01"
                + "02"
                + "c3a9" // s: "é"
                + "027373"
                + "09"
                + "02"
                + "0161"
                + "0162"); // ss: {a, b}
    assertThat(ValueWire.decode(HexFormat.of().parseHex(hex))).isEqualTo(v);
  }

  @Property(tries = 300)
  void roundTripsStrings(@ForAll String s) {
    try {
      AttributeValue v = AttributeValue.of(s);
      assertThat(ValueWire.decode(ValueWire.encode(v))).isEqualTo(v);
    } catch (IllegalArgumentException unpairedSurrogate) {
      // not a valid string value; nothing to round-trip
    }
  }

  @Property(tries = 300)
  void arbitraryBytesNeverEscapeAsAnythingButMalformed(@ForAll byte[] junk) {
    try {
      ValueWire.decode(junk);
    } catch (ValueWire.MalformedException expected) {
      // fine
    }
  }

  @Test
  void rejectsTruncationAndHugeCounts() {
    byte[] ok = ValueWire.encode(AttributeValue.list(List.of(AttributeValue.of("abc"))));
    for (int cut = 0; cut < ok.length; cut++) {
      byte[] t = java.util.Arrays.copyOf(ok, cut);
      assertThatThrownBy(() -> ValueWire.decode(t))
          .isInstanceOf(ValueWire.MalformedException.class);
    }
    assertThatThrownBy(() -> ValueWire.decode(new byte[] {7, (byte) 0xFF, (byte) 0xFF, 0x7F}))
        .isInstanceOf(ValueWire.MalformedException.class);
    assertThat(ValueWire.decode(ValueWire.encode(AttributeValue.of(Bytes.empty()))))
        .isEqualTo(AttributeValue.of(Bytes.empty()));
  }

  @Property(tries = 200)
  void numbersRoundTripExactly(@ForAll java.math.BigInteger unscaled) {
    BigDecimal d = new BigDecimal(unscaled, Arbitraries.integers().between(-20, 20).sample());
    try {
      AttributeValue v = AttributeValue.of(d);
      assertThat(ValueWire.decode(ValueWire.encode(v))).isEqualTo(v);
    } catch (IllegalArgumentException outOfPortableRange) {
      // more than 38 digits: not a portable number
    }
  }
}
