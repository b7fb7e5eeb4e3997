package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Fields of the commonest types (strings, longs, ints, booleans, primitive and boxed), which the
 * schema stores and reads without a codec call: the same stored forms, the same absent values and
 * the same failures naming the attribute as every other type, and converters still take precedence.
 */
class ScalarFieldsTest {
  record Scalars(
      @PartitionKey String id,
      long count,
      int small,
      boolean flag,
      Long boxedCount,
      Integer boxedSmall,
      Boolean boxedFlag,
      String text,
      Optional<String> maybe) {}

  private static final TypedSchema<Scalars> SCHEMA = TypedSchema.of(Scalars.class);

  private static Item.Builder base() {
    return Item.builder().put("id", "k1");
  }

  @Test
  void valuesRoundTripAsPlainStoredForms() {
    Scalars s =
        new Scalars(
            "k1",
            Long.MIN_VALUE,
            Integer.MAX_VALUE,
            true,
            1000L,
            -7,
            false,
            "tx",
            Optional.of("m"));
    Item item = SCHEMA.toItem(s);
    assertThat(item.getLong("count")).isEqualTo(Long.MIN_VALUE);
    assertThat(item.getLong("small")).isEqualTo(Integer.MAX_VALUE);
    assertThat(item.getBoolean("flag")).isTrue();
    assertThat(item.getLong("boxedCount")).isEqualTo(1000L);
    assertThat(item.getLong("boxedSmall")).isEqualTo(-7);
    assertThat(item.getBoolean("boxedFlag")).isFalse();
    assertThat(item.getString("text")).isEqualTo("tx");
    assertThat(item.getString("maybe")).isEqualTo("m");
    assertThat(SCHEMA.fromItem(item)).isEqualTo(s);
  }

  @Test
  void absentAndNullAttributesGiveTheFieldsAbsentValues() {
    Scalars empty = new Scalars("k1", 0, 0, false, null, null, null, null, Optional.empty());
    assertThat(SCHEMA.toItem(empty).names())
        .containsExactlyInAnyOrder("id", "count", "small", "flag");
    assertThat(SCHEMA.fromItem(base().build())).isEqualTo(empty);
    Item nulls = base().build();
    for (String a : new String[] {"count", "small", "flag", "boxedCount", "text", "maybe"}) {
      nulls = nulls.toBuilder().put(a, AttributeValue.nullValue()).build();
    }
    assertThat(SCHEMA.fromItem(nulls)).isEqualTo(empty);
  }

  @Test
  void aStoredValueOfAnotherTypeOrRangeFailsNamingTheAttribute() {
    expectFailure(base().put("count", "12"), "count", "expected a NUMBER");
    expectFailure(base().put("small", 1L << 40), "small", "");
    expectFailure(base().put("boxedSmall", new java.math.BigDecimal("1.5")), "boxedSmall", "");
    expectFailure(base().put("count", new java.math.BigDecimal("2.5")), "count", "");
    expectFailure(base().put("flag", 1), "flag", "expected a BOOLEAN");
    expectFailure(base().put("text", 3), "text", "expected a STRING");
  }

  private static void expectFailure(Item.Builder item, String attribute, String reason) {
    assertThatThrownBy(() -> SCHEMA.fromItem(item.build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("k1")
        .hasMessageContaining("attribute '" + attribute + "'")
        .hasMessageContaining(reason);
  }

  /** Stores strings upper-cased with a marker, to be told apart from the built-in form. */
  static final class Shouting implements AttributeConverter<String> {
    @Override
    public AttributeValue toAttribute(String value) {
      return AttributeValue.of("!" + value.toUpperCase(Locale.ROOT));
    }

    @Override
    public String fromAttribute(AttributeValue stored) {
      String s = ((AttributeValue.StringValue) stored).value();
      if (!s.startsWith("!")) {
        throw new IllegalArgumentException("not shouted");
      }
      return s.substring(1).toLowerCase(Locale.ROOT);
    }

    @Override
    public AttributeType storedType() {
      return AttributeType.STRING;
    }
  }

  @Test
  void aConverterForStringsStillDecidesTheirStoredForm() {
    TypedSchema<Scalars> shouting =
        TypedSchema.builder(Scalars.class).converter(String.class, new Shouting()).build();
    Scalars s = new Scalars("k1", 1, 2, true, null, null, null, "quiet", Optional.empty());
    Item item = shouting.toItem(s);
    assertThat(item.getString("text")).isEqualTo("!QUIET");
    assertThat(item.getString("id")).isEqualTo("!K1");
    assertThat(shouting.fromItem(item)).isEqualTo(s);
    assertThatThrownBy(() -> shouting.fromItem(item.toBuilder().put("text", "plain").build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("attribute 'text'")
        .hasMessageContaining("not shouted");
  }
}
