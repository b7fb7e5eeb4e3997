package dev.stowage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue.NumberValue;
import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

/** Doubles read as exact numbers or texts, and those are written back as the same doubles. */
class NativeDoublesTest {
  @Property(tries = 2000)
  void everyDoubleReadsAsAValueThatWritesBackAsTheSameDouble(@ForAll double d) {
    NumberValue n = NativeDoubles.number(d);
    Double back =
        n != null ? NativeDoubles.exact(n.value()) : NativeDoubles.fromText(NativeDoubles.text(d));
    assertThat(back).isNotNull();
    assertThat(Double.doubleToRawLongBits(back)).isEqualTo(Double.doubleToRawLongBits(d));
    if (n != null) {
      assertThat(NativeDoubles.fromText(n.value().toString())).isNull();
    }
  }

  @Property(tries = 2000)
  void aNumberIsWrittenAsADoubleOnlyIfItReadsBackExactly(
      @ForAll @BigRange(min = "-1e20", max = "1e20") @Scale(6) BigDecimal v) {
    NumberValue n = new NumberValue(v);
    Double d = NativeDoubles.exact(n.value());
    if (d != null) {
      assertThat(NativeDoubles.number(d)).isEqualTo(n);
    }
    if (n.value().precision() <= 15) {
      assertThat(d).isNotNull();
    }
  }

  @Property(tries = 5000)
  void aDecimalOfAtMost15DigitsIsTheShortestDecimalOfItsDouble(
      @ForAll
          @net.jqwik.api.constraints.LongRange(
              min = -999_999_999_999_999L,
              max = 999_999_999_999_999L)
          long unscaled,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -85, max = 115) int scale) {
    // exact() answers these without trying 1, 2, … digits: its answer must be the double whose
    // shortest decimal (found the long way by number()) is the decimal itself.
    NumberValue n = new NumberValue(BigDecimal.valueOf(unscaled, scale));
    Double d = NativeDoubles.exact(n.value());
    assertThat(d).isNotNull();
    assertThat(NativeDoubles.number(d)).isEqualTo(n);
  }

  @Property(tries = 20000)
  void decimalsOfFewDigitsAreFoundWithoutSearchingAsTheSearchFindsThem(
      @ForAll
          @net.jqwik.api.constraints.LongRange(
              min = -999_999_999_999_999L,
              max = 999_999_999_999_999L)
          long unscaled,
      @ForAll @net.jqwik.api.constraints.IntRange(min = -3, max = 18) int scale) {
    double d = BigDecimal.valueOf(unscaled, scale).doubleValue();
    if (d == 0) {
      return;
    }
    BigDecimal few = NativeDoubles.fewDigits(d);
    if (scale >= 0 && scale <= 15) {
      assertThat(few).isNotNull();
    }
    if (few != null) {
      // equals, not compareTo: the same digits and scale as the search's answer
      assertThat(few).isEqualTo(NativeDoubles.searched(d));
    }
  }

  @Property(tries = 20000)
  void anyDoubleFoundWithoutSearchingIsTheSearchsAnswer(@ForAll double d) {
    if (!Double.isFinite(d) || d == 0) {
      return;
    }
    BigDecimal few = NativeDoubles.fewDigits(d);
    if (few != null) {
      assertThat(few).isEqualTo(NativeDoubles.searched(d));
    }
  }

  @Test
  void decimalsNearTheLimitsOfTheShortPath() {
    double[] ds = {
      0.1,
      0.2,
      0.3,
      0.30000000000000004,
      1e-15,
      1.5e-15,
      999_999_999_999_999.0,
      1e15,
      1e15 + 2,
      123_456_789.123_456,
      0.000_000_000_000_001,
      9_007_199_254_740_993.0,
      5e-324,
      2.2250738585072014e-308,
      1.7976931348623157e308,
      1234.5,
      -1234.5,
      0.125,
      1200,
      -0.07,
      4.35,
      2.675,
      1.005
    };
    for (double d : ds) {
      BigDecimal few = NativeDoubles.fewDigits(d);
      if (few != null) {
        assertThat(few).as("%s", d).isEqualTo(NativeDoubles.searched(d));
      }
      assertThat(NativeDoubles.shortest(d)).as("%s", d).isEqualTo(NativeDoubles.searched(d));
    }
    assertThat(NativeDoubles.fewDigits(12.34)).isEqualTo(new BigDecimal("12.34"));
    assertThat(NativeDoubles.fewDigits(1200)).isEqualTo(new BigDecimal("1.2E+3"));
    assertThat(NativeDoubles.fewDigits(0.30000000000000004)).isNull();
    assertThat(NativeDoubles.fewDigits(1e15)).isNull();
  }

  @Test
  void theShortestDecimalNotJavasToString() {
    assertThat(NativeDoubles.number(0.1).value()).isEqualByComparingTo("0.1");
    assertThat(NativeDoubles.number(3.0).value()).isEqualByComparingTo("3");
    assertThat(NativeDoubles.number(0.30000000000000004).value())
        .isEqualByComparingTo("0.30000000000000004");
    assertThat(NativeDoubles.number(Double.MIN_VALUE)).isNull();
    assertThat(NativeDoubles.text(Double.MIN_VALUE)).isEqualTo("5E-324");
    assertThat(NativeDoubles.text(1e300)).isEqualTo("1E+300");
    assertThat(NativeDoubles.text(-0.0)).isEqualTo("-0");
    assertThat(NativeDoubles.text(Double.NaN)).isEqualTo("NaN");
    assertThat(NativeDoubles.fromText("1E+300")).isEqualTo(1e300);
    assertThat(NativeDoubles.fromText("1.0E300")).isNull();
    assertThat(NativeDoubles.fromText("0.1")).isNull();
    assertThat(NativeDoubles.exact(new BigDecimal("0.1"))).isEqualTo(0.1);
    assertThat(NativeDoubles.exact(new BigDecimal("0.12345678901234567890"))).isNull();
  }
}
