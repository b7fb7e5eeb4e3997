package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** zstd: thresholds, keep-the-original, levels and per-attribute dictionaries. */
class CompressionTest {
  private static final Key KEY = Key.of("k");

  @Test
  void compressesWhenItPays() {
    AttributeValue doc = AttributeValue.of(Values.json(64 * 1024, 1));
    AttributeValue stored =
        Codecs.defaults().encode("t", KEY, "doc", AttributePolicy.COMPRESSED, doc);
    byte[] env = bytes(stored);
    assertThat(env.length).isLessThan(64 * 1024 / 3);
    assertThat(env[3]).isEqualTo((byte) 0x01);
    assertThat(Codecs.defaults().decode("t", KEY, "doc", AttributePolicy.COMPRESSED, stored))
        .isEqualTo(doc);
  }

  @Test
  void keepsTheOriginalBelowTheThresholdOrWhenCompressionDoesNotHelp() {
    AttributeValue small = AttributeValue.of("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    assertThat(Codecs.defaults().encode("t", KEY, "a", AttributePolicy.COMPRESSED, small))
        .isSameAs(small);
    // Below the default threshold of 64, but compressible: compressed once the threshold is 0.
    Codecs eager = Codecs.builder().minCompressSize(0).build();
    assertThat(eager.encode("t", KEY, "a", AttributePolicy.COMPRESSED, small))
        .isInstanceOf(BinaryValue.class);
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    AttributeValue random = AttributeValue.of(noise);
    assertThat(Codecs.defaults().encode("t", KEY, "a", AttributePolicy.COMPRESSED, random))
        .isSameAs(random);
    // Encrypted: incompressible payloads are encrypted without the compressed flag (a binary value
    // as its own bytes, payload kind 08).
    Codecs enc = TestKeys.codecs(TestKeys.fresh());
    byte[] env = bytes(enc.encode("t", KEY, "a", AttributePolicy.COMPRESSED_AND_ENCRYPTED, random));
    assertThat(env[3]).isEqualTo((byte) 0x0A);
    byte[] packed =
        bytes(
            enc.encode(
                "t",
                KEY,
                "a",
                AttributePolicy.COMPRESSED_AND_ENCRYPTED,
                AttributeValue.of(Values.json(5000, 2))));
    assertThat(packed[3]).isEqualTo((byte) 0x03);
    assertThat(packed.length).isLessThan(2500);
  }

  @Test
  void higherLevelsCompressAtLeastAsWell() {
    AttributeValue doc = AttributeValue.of(Values.json(50_000, 4));
    int fast =
        bytes(
                Codecs.builder()
                    .compressionLevel(1)
                    .build()
                    .encode("t", KEY, "a", AttributePolicy.COMPRESSED, doc))
            .length;
    int strong =
        bytes(
                Codecs.builder()
                    .compressionLevel(19)
                    .build()
                    .encode("t", KEY, "a", AttributePolicy.COMPRESSED, doc))
            .length;
    assertThat(strong).isLessThan(fast);
    assertThatThrownBy(() -> Codecs.builder().compressionLevel(23))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Codecs.builder().minCompressSize(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void trainedDictionaryShrinksSmallDocumentsAndTravelsInTheEnvelope() {
    List<byte[]> samples = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      samples.add(Values.json(300, i).getBytes(StandardCharsets.UTF_8));
    }
    ZstdDictionary dict = ZstdDictionary.train(77, samples, 16 * 1024);
    assertThat(dict.id()).isEqualTo(77);
    Codecs with = Codecs.builder().dictionary("doc", dict).build();
    AttributeValue doc = AttributeValue.of(Values.json(300, 99_999));
    byte[] plain =
        bytes(Codecs.defaults().encode("t", KEY, "doc", AttributePolicy.COMPRESSED, doc));
    byte[] env = bytes(with.encode("t", KEY, "doc", AttributePolicy.COMPRESSED, doc));
    assertThat(env.length).isLessThan(plain.length * 2 / 3);
    assertThat(env[3]).isEqualTo((byte) 0x05); // compressed | dictionary
    assertThat(env[4]).isEqualTo((byte) 77); // dictionary id, varint
    assertThat(with.decode("t", KEY, "doc", AttributePolicy.COMPRESSED, env(env))).isEqualTo(doc);
    // Other attributes do not use it.
    assertThat(bytes(with.encode("t", KEY, "other", AttributePolicy.COMPRESSED, doc)))
        .isEqualTo(plain);

    // A reader without the dictionary fails, naming it.
    assertThatThrownBy(
            () -> Codecs.defaults().decode("t", KEY, "doc", AttributePolicy.COMPRESSED, env(env)))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("dictionary 77 is not configured")
        .hasMessageContaining("attribute 'doc'");
    // A retired dictionary kept for reading still decodes.
    Codecs retired = Codecs.builder().readDictionary(dict).build();
    assertThat(retired.decode("t", KEY, "doc", AttributePolicy.PLAIN, env(env))).isEqualTo(doc);
    // The same dictionary under encryption.
    Codecs both =
        Codecs.builder()
            .dictionary("doc", dict)
            .keys(KeyProvider.ofKeyset(TestKeys.fresh()))
            .build();
    AttributeValue sealed =
        both.encode("t", KEY, "doc", AttributePolicy.COMPRESSED_AND_ENCRYPTED, doc);
    assertThat(bytes(sealed)[3]).isEqualTo((byte) 0x07);
    assertThat(both.decode("t", KEY, "doc", AttributePolicy.ENCRYPTED, sealed)).isEqualTo(doc);
  }

  @Test
  void reusingAnIdForDifferentContentIsCaught() {
    ZstdDictionary a = ZstdDictionary.of(5, Values.json(3000, 1).getBytes(StandardCharsets.UTF_8));
    ZstdDictionary b = ZstdDictionary.of(5, Values.json(3000, 2).getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Codecs.builder().dictionary("x", a).readDictionary(b).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("share id 5");
    // Written with one content, read with another under the same id: the checksum catches it.
    AttributeValue doc = AttributeValue.of(Values.json(2000, 3));
    AttributeValue stored =
        Codecs.builder()
            .dictionary("x", a)
            .build()
            .encode("t", KEY, "x", AttributePolicy.COMPRESSED, doc);
    assertThatThrownBy(
            () ->
                Codecs.builder()
                    .readDictionary(b)
                    .build()
                    .decode("t", KEY, "x", AttributePolicy.COMPRESSED, stored))
        .isInstanceOf(IntegrityException.class);
    assertThatThrownBy(() -> ZstdDictionary.of(0, new byte[16]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZstdDictionary.of(1, new byte[3]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void largeValuesRoundTrip() {
    Codecs codecs = TestKeys.codecs(TestKeys.fresh());
    AttributeValue big = AttributeValue.of(Values.json(1 << 20, 8));
    for (AttributePolicy p :
        List.of(
            AttributePolicy.COMPRESSED,
            AttributePolicy.ENCRYPTED,
            AttributePolicy.COMPRESSED_AND_ENCRYPTED)) {
      AttributeValue stored = codecs.encode("t", KEY, "a", p, big);
      assertThat(codecs.decode("t", KEY, "a", p, stored)).isEqualTo(big);
    }
  }

  static byte[] bytes(AttributeValue v) {
    return ((BinaryValue) v).value().toByteArray();
  }

  private static AttributeValue env(byte[] b) {
    return AttributeValue.of(b);
  }
}
