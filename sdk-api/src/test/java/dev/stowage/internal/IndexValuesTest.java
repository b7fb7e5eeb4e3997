package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeValue;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fingerprinted partition values of indexes, as docs/FORMAT.md specifies them. */
class IndexValuesTest {
  private static final IndexSpec BY_KIND =
      IndexSpec.of("byKind", List.of("tenant", "kind"), List.of("at"));

  @Test
  void documentedExampleIsPinned() {
    assertThat(IndexValues.hex(IndexValues.fingerprint(BY_KIND))).isEqualTo("a1ab227b");
    assertThat(
            HexFormat.of()
                .formatHex(
                    IndexValues.partition(
                            BY_KIND, List.of(AttributeValue.of("t"), AttributeValue.of("click")))
                        .value()
                        .toByteArray()))
        .isEqualTo("02" + "a1ab227b" + "0120740001" + "20636c69636b0001");
  }

  @Test
  void everyChangeOfPartitionOrSortAttributesChangesTheFingerprint() {
    List<IndexSpec> variants =
        List.of(
            BY_KIND,
            IndexSpec.of("byKind", List.of("kind", "tenant"), List.of("at")),
            IndexSpec.of("byKind", List.of("tenant"), List.of("kind", "at")),
            IndexSpec.of("byKind", List.of("tenant", "kind"), List.of()),
            IndexSpec.of("byKind", List.of("tenant", "kind"), List.of("at", "id")),
            IndexSpec.of("byKind", List.of("kind"), List.of("at")),
            IndexSpec.of("byKind", List.of("tenant"), List.of("at")));
    assertThat(variants.stream().map(IndexValues::fingerprint).distinct()).hasSize(variants.size());
    assertThat(IndexValues.hex(IndexValues.fingerprint(variants.get(5)))).isEqualTo("a74903e6");
    assertThat(IndexValues.hex(IndexValues.fingerprint(variants.get(6)))).isEqualTo("cc80c708");
  }

  @Test
  void theNameAndProjectionAreNotPartOfTheDefinition() {
    IndexSpec keysOnly =
        new IndexSpec(
            "other", List.of("tenant", "kind"), List.of("at"), IndexSpec.Projection.KEYS_ONLY);
    assertThat(IndexValues.fingerprint(keysOnly)).isEqualTo(IndexValues.fingerprint(BY_KIND));
  }
}
