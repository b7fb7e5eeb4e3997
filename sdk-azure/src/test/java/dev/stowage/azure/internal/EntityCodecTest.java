package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Natively typed properties read into the item model and are written back as the same EDM type and
 * value, including the doubles Azurite cannot store faithfully (NaN, infinities, negative zero,
 * integral doubles), which the real service returns as {@code Edm.Double}.
 */
class EntityCodecTest {
  private static final KeySchema KEYS = KeySchema.of("id", AttributeType.STRING);
  private static final OffsetDateTime BORN =
      OffsetDateTime.of(2024, 5, 1, 12, 34, 56, 123456700, ZoneOffset.UTC);
  private static final UUID ID = UUID.fromString("3f2504e0-4f89-11d3-9a0c-0305e82c3301");

  private static Map<String, Object> nativeProperties() {
    Map<String, Object> p = new HashMap<>();
    p.put("Age", 42);
    p.put("Big", 9007199254740993L);
    p.put("Score", 4.5);
    p.put("Whole", 3.0);
    p.put("NotANumber", Double.NaN);
    p.put("Infinite", Double.POSITIVE_INFINITY);
    p.put("NegInfinite", Double.NEGATIVE_INFINITY);
    p.put("NegZero", -0.0);
    p.put("Huge", 1e300);
    p.put("Born", BORN);
    p.put("Id", ID);
    p.put("Name", "Ann");
    return p;
  }

