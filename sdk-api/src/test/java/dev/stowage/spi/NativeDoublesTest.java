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
