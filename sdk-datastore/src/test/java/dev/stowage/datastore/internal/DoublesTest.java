package dev.stowage.datastore.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue.NumberValue;
import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.BigRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

/** Doubles read as exact numbers or texts, and those are written back as the same doubles. */
class DoublesTest {
  @Property(tries = 2000)
  void everyDoubleReadsAsAValueThatWritesBackAsTheSameDouble(@ForAll double d) {
    NumberValue n = Doubles.number(d);
    Double back = n != null ? Doubles.exact(n.value()) : Doubles.fromText(Doubles.text(d));
    assertThat(back).isNotNull();
    assertThat(Double.doubleToRawLongBits(back)).isEqualTo(Double.doubleToRawLongBits(d));
    if (n != null) {
      assertThat(Doubles.fromText(n.value().toString())).isNull();
    }
  }

  @Property(tries = 2000)
  void aNumberIsWrittenAsADoubleOnlyIfItReadsBackExactly(
      @ForAll @BigRange(min = "-1e20", max = "1e20") @Scale(6) BigDecimal v) {
    NumberValue n = new NumberValue(v);
    Double d = Doubles.exact(n.value());
    if (d != null) {
      assertThat(Doubles.number(d)).isEqualTo(n);
    }
    if (n.value().precision() <= 15) {
      assertThat(d).isNotNull();
    }
  }

  @Test
  void theShortestDecimalNotJavasToString() {
    assertThat(Doubles.number(0.1).value()).isEqualByComparingTo("0.1");
    assertThat(Doubles.number(3.0).value()).isEqualByComparingTo("3");
    assertThat(Doubles.number(0.30000000000000004).value())
        .isEqualByComparingTo("0.30000000000000004");
    assertThat(Doubles.number(Double.MIN_VALUE)).isNull();
    assertThat(Doubles.text(Double.MIN_VALUE)).isEqualTo("5E-324");
    assertThat(Doubles.text(1e300)).isEqualTo("1E+300");
    assertThat(Doubles.text(-0.0)).isEqualTo("-0");
    assertThat(Doubles.text(Double.NaN)).isEqualTo("NaN");
    assertThat(Doubles.fromText("1E+300")).isEqualTo(1e300);
    assertThat(Doubles.fromText("1.0E300")).isNull();
    assertThat(Doubles.fromText("0.1")).isNull();
    assertThat(Doubles.exact(new BigDecimal("0.1"))).isEqualTo(0.1);
    assertThat(Doubles.exact(new BigDecimal("0.12345678901234567890"))).isNull();
  }
}
