package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Index entry composites with keys up to Azure's limits (cut key parts, docs/azure.md). */
class IndexCompositeProperties {
  private static final KeySchema SCHEMA =
      KeySchema.of("p", AttributeType.STRING, "s", AttributeType.STRING);

  @Example
  void entriesOfKeysThatFitEarlierLimitsAreWrittenAsBefore() {
    Bytes sort = Bytes.wrap(new byte[120]);
    Key key = Key.of("p".repeat(120), "s".repeat(120));
    String nonce = IndexEntries.newNonce();
    String before =
        KeyCodec.encodeBytes(sort.toByteArray())
            + "!"
            + KeyCodec.encode(key.partition())
            + "!"
            + KeyCodec.encode(key.sortOrNull())
            + "!"
            + nonce;
    String c = AzureKeys.indexComposite(sort, key, nonce);
    assertThat(c).isEqualTo(before);
    assertThat(AzureKeys.keyPartCut(c)).isFalse();
    assertThat(AzureKeys.parseComposite(SCHEMA, c, null))
        .isEqualTo(new AzureKeys.IndexEntry(sort, key, nonce, null));
  }

  @Example
  void keysAtTheLimitBesideTheLongestSortValueAreCutAndReadFromTheProperty() {
    Bytes sort = Bytes.wrap(new byte[255]);
    Key key = Key.of("p".repeat(383), "s".repeat(382));
    String nonce = IndexEntries.newNonce();
    String c = AzureKeys.indexComposite(sort, key, nonce);
    assertThat(("r" + KeyCodec.reverse(c)).length()).isEqualTo(AzureKeys.MAX_KEY_CHARS);
    assertThat(AzureKeys.keyPartCut(c)).isTrue();
    AzureKeys.IndexEntry e = AzureKeys.parseComposite(SCHEMA, c, AzureKeys.keyPart(key));
    assertThat(e.key()).isEqualTo(key);
    assertThat(e.sort()).isEqualTo(sort);
    assertThat(e.nonce()).isEqualTo(nonce);
    assertThat(e.run()).isEqualTo(c.substring(0, c.lastIndexOf('!')));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> AzureKeys.parseComposite(SCHEMA, c, null))
        .as("a cut entry without its key")
        .isInstanceOf(IllegalStateException.class);
  }

  @Provide
  Arbitrary<String> keyStrings() {
    // Long runs of few characters, so that key parts share long prefixes and get cut.
    return Arbitraries.strings().withChars("ab").ofMinLength(1).ofMaxLength(382);
  }

  @Provide
  Arbitrary<byte[]> sorts() {
    return Arbitraries.bytes().between((byte) 0, (byte) 1).array(byte[].class).ofMaxSize(255);
  }

  /**
   * Composites order as (sort, key) except among entries of one run, which share everything but the
   * nonce up to the run's end; a composite parses back to its entry.
   */
  @Property(tries = 500)
  void compositesKeepTheOrderOfSortAndKeyOutsideRuns(
      @ForAll("sorts") byte[] sa,
      @ForAll("keyStrings") String pa,
      @ForAll("keyStrings") String ka,
      @ForAll("sorts") byte[] sb,
      @ForAll("keyStrings") String pb,
      @ForAll("keyStrings") String kb) {
    Bytes s1 = Bytes.wrap(sa);
    Bytes s2 = Bytes.wrap(sb);
    Key k1 = Key.of(pa, ka);
    Key k2 = Key.of(pb, kb);
    String c1 = AzureKeys.indexComposite(s1, k1, IndexEntries.newNonce());
    String c2 = AzureKeys.indexComposite(s2, k2, IndexEntries.newNonce());
    assertThat(("r" + KeyCodec.reverse(c1)).length()).isLessThanOrEqualTo(AzureKeys.MAX_KEY_CHARS);
    AzureKeys.IndexEntry e1 = AzureKeys.parseComposite(SCHEMA, c1, AzureKeys.keyPart(k1));
    assertThat(e1.key()).isEqualTo(k1);
    assertThat(e1.sort()).isEqualTo(s1);
    int expected = s1.compareTo(s2);
    if (expected == 0) {
      expected = k1.compareTo(k2);
    }
    if (expected == 0) {
      return; // the same entry's key, ordered by nonce
    }
    String p1 = AzureKeys.entryPrefix(s1, k1);
    String p2 = AzureKeys.entryPrefix(s2, k2);
    if (p1.equals(p2)) {
      assertThat(AzureKeys.keyPartCut(c1)).as("only cut key parts share a prefix").isTrue();
      return;
    }
    assertThat(Integer.signum(c1.compareTo(c2))).isEqualTo(Integer.signum(expected));
    String r1 = KeyCodec.reverse(c1);
    String r2 = KeyCodec.reverse(c2);
    assertThat(Integer.signum(r1.compareTo(r2))).isEqualTo(-Integer.signum(expected));
  }
}
