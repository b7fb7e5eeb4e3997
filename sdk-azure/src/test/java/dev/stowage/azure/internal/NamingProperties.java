package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.spi.TableRef;
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
  private static final Pattern AZURE_PROPERTY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,254}");

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
            ? "x" + raw.replaceAll("\\p{Cntrl}", "")
            : raw;
    if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255
        || name.chars().anyMatch(c -> Character.isSurrogate((char) c))) {
      return;
    }
    String escaped = PropertyNames.escape(name);
    if (escaped != null) {
      assertThat(escaped).matches(AZURE_PROPERTY);
      assertThat(PropertyNames.unescape(escaped)).isEqualTo(name);
      assertThat(escaped).doesNotStartWith("_0_").doesNotStartWith("_1_").doesNotStartWith("_2_");
    }
    EntityCodec.Property p = EntityCodec.property(name, AttributeValue.nullValue());
    assertThat(p.name()).matches(AZURE_PROPERTY);
  }

  @Example
  void systemNamesAreEscaped() {
    assertThat(PropertyNames.escape("RowKey")).isNotEqualTo("RowKey");
    assertThat(PropertyNames.unescape(PropertyNames.escape("RowKey"))).isEqualTo("RowKey");
    assertThat(PropertyNames.escape("__ix_byA_p")).isEqualTo("____ix__byA__p");
    assertThat(PropertyNames.escape("a.b")).isEqualTo("a_2e_b");
  }
}
