package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class NamingProperties {
  private static final Pattern AZURE_TABLE = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

  @Provide
  Arbitrary<TableRef> refs() {
    Arbitrary<String> ns =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Combinators.combine(
                    Arbitraries.chars().range('a', 'z'),
                    Arbitraries.strings().withCharRange('a', 'z').numeric().ofMaxLength(15))
                .as((c, s) -> c + s));
    Arbitrary<String> table =
        Combinators.combine(
                Arbitraries.chars().range('a', 'z'),
                Arbitraries.strings()
                    .withCharRange('a', 'z')
                    .numeric()
                    .withChars("_-")
                    .ofMinLength(2)
                    .ofMaxLength(39))
            .as((c, s) -> c + s);
    return Combinators.combine(ns, table).as(TableRef::new);
  }

  @Property(tries = 2000)
  void tableNamesAreValidAndReversible(@ForAll("refs") TableRef ref) {
    for (String name : new String[] {TableNames.dataTable(ref), TableNames.indexTable(ref)}) {
      assertThat(name).matches(AZURE_TABLE);
      // Case-insensitive: parsing the upper-cased name still yields the same reference.
      assertThat(TableNames.parse(name.toUpperCase(Locale.ROOT))).isEqualTo(ref);
    }
    assertThat(TableNames.dataTable(ref)).isNotEqualToIgnoringCase(TableNames.indexTable(ref));
  }

  @Example
  void readableNamesForPlainTables() {
    assertThat(TableNames.dataTable(new TableRef("", "orders"))).isEqualTo("s0torders");
    assertThat(TableNames.dataTable(new TableRef("prod", "orders"))).isEqualTo("s4prodtorders");
    assertThat(TableNames.indexTable(new TableRef("prod", "orders"))).isEqualTo("s4prodiorders");
    String longest =
        TableNames.dataTable(new TableRef("a".repeat(16), "-".repeat(39).replaceFirst("-", "z")));
    assertThat(longest.length()).isLessThanOrEqualTo(63);
  }

  @Property(tries = 2000)
  void propertyNamesAreValidAndReversible(@ForAll String raw) {
    String name =
        raw.isEmpty() || raw.chars().anyMatch(Character::isISOControl)
            ? "x"
                + raw.codePoints()
                    .filter(c -> !Character.isISOControl(c))
                    .collect(
                        StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
            : raw;
    if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255
        || name.chars().anyMatch(c -> Character.isSurrogate((char) c))) {
      return;
    }
    String escaped = PropertyNames.escape(name);
    if (escaped != null) {
      assertValidProperty(escaped);
      assertThat(PropertyNames.unescape(escaped)).isEqualTo(name);
      assertThat(escaped).doesNotStartWith("_0_").doesNotStartWith("_1_").doesNotStartWith("_2_");
    }
    EntityCodec.Property p = EntityCodec.property(name, AttributeValue.nullValue());
    assertValidProperty(p.name());
  }

  /**
   * Names another tool writes: identifiers over a small alphabet, so prefixes and escapes occur.
   */
  @Provide
  Arbitrary<String> nativeNames() {
    Arbitrary<String> head = Arbitraries.of("_", "a", "Z", "é", "_3_", "_3__", "__");
    Arbitrary<String> tail = Arbitraries.strings().withChars("_3a2eBé0").ofMaxLength(12);
    return Combinators.combine(head, tail).as((h, t) -> h + t);
  }

  @Property(tries = 5000)
  void everyNameAnotherToolWritesIsWrittenBackAsItself(@ForAll("nativeNames") String property) {
    if (property.startsWith("_0_") || property.startsWith("_1_") || property.startsWith("_2_")) {
      return; // the driver's private prefixes
    }
    String attribute = PropertyNames.unescape(property);
    assertThat(PropertyNames.escape(attribute)).isEqualTo(property);
    if (!property.startsWith(PropertyNames.ESCAPED)) {
      assertThat(attribute).as("only _3_ names can be escapes").isEqualTo(property);
    }
  }

  @Example
  void nativeNamesReadAsThemselves() {
    for (String n :
        List.of(
            "first_name",
            "__typename",
            "a__b",
            "_id",
            "x_",
            "_",
            "__",
            "Order2024_total",
            "prénom",
            "名前",
            "_3_abc",
            "_3_",
            "_3_a_2e",
            "_3_A_41_",
            "_4_x",
            "_12_")) {
      assertThat(PropertyNames.unescape(n)).as(n).isEqualTo(n);
      assertThat(PropertyNames.escape(n)).as(n).isEqualTo(n);
    }
  }

  @Example
  void anEscapeReadsTheSameEachTime() {
    // unescape remembers its answers: a second read of a name answers from memory
    for (String n :
        List.of("_3_stowage_3a_ix_3a_byA_3a_p", "_3_a_2e", "_3_A_41_", "_3_my_20_name")) {
      String first = PropertyNames.unescape(n);
      assertThat(PropertyNames.unescape(n)).as(n).isEqualTo(first);
      assertThat(PropertyNames.escape(first)).as(n).isEqualTo(n);
    }
    assertThat(PropertyNames.unescape("_3_a_2e")).isEqualTo("_3_a_2e");
    assertThat(PropertyNames.unescape("_3_my_20_name")).isEqualTo("my name");
  }

  @Example
  void namesThatAreNotIdentifiersAreEscaped() {
    assertThat(PropertyNames.escape("a.b")).isEqualTo("_3_a_2e_b");
    assertThat(PropertyNames.escape("stowage:ix:byA:p")).isEqualTo("_3_stowage_3a_ix_3a_byA_3a_p");
    assertThat(PropertyNames.escape("1st")).isEqualTo("_3_1st");
    assertThat(PropertyNames.escape("my name")).isEqualTo("_3_my_20_name");
    assertThat(PropertyNames.escape("_0_n")).isEqualTo("_3___0__n");
    assertThat(PropertyNames.unescape("_3_a_2e_b")).isEqualTo("a.b");
    assertThat(PropertyNames.unescape("_3_1st")).isEqualTo("1st");
    // An escape of an escape: the name _3_a_2e_b is not plain, since it reads as a.b.
    assertThat(PropertyNames.escape("_3_a_2e_b")).isEqualTo("_3___3__a__2e__b");
    assertThat(PropertyNames.unescape("_3___3__a__2e__b")).isEqualTo("_3_a_2e_b");
  }

  @Example
  void systemNamesAreEscaped() {
    assertThat(PropertyNames.escape("RowKey")).isEqualTo("_3_RowKey");
    assertThat(PropertyNames.escape("timestamp")).isEqualTo("_3_timestamp");
    assertThat(PropertyNames.unescape(PropertyNames.escape("RowKey"))).isEqualTo("RowKey");
  }

  private static void assertValidProperty(String name) {
    assertThat(name.length()).isBetween(1, 255);
    assertThat(PropertyNames.isIdentifier(name)).as(name).isTrue();
  }
}