  @Test
  void nativePropertiesReadIntoTheItemModel() {
    Item item = EntityCodec.item(KEYS, Key.of("x"), nativeProperties());
    assertThat(item)
        .isEqualTo(
            Item.builder()
                .put("id", "x")
                .put("Age", 42)
                .put("Big", 9007199254740993L)
                .put("Score", new BigDecimal("4.5"))
                .put("Whole", 3)
                .put("NotANumber", "NaN")
                .put("Infinite", "Infinity")
                .put("NegInfinite", "-Infinity")
                .put("NegZero", "-0")
                .put("Huge", "1E+300")
                .put("Born", "2024-05-01T12:34:56.1234567Z")
                .put("Id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
                .put("Name", "Ann")
                .build());
  }

  @Test
  void unchangedValuesAreWrittenBackAsTheSameEdmTypeAndValue() {
    Map<String, Object> stored = nativeProperties();
    Item item = EntityCodec.item(KEYS, Key.of("x"), stored);
    Map<String, Object> written = EntityCodec.properties(KEYS, item, stored);
    assertThat(written).isEqualTo(stored);
    // Without the template, Stowage's own types.
    Map<String, Object> plain = EntityCodec.properties(KEYS, item);
    assertThat(plain.get("Age")).isEqualTo(42L);
    assertThat(plain.get("Whole")).isEqualTo(3L);
    assertThat(plain.get("Score")).isEqualTo(4.5);
    assertThat(plain.get("NotANumber")).isEqualTo("NaN");
    assertThat(plain.get("Born")).isEqualTo("2024-05-01T12:34:56.1234567Z");
  }

  @Test
  void changedValuesKeepTheTypeOnlyWhereItHoldsThem() {
    assertThat(EntityCodec.keepType(AttributeValue.of(43), 42)).isEqualTo(43);
    assertThat(EntityCodec.keepType(AttributeValue.of(3_000_000_000L), 42)).isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of(new BigDecimal("1.5")), 42)).isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of(4), 3.0)).isEqualTo(4.0);
    assertThat(EntityCodec.keepType(AttributeValue.of("Infinity"), 3.0))
        .isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(EntityCodec.keepType(AttributeValue.of(new BigDecimal("0.1")), 3.0)).isEqualTo(0.1);
    assertThat(
            EntityCodec.keepType(AttributeValue.of(new BigDecimal("0.12345678901234567890")), 3.0))
        .isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of("2025-01-02T03:04:05.0000006Z"), BORN))
        .isEqualTo(OffsetDateTime.of(2025, 1, 2, 3, 4, 5, 600, ZoneOffset.UTC));
    assertThat(EntityCodec.keepType(AttributeValue.of("2025-01-02T03:04:05Z"), BORN)).isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of("next Tuesday"), BORN)).isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of("00000000-0000-0000-0000-000000000001"), ID))
        .isEqualTo(UUID.fromString("00000000-0000-0000-0000-000000000001"));
    assertThat(EntityCodec.keepType(AttributeValue.of("3F2504E0-4F89-11D3-9A0C-0305E82C3301"), ID))
        .isNull();
    assertThat(EntityCodec.keepType(AttributeValue.of("x"), "y")).isNull();
  }

  @Test
  void namesOtherToolsWriteReadAsThemselvesAndAreWrittenBackUnchanged() {
    Map<String, Object> p = new HashMap<>();
    p.put("first_name", "Ann");
    p.put("__typename", "Person");
    p.put("a__b", 1);
    p.put("_3_a_2e_b", "an escape: reads as a.b");
    Item item = EntityCodec.item(KEYS, Key.of("x"), p);
    assertThat(item.find("first_name")).contains(AttributeValue.of("Ann"));
    assertThat(item.find("__typename")).contains(AttributeValue.of("Person"));
    assertThat(item.find("a__b")).contains(AttributeValue.of(1));
    assertThat(item.find("a.b")).contains(AttributeValue.of("an escape: reads as a.b"));
    assertThat(EntityCodec.properties(KEYS, item, p)).isEqualTo(p);
  }

  @Test
  void reservedNamesThatDoNotHoldStowagesEncodingsAreReportedByName() {
    Map<String, Object> p = new HashMap<>();
    p.put("_1_notes", "a string, not Stowage's typed encoding");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> EntityCodec.item(KEYS, Key.of("x"), p)))
        .isInstanceOf(dev.stowage.IntegrityException.class)
        .hasMessageContaining("_1_notes");
    Map<String, Object> copy = new HashMap<>();
    copy.put("id", "x");
    copy.put("v", true);
    Item read = EntityCodec.item(KEYS, Key.of("x"), copy);
    assertThat(read).isEqualTo(Item.builder().put("id", "x").put("v", true).build());
    assertThat(EntityCodec.properties(KEYS, read, copy))
        .as("an application's copy of its key is kept")
        .isEqualTo(copy);
    Map<String, Object> twice = new HashMap<>();
    twice.put("id", "a property named like the key attribute");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> EntityCodec.item(KEYS, Key.of("x"), twice)))
        .isInstanceOf(dev.stowage.IntegrityException.class)
        .hasMessageContaining("'id'");
  }

  @Test
  void twoPropertiesForOneAttributeAreReportedByName() {
    Map<String, Object> p = new java.util.LinkedHashMap<>();
    p.put("_3_a_2e_b", "the escape of a.b");
    p.put(PropertyNames.typed("a.b"), TypedCodec.encode(AttributeValue.of(1)));
    for (int i = 0; i < 2; i++) {
      assertThat(
              org.assertj.core.api.Assertions.catchThrowable(
                  () -> EntityCodec.item(KEYS, Key.of("x"), p)))
          .isInstanceOf(dev.stowage.IntegrityException.class)
          .hasMessageContaining("two properties standing for attribute 'a.b'");
    }
  }

  @Test
  void entitiesOfOneShapeInAnyOrderReadAsTheirOwnValues() {
    // The stored item remembers the order names came in: entities of the same names, in the same
    // and in another order, each read with their own values.
    for (int i = 0; i < 3; i++) {
      Map<String, Object> p = new java.util.LinkedHashMap<>();
      p.put("b", (long) i);
      p.put("a", "v" + i);
      p.put("c", i % 2 == 0);
      assertThat(EntityCodec.item(KEYS, Key.of("k" + i), p))
          .isEqualTo(
              Item.builder()
                  .put("id", "k" + i)
                  .put("a", "v" + i)
                  .put("b", i)
                  .put("c", i % 2 == 0)
                  .build());
      Map<String, Object> reversed = new java.util.LinkedHashMap<>();
      reversed.put("c", i % 2 == 0);
      reversed.put("a", "v" + i);
      reversed.put("b", (long) i);
      assertThat(EntityCodec.item(KEYS, Key.of("k" + i), reversed))
          .isEqualTo(EntityCodec.item(KEYS, Key.of("k" + i), p));
    }
  }
}
