package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SegmentMidpointTest {

  @Test
  void aMidpointLiesBetweenItsEndsInPrintableAscii() {
    String[][] pairs = {
      {"k", "l"}, {"kAAAA", "kZZZZ"}, {"kuser-00001", "kuser-50000"}, {"kabc", "kabd"}, {"", "z"}
    };
    for (String[] p : pairs) {
      String m = Segments.midpoint(p[0], p[1]);
      assertThat(m).as("mid of %s and %s", p[0], p[1]).isGreaterThan(p[0]).isLessThan(p[1]);
      assertThat(m.chars()).allMatch(c -> c >= 0x20 && c <= 0x7e);
    }
  }

  @Test
  void withoutAnUpperBoundTheMidpointLiesAbove() {
    String m = Segments.midpoint("kabc", null);
    assertThat(m).isGreaterThan("kabc");
  }

  @Test
  void charactersBeyondPrintableAsciiCountAsItsEnds() {
    String m = Segments.midpoint("a\u00e9", "b");
    assertThat(m).isGreaterThan("a~").isLessThan("b");
  }
}
