package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class KeyCodecProperties {
  @Provide
  Arbitrary<BigDecimal> numbers() {
    Arbitrary<BigInteger> unscaled =
        Arbitraries.bigIntegers()
            .between(
                new BigInteger("-99999999999999999999999999999999999999"),
                new BigInteger("99999999999999999999999999999999999999"));
    return Combinators.combine(unscaled, Arbitraries.integers().between(-80, 80))
        .as(BigDecimal::new);
  }

  @Property
  void numbersRoundTripAndKeepNumericOrder(
      @ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
    KeyValue va = AttributeValue.of(a);
    KeyValue vb = AttributeValue.of(b);
    String ea = KeyCodec.encode(va);
    String eb = KeyCodec.encode(vb);
    assertThat(KeyCodec.decode(ea, AttributeType.NUMBER)).isEqualTo(va);
    assertThat(Integer.signum(ea.compareTo(eb))).isEqualTo(Integer.signum(a.compareTo(b)));
    assertThat(safe(ea)).isTrue();
  }

  @Property
  void stringsRoundTripAndKeepUtf8Order(@ForAll String a, @ForAll String b) {
    KeyValue va = AttributeValue.of(a);
    KeyValue vb = AttributeValue.of(b);
    String ea = KeyCodec.encode(va);
    String eb = KeyCodec.encode(vb);
    assertThat(KeyCodec.decode(ea, AttributeType.STRING)).isEqualTo(va);
    assertThat(Integer.signum(ea.compareTo(eb)))
        .isEqualTo(Integer.signum(KeyValue.compare(va, vb)));
  }

  @Property
  void binaryRoundTripsAndKeepsUnsignedOrder(@ForAll byte[] a, @ForAll byte[] b) {
    KeyValue va = AttributeValue.of(a);
    KeyValue vb = AttributeValue.of(b);
    String ea = KeyCodec.encode(va);
    String eb = KeyCodec.encode(vb);
    assertThat(KeyCodec.decode(ea, AttributeType.BINARY)).isEqualTo(va);
    assertThat(Integer.signum(ea.compareTo(eb)))
        .isEqualTo(Integer.signum(KeyValue.compare(va, vb)));
  }

  @Property
  void reverseInvertsOrderOfCompositeKeys(
      @ForAll byte[] a1, @ForAll byte[] a2, @ForAll byte[] b1, @ForAll byte[] b2) {
    String a = KeyCodec.encodeBytes(a1) + KeyCodec.SEP + KeyCodec.encodeBytes(a2);
    String b = KeyCodec.encodeBytes(b1) + KeyCodec.SEP + KeyCodec.encodeBytes(b2);
    int tuple = java.util.Arrays.compareUnsigned(a1, b1);
    if (tuple == 0) {
      tuple = java.util.Arrays.compareUnsigned(a2, b2);
    }
    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(tuple));
    String ra = KeyCodec.reverse(a);
    String rb = KeyCodec.reverse(b);
    assertThat(Integer.signum(ra.compareTo(rb))).isEqualTo(-Integer.signum(tuple));
    assertThat(KeyCodec.unreverse(ra)).isEqualTo(a);
    assertThat(safe(ra)).isTrue();
  }

  @Example
  void numberEncodingIsCompact() {
    assertThat(KeyCodec.encode(AttributeValue.of(new BigDecimal("9.99E+125"))).length())
        .isLessThan(8);
    BigDecimal max38 = new BigDecimal("-0." + "9".repeat(38) + "E-100");
    KeyValue v = AttributeValue.of(max38);
    assertThat(KeyCodec.encode(v).length()).isLessThan(32);
    assertThat(KeyCodec.decode(KeyCodec.encode(v), AttributeType.NUMBER)).isEqualTo(v);
  }

  static boolean safe(String key) {
    return key.chars()
        .allMatch(
            c ->
                c > 0x20 && c < 0x7f && c != '/' && c != '\\' && c != '#' && c != '?' && c != '\'');
  }
}
