package dev.stowage.item;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;

/** Utf8Order sorts as UTF-8 bytes do, whatever the chars (surrogate pairs included). */
class Utf8OrderTest {

  /** Strings made of characters around the surrogate boundary, built from index digits. */
  private static String build(String digits) {
    StringBuilder b = new StringBuilder();
    for (char c : digits.toCharArray()) {
      int i = (c - '0') % 7;
      switch (i) {
        case 0 -> b.append('a');
        case 1 -> b.append('\u00e9');
        case 2 -> b.append('\uE000');
        case 3 -> b.append('\uFFFF');
        case 4 -> b.append("\uD83D\uDE00");
        case 5 -> b.append("\uD800\uDC00");
        default -> b.append('z');
      }
    }
    return b.toString();
  }

  @Property(tries = 2000)
  void ordersAsUtf8Bytes(
      @ForAll @CharRange(from = '0', to = '9') String x,
      @ForAll @CharRange(from = '0', to = '9') String y) {
    String a = build(x);
    String b = build(y);
    int expected =
        Integer.signum(
            Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    assertThat(Integer.signum(Utf8Order.compare(a, b))).isEqualTo(expected);
    assertThat(Integer.signum(Utf8Order.compare(b, a))).isEqualTo(-expected);
  }

  @Property(tries = 1000)
  void anyStringsOrderAsTheirCodePoints(@ForAll String a, @ForAll String b) {
    int expected =
        Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
    assertThat(Integer.signum(Utf8Order.compare(a, b))).isEqualTo(expected);
  }
}
