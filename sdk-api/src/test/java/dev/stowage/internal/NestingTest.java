package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How nesting levels are counted, and the check at the limit. */
class NestingTest {
  private static final AttributeValue LEAF = AttributeValue.of(1);
  private static final AttributeValue DECIMALS =
      AttributeValue.numberSet(List.of(new BigDecimal("0.5"), new BigDecimal("1E+100")));

  static AttributeValue maps(int levels, AttributeValue leaf) {
    AttributeValue v = leaf;
    for (int i = 0; i < levels; i++) {
      v = AttributeValue.map(Map.of("k", v));
    }
    return v;
  }

  static AttributeValue lists(int lists, AttributeValue leaf) {
    AttributeValue v = leaf;
    for (int i = 0; i < lists; i++) {
      v = AttributeValue.list(v);
    }
    return v;
  }

  @Test
  void scalarsAndSetsHaveNoLevelsListsAndMapsOneAndAListInAListTwo() {
    assertThat(Nesting.levels(LEAF)).isZero();
    assertThat(Nesting.levels(DECIMALS)).isZero();
    assertThat(Nesting.levels(AttributeValue.list())).isEqualTo(1);
    assertThat(Nesting.levels(AttributeValue.map(Map.of()))).isEqualTo(1);
    assertThat(Nesting.levels(maps(5, LEAF))).isEqualTo(5);
    assertThat(Nesting.levels(lists(1, LEAF))).isEqualTo(1);
    assertThat(Nesting.levels(lists(2, LEAF))).isEqualTo(3);
    assertThat(Nesting.levels(lists(3, AttributeValue.list()))).isEqualTo(7);
    assertThat(Nesting.levels(AttributeValue.map(Map.of("a", lists(2, LEAF))))).isEqualTo(4);
    assertThat(Nesting.levels(AttributeValue.list(maps(2, LEAF)))).isEqualTo(3);
    // The deepest element decides, wherever it is.
    assertThat(Nesting.levels(AttributeValue.list(LEAF, maps(4, LEAF), lists(1, LEAF))))
        .isEqualTo(5);
  }

  @Test
  void theLimitPassesAndOneLevelMoreIsRefusedNamingTheAttributeAndTheLimit() {
    int max = AttributeValue.MAX_NESTING;
    assertThat(max).isEqualTo(16);
    Nesting.check("attribute 'a'", maps(max, DECIMALS));
    Nesting.check("attribute 'a'", AttributeValue.map(Map.of("k", lists(8, DECIMALS))));
    for (AttributeValue over : List.of(maps(max + 1, LEAF), lists(9, LEAF))) {
      assertThatThrownBy(() -> Nesting.check("attribute 'deep'", over))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("attribute 'deep'")
          .hasMessageContaining("more than 16 levels");
    }
  }

  @Test
  void countingStopsSoonAfterTheLimitSoHugeDepthsCostNoStack() {
    AttributeValue v = LEAF;
    for (int i = 0; i < 200_000; i++) {
      v = AttributeValue.list(v);
    }
    assertThat(Nesting.levels(v)).isGreaterThan(AttributeValue.MAX_NESTING);
  }
}
