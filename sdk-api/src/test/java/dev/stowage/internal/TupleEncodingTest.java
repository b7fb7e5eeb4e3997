package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class TupleEncodingTest {

  @org.junit.jupiter.api.Test
  void documentedExamplesArePinned() {
    assertThat(hex(List.of(AttributeValue.of("a")))).isEqualTo("0120610001");
    assertThat(hex(List.of(AttributeValue.of(new BigDecimal("1.5"))))).isEqualTo("013200c8020600");
    assertThat(hex(List.of(AttributeValue.of(new BigDecimal("-1.5"))))).isEqualTo("0130ff37fdf9ff");
    assertThat(hex(List.of(AttributeValue.of("a"), AttributeValue.of(0))))
        .isEqualTo("012061000131");
    assertThat(hex(List.of(AttributeValue.of(new byte[] {0})))).isEqualTo("011000ff0001");
  }

  @Property
  void integersEncodeAsTheSameNumberWithAScaleDoes(@ForAll long n) {
    // Integers take a shorter path; a scale of 2 takes the general one to the same bytes.
    BigDecimal integer = BigDecimal.valueOf(n);
    BigDecimal scaled = integer.setScale(2);
    assertThat(hex(List.of(AttributeValue.of(integer))))
        .isEqualTo(hex(List.of(AttributeValue.of(scaled))));
  }

  @org.junit.jupiter.api.Test
  void integersWithTrailingZerosEncodeLikeTheirGeneralForm() {
    for (long n : new long[] {10, 7000, -7000, 100_000_000_000L, Long.MAX_VALUE, -Long.MAX_VALUE}) {
      assertThat(hex(List.of(AttributeValue.of(BigDecimal.valueOf(n)))))
          .as("%d", n)
          .isEqualTo(hex(List.of(AttributeValue.of(BigDecimal.valueOf(n).setScale(1)))));
    }
    assertThat(hex(List.of(AttributeValue.of(7000)))).isEqualTo("013200cb0800");
  }

  @Property(tries = 2000)
  void numbersOfUpTo18DigitsEncodeAsTheirDigitsSay(
      @ForAll
          @net.jqwik.api.constraints.LongRange(
              min = -999_999_999_999_999_999L,
              max = 999_999_999_999_999_999L)
          long unscaled,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -40, max = 40) int scale) {
    // Numbers that fit a long are written from it: the bytes the documented layout gives from the
    // number's digits (docs/FORMAT.md, "Index tuples"), worked out here from its string form.
    BigDecimal value = BigDecimal.valueOf(unscaled, scale);
    StringBuilder expected = new StringBuilder("01");
    int sign = value.signum();
    if (sign == 0) {
      expected.append("31");
    } else {
      BigDecimal abs = value.abs().stripTrailingZeros();
      String digits = abs.unscaledValue().toString();
      int exponent = digits.length() - abs.scale() - 1 + 200;
      int e = sign > 0 ? exponent : 0xFFFF - exponent;
      expected.append(sign > 0 ? "32" : "30").append(String.format("%04x", e));
      for (char c : digits.toCharArray()) {
        int d = c - '0' + 1;
        expected.append(String.format("%02x", sign > 0 ? d : 0xFF - d));
      }
      expected.append(sign > 0 ? "00" : "ff");
    }
    assertThat(hex(List.of(new AttributeValue.NumberValue(value)))).isEqualTo(expected.toString());
  }

  private static String hex(List<KeyValue> tuple) {
    return java.util.HexFormat.of().formatHex(TupleEncoding.encode(tuple).toByteArray());
  }

  @Provide
  Arbitrary<KeyValue> keyValues() {
    Arbitrary<KeyValue> strings =
        Arbitraries.strings()
            .withChars("\u0000\u0001a\u00ff\uffff")
            .ofMaxLength(4)
            .map(AttributeValue::of);
    Arbitrary<KeyValue> supplementary =
        Arbitraries.of("\uD83D\uDE00", "\uFFFF", "\uFFFD", "a\uD83D\uDE00", "")
            .map(AttributeValue::of);
    Arbitrary<KeyValue> numbers =
        Combinators.combine(
                Arbitraries.bigIntegers()
                    .between(
                        new java.math.BigInteger("-99999999999999999999"),
                        new java.math.BigInteger("99999999999999999999")),
                Arbitraries.integers().between(-60, 60))
            .as((u, s) -> (KeyValue) AttributeValue.of(new BigDecimal(u, s)));
    Arbitrary<KeyValue> binaries =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMaxSize(4)
            .map(b -> (KeyValue) AttributeValue.of(b));
    return Arbitraries.oneOf(strings, supplementary, numbers, binaries);
  }

  private static int typeRank(KeyValue v) {
    return v instanceof AttributeValue.BinaryValue
        ? 0
        : v instanceof AttributeValue.StringValue ? 1 : 2;
  }

  private static int compareTuples(List<KeyValue> a, List<KeyValue> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      KeyValue x = a.get(i);
      KeyValue y = b.get(i);
      int c =
          x.type() == y.type() ? KeyValue.compare(x, y) : Integer.compare(typeRank(x), typeRank(y));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  @Property(tries = 3000)
  void encodingOrderMatchesTupleOrder(
      @ForAll("tuples") List<KeyValue> a, @ForAll("tuples") List<KeyValue> b) {
    int expected = Integer.signum(compareTuples(a, b));
    int actual = Integer.signum(TupleEncoding.encode(a).compareTo(TupleEncoding.encode(b)));
    assertThat(actual).as("%s vs %s", a, b).isEqualTo(expected);
  }

  @Provide
  Arbitrary<List<KeyValue>> tuples() {
    return keyValues().list().ofMaxSize(3);
  }

  @Property(tries = 1000)
  void aTupleEncodingPrefixesEveryExtension(
      @ForAll("tuples") List<KeyValue> prefix, @ForAll("tuples") List<KeyValue> rest) {
    List<KeyValue> full = new java.util.ArrayList<>(prefix);
    full.addAll(rest);
    Bytes p = TupleEncoding.encode(prefix);
    Bytes f = TupleEncoding.encode(full);
    assertThat(f.startsWith(p)).isTrue();
    Bytes end = TupleEncoding.prefixEnd(p);
    assertThat(f.compareTo(end)).isLessThan(0);
  }

  @Property(tries = 1000)
  void stringPrefixEncodingCoversExactlyTheStringsWithThatPrefix(
      @ForAll("strs") String prefix, @ForAll("strs") String s) {
    Bytes enc = TupleEncoding.encodePrefix(List.of(), AttributeValue.of(prefix));
    Bytes full = TupleEncoding.encode(List.of(AttributeValue.of(s)));
    assertThat(full.startsWith(enc)).isEqualTo(s.startsWith(prefix));
  }

  @Provide
  Arbitrary<String> strs() {
    return Arbitraries.strings()
        .withChars("ab\u0000\uD83D\uDE00")
        .ofMaxLength(3)
        .filter(
            x -> {
              try {
                AttributeValue.of(x);
                return true;
              } catch (IllegalArgumentException e) {
                return false;
              }
            });
  }

  @Property(tries = 500)
  void stringPrefixEndBoundsEveryExtension(
      @ForAll("strs") String prefix, @ForAll("strs") String rest) {
    String end = TupleEncoding.prefixEnd(prefix);
    if (end != null) {
      assertThat(dev.stowage.item.Utf8Order.compare(prefix + rest, end)).isLessThan(0);
      assertThat(dev.stowage.item.Utf8Order.compare(prefix, end)).isLessThan(0);
    }
  }
}
