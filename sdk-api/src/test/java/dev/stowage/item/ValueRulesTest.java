package dev.stowage.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What values and items refuse at construction, before anything can be written. */
class ValueRulesTest {
  private static final AttributeValue ONE = AttributeValue.of(1);

  private static Bytes b(int... unsigned) {
    byte[] out = new byte[unsigned.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) unsigned[i];
    }
    return Bytes.wrap(out);
  }

  @Test
  void mapKeysWithAnUnpairedSurrogateAreRejectedLikeStrings() {
    for (String bad : List.of("\uD800", "a\uDC00", "\uDC00\uD800", "x\uD83D")) {
      assertThatThrownBy(() -> AttributeValue.map(Map.of(bad, ONE)))
          .as("key %s", bad.codePoints().boxed().toList())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("map key has an unpaired surrogate at index")
          .hasMessageContaining("no UTF-8 form");
      assertThatThrownBy(
              () ->
                  AttributeValue.list(
                      AttributeValue.map(Map.of("ok", AttributeValue.map(Map.of(bad, ONE))))))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> new AttributeValue.MapValue(Map.of(bad, ONE)))
          .isInstanceOf(IllegalArgumentException.class);
    }
    // The string rule says the same, so both read alike.
    assertThatThrownBy(() -> AttributeValue.of("\uD800"))
        .hasMessageContaining("string value has an unpaired surrogate at index 0");
    Map<String, AttributeValue> fine = Map.of("𝄞", ONE, "", ONE, "é~__", ONE);
    assertThat(AttributeValue.map(fine).values()).containsOnlyKeys("𝄞", "", "é~__");
  }

  @Test
  void stringSetMembersWithAnUnpairedSurrogateAreRejected() {
    assertThatThrownBy(() -> AttributeValue.stringSet("ok", "\uDFFF"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("string set member has an unpaired surrogate");
  }

  @Test
  void setsWithDuplicateMembersAreRejectedNotMerged() {
    assertThatThrownBy(() -> AttributeValue.stringSet("a", "b", "a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("string set holds the member 'a' more than once");
    assertThatThrownBy(() -> AttributeValue.stringSet(List.of("x", "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("1.00"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("number set holds the member 1.00 more than once");
    assertThatThrownBy(
            () -> AttributeValue.numberSet(List.of(new BigDecimal("2.5"), new BigDecimal("2.5"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AttributeValue.binarySet(List.of(b(1), b(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("binary set holds the member of 1 bytes more than once");
    // A sorted set whose comparator tells 1.0 from 1.00 still holds one number twice.
    TreeSet<BigDecimal> byScale =
        new TreeSet<>(Comparator.comparing(BigDecimal::scale).thenComparing(d -> d));
    byScale.addAll(List.of(new BigDecimal("1.0"), new BigDecimal("1.00")));
    assertThatThrownBy(() -> new AttributeValue.NumberSetValue(byScale))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than once");
  }

  @Test
  void setsOfDistinctMembersAreBuiltInOrder() {
    assertThat(AttributeValue.stringSet("b", "a", "").values()).containsExactly("", "a", "b");
    assertThat(AttributeValue.numberSet(List.of(new BigDecimal("1.50"), BigDecimal.ONE)).values())
        .containsExactly(BigDecimal.ONE, new BigDecimal("1.5"));
    assertThat(AttributeValue.binarySet(List.of(b(2), b(1))).values()).containsExactly(b(1), b(2));
  }

  @Test
  void applicationsHaveNoWayToBuildAnItemHoldingAReservedAttribute() {
    for (Method m : Item.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && m.getReturnType() == Item.class) {
        assertThat(m.getName()).as("public static factory %s", m).isIn("of", "empty");
      }
    }
    assertThat(Arrays.stream(Item.class.getMethods()).map(Method::getName))
        .doesNotContain("ofStored");
    assertThatThrownBy(() -> Item.of(Map.of("stowage:rq", AttributeValue.list())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserved prefix");
    assertThatThrownBy(() -> Item.builder().put("stowage:ix:byTag:p", "forged"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
