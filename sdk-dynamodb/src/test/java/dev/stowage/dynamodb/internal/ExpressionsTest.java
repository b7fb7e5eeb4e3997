package dev.stowage.dynamodb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.Expectation;
import org.junit.jupiter.api.Test;

class ExpressionsTest {
  @Test
  void everyNameAndValueIsAPlaceholder() {
    Expressions ex = new Expressions();
    String c = ex.condition(Condition.eq("status", "open"));
    assertThat(c).isEqualTo("#n0 = :v0");
    assertThat(ex.attributeNames()).containsEntry("#n0", "status");
    assertThat(ex.attributeValuesOrNull()).containsKey(":v0");
  }

  @Test
  void parenthesesOnlyWherePrecedenceNeedsThem() {
    Condition a = Condition.exists("a");
    Condition b = Condition.exists("b");
    Condition c = Condition.exists("c");
    Expressions ex = new Expressions();
    assertThat(ex.condition(Condition.and(a, Condition.or(b, c))))
        .isEqualTo("attribute_exists(#n0) AND (attribute_exists(#n1) OR attribute_exists(#n2))");
    assertThat(ex.condition(Condition.or(Condition.and(a, b), c)))
        .isEqualTo("attribute_exists(#n0) AND attribute_exists(#n1) OR attribute_exists(#n2)");
    assertThat(ex.condition(Condition.not(Condition.and(a, b))))
        .isEqualTo("NOT (attribute_exists(#n0) AND attribute_exists(#n1))");
    assertThat(ex.condition(Condition.not(a))).isEqualTo("NOT attribute_exists(#n0)");
    assertThat(ex.condition(Condition.and(Condition.and(a, b), c)))
        .isEqualTo("attribute_exists(#n0) AND attribute_exists(#n1) AND attribute_exists(#n2)");
    assertThat(ex.condition(new Condition.And(java.util.List.of(Condition.or(a, b)))))
        .isEqualTo("attribute_exists(#n0) OR attribute_exists(#n1)");
  }

  @Test
  void updateClausesAndTokenRotation() {
    Expressions ex = new Expressions();
    String u =
        ex.update(
            Update.builder()
                .set("a", "x")
                .remove("b")
                .increment("c", 1)
                .removeFromSet("d", AttributeValue.stringSet("q"))
                .appendToList("e", AttributeValue.of(1))
                .build(),
            Tokens.ATTRIBUTE,
            "tok");
    assertThat(u)
        .isEqualTo(
            "SET #n0 = :v0, #n4 = list_append(if_not_exists(#n4, :v3), :v4), #n5 = :v5"
                + " REMOVE #n1 ADD #n2 :v1 DELETE #n3 :v2");
    assertThat(ex.attributeNames()).containsEntry("#n5", "stowage:tok");
  }

  @Test
  void expectations() {
    Expressions ex = new Expressions();
    assertThat(ex.expectation(Expectation.ANY, "pk")).isNull();
    assertThat(ex.expectation(Expectation.ABSENT, "pk")).isEqualTo("attribute_not_exists(#n0)");
    assertThat(ex.expectation(Expectation.token("-"), "pk"))
        .isEqualTo("attribute_exists(#n0) AND attribute_not_exists(#n1)");
    assertThat(ex.expectation(Expectation.token("abc"), "pk")).isEqualTo("#n1 = :v0");
  }

  @Test
  void mapKeysEscapeOnlyWhenTheyMust() {
    assertThat(AttributeMapper.escapeMapKey("plain")).isEqualTo("plain");
    assertThat(AttributeMapper.escapeMapKey("")).isEqualTo("\uE000");
    assertThat(AttributeMapper.escapeMapKey("\uE000")).isEqualTo("\uE000\uE000");
    // Keys that merely start (or end) with U+E000 are stored, and read, as they are.
    assertThat(AttributeMapper.escapeMapKey("\uE000a")).isEqualTo("\uE000a");
    assertThat(AttributeMapper.unescapeMapKey("\uE000icon")).isEqualTo("\uE000icon");
    assertThat(AttributeMapper.unescapeMapKey("\uE000\uE000x")).isEqualTo("\uE000\uE000x");
    String[] keys = {
      "", "x", "\uE000", "\uE000\uE000", "\uE000\uE000\uE000", "a\uE000", "\uE000a", "\uE000\uE000a"
    };
    java.util.Set<String> stored = new java.util.HashSet<>();
    for (String k : keys) {
      assertThat(AttributeMapper.unescapeMapKey(AttributeMapper.escapeMapKey(k))).isEqualTo(k);
      assertThat(AttributeMapper.escapeMapKey(k)).isNotEmpty();
      stored.add(AttributeMapper.escapeMapKey(k));
    }
    assertThat(stored).hasSize(keys.length);
  }
}
