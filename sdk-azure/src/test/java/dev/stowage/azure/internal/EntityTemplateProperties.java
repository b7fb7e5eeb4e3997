package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.testkit.Generators;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Templates never change what a value reads as: whatever property was stored before under the
 * attribute's name, the value written in its place reads back as the value; and a native property
 * read and written back unchanged keeps its EDM type and value.
 */
class EntityTemplateProperties {
  private static final KeySchema KEYS = KeySchema.of("id", AttributeType.STRING);

  static List<Object> templates() {
    return List.of(
        "text",
        new byte[] {1},
        true,
        42,
        Integer.MIN_VALUE,
        9007199254740993L,
        4.5,
        3.0,
        Double.NaN,
        Double.NEGATIVE_INFINITY,
        -0.0,
        1e300,
        Double.MIN_VALUE,
        OffsetDateTime.of(2024, 5, 1, 12, 34, 56, 123456700, ZoneOffset.UTC),
        OffsetDateTime.of(1601, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
        UUID.fromString("3f2504e0-4f89-11d3-9a0c-0305e82c3301"));
  }

  @Provide
  Arbitrary<Object> template() {
    return Arbitraries.of(templates());
  }

  @Provide
  Arbitrary<AttributeValue> value() {
    return Arbitraries.oneOf(
        Generators.values(),
        Arbitraries.of(templates()).map(EntityCodec::fromNative),
        Arbitraries.of(
            AttributeValue.of("2025-01-02T03:04:05.0000006Z"),
            AttributeValue.of("2025-01-02T03:04:05Z"),
            AttributeValue.of("00000000-0000-0000-0000-000000000001"),
            AttributeValue.of("Infinity"),
            AttributeValue.of(3_000_000_000L),
            AttributeValue.of(new BigDecimal("0.1")),
            AttributeValue.of(new BigDecimal("1E+20"))));
  }

  @Property(tries = 2000)
  void aValueWrittenInPlaceOfAnyPropertyReadsBackExactly(
      @ForAll("value") AttributeValue v, @ForAll("template") Object template) {
    Item item = Item.builder().put("id", "k").put("attr", v).build();
    Map<String, Object> props = EntityCodec.properties(KEYS, item, Map.of("attr", template));
    assertThat(EntityCodec.item(KEYS, Key.of("k"), props)).isEqualTo(item);
  }

  @Property(tries = 100)
  void anUnchangedNativePropertyKeepsItsTypeAndValue(@ForAll("template") Object template) {
    Map<String, Object> stored = Map.of("attr", template);
    Item item = EntityCodec.item(KEYS, Key.of("k"), stored);
    Object written = EntityCodec.properties(KEYS, item, stored).get("attr");
    if (template instanceof byte[] b) {
      assertThat((byte[]) written).containsExactly(b);
    } else {
      assertThat(written).isEqualTo(template);
    }
  }
}
