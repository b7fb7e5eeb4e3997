package dev.stowage.typed.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The typed mapping's exact long and int conversions give what the JDK's {@code longValueExact} and
 * {@code intValueExact} give, for stored (normalised) numbers and for any other scale.
 */
class ExactNumbersTest {

  @Property(tries = 2000)
  void normalisedWholeNumbersConvertAsTheJdkDoes(@ForAll long value) {
    BigDecimal stored = AttributeValue.of(value).value(); // 1000 is held as 1E+3
    assertThat(ScalarCodecs.exactLong(stored)).isEqualTo(value);
    assertSameAsJdkInt(stored);
  }

  @Property(tries = 2000)
  void anyScaleConvertsOrFailsAsTheJdkDoes(
      @ForAll long unscaled, @ForAll @IntRange(min = -40, max = 3) int scale) {
    BigDecimal d = BigDecimal.valueOf(unscaled, scale);
    assertSameAsJdkLong(d);
    assertSameAsJdkInt(d);
  }

  @Test
  void edgesOfTheLongRange() {
    assertSameAsJdkLong(new BigDecimal("9.22337203685477580E+18")); // 9223372036854775800
    assertSameAsJdkLong(new BigDecimal("9.3E+18")); // overflows
    assertSameAsJdkLong(new BigDecimal("-9.22337203685477580E+18"));
    assertSameAsJdkLong(new BigDecimal("-9.3E+18"));
    assertSameAsJdkLong(new BigDecimal("1E+18"));
    assertSameAsJdkLong(new BigDecimal("1E+19"));
    assertSameAsJdkLong(new BigDecimal("-1E+18"));
    assertSameAsJdkInt(new BigDecimal("2.147483647E+9").setScale(-3, java.math.RoundingMode.DOWN));
    assertSameAsJdkInt(new BigDecimal("2.2E+9"));
    assertSameAsJdkInt(new BigDecimal("-2.147483648E+9"));
    assertThat(ScalarCodecs.exactLong(new BigDecimal("1E+3"))).isEqualTo(1000L);
    assertThat(ScalarCodecs.exactInt(new BigDecimal("-5E+2"))).isEqualTo(-500);
  }

  private static void assertSameAsJdkLong(BigDecimal d) {
    long expected;
    try {
      expected = d.longValueExact();
    } catch (ArithmeticException e) {
      assertThatThrownBy(() -> ScalarCodecs.exactLong(d)).isInstanceOf(ArithmeticException.class);
      return;
    }
    assertThat(ScalarCodecs.exactLong(d)).isEqualTo(expected);
  }

  private static void assertSameAsJdkInt(BigDecimal d) {
    int expected;
    try {
      expected = d.intValueExact();
    } catch (ArithmeticException e) {
      assertThatThrownBy(() -> ScalarCodecs.exactInt(d)).isInstanceOf(ArithmeticException.class);
      return;
    }
    assertThat(ScalarCodecs.exactInt(d)).isEqualTo(expected);
  }
}
