package dev.stowage.local.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
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

/**
 * The key bytes order as Stowage's key order: SQLite compares BLOBs as unsigned bytes (shorter
 * prefix first), so this is what makes queries and scans return keys in the memory driver's order.
 */
class KeyBytesProperties {

  @Property(tries = 3000)
  void numbersOrderNumerically(@ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
    assertSameOrder(AttributeValue.of(a), AttributeValue.of(b));
  }

  @Property(tries = 2000)
  void stringsOrderByCodePoints(@ForAll String a, @ForAll String b) {
    // Unpaired surrogates are not valid string values.
    if (!valid(a) || !valid(b)) {
      return;
    }
    assertSameOrder(AttributeValue.of(a), AttributeValue.of(b));
  }

  @Property(tries = 2000)
  void binaryOrdersAsUnsignedBytes(@ForAll byte[] a, @ForAll byte[] b) {
    assertSameOrder(AttributeValue.of(Bytes.of(a)), AttributeValue.of(Bytes.of(b)));
  }

  @Example
  void edgesOfTheNumberRange() {
    String[] ascending = {
      "-9.9999999999999999999999999999999999999E+125",
      "-1E+125",
      "-10",
      "-9.99",
      "-1.01",
      "-1",
      "-0.99",
      "-1E-130",
      "0",
      "1E-130",
      "0.1",
      "0.12",
      "0.123",
      "1",
      "1.5",
      "2",
      "10",
      "9.9999999999999999999999999999999999999E+125"
    };
    for (int i = 1; i < ascending.length; i++) {
      byte[] lo = KeyBytes.of(AttributeValue.of(new BigDecimal(ascending[i - 1])));
      byte[] hi = KeyBytes.of(AttributeValue.of(new BigDecimal(ascending[i])));
      assertThat(java.util.Arrays.compareUnsigned(lo, hi))
          .as("%s < %s", ascending[i - 1], ascending[i])
          .isNegative();
    }
    assertThat(KeyBytes.of(AttributeValue.of(new BigDecimal("1.50"))))
        .isEqualTo(KeyBytes.of(AttributeValue.of(new BigDecimal("1.5"))));
  }

  private static void assertSameOrder(KeyValue a, KeyValue b) {
    int expected = Integer.signum(KeyValue.compare(a, b));
    int actual = Integer.signum(java.util.Arrays.compareUnsigned(KeyBytes.of(a), KeyBytes.of(b)));
    assertThat(actual).as("%s vs %s", a, b).isEqualTo(expected);
  }

  private static boolean valid(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  @Provide
  Arbitrary<BigDecimal> numbers() {
    Arbitrary<BigInteger> unscaled =
        Arbitraries.bigIntegers()
            .between(
                new BigInteger("-99999999999999999999999999999999999999"),
                new BigInteger("99999999999999999999999999999999999999"));
    Arbitrary<Integer> scale = Arbitraries.integers().between(-80, 80);
    Arbitrary<BigDecimal> wide = Combinators.combine(unscaled, scale).as(BigDecimal::new);
    // Close values (same exponent, shared digits) are where an encoding goes wrong.
    Arbitrary<BigDecimal> close =
        Arbitraries.integers().between(-1200, 1200).map(i -> BigDecimal.valueOf(i, 2));
    return Arbitraries.oneOf(wide, close);
  }
}
