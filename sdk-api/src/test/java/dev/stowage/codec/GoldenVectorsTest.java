package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.google.crypto.tink.Aead;
import com.google.crypto.tink.RegistryConfiguration;
import dev.stowage.AttributePolicy;
import dev.stowage.codec.GoldenVectors.Vector;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Key;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Envelopes written by this format version decode forever. The committed vectors must decode to
 * their values; deterministic ones (no encryption) must also be re-encoded byte for byte. A second,
 * independent decoder written from docs/FORMAT.md (raw zstd, raw Tink, hand-built associated data)
 * checks that the specification matches the bytes.
 */
class GoldenVectorsTest {
  private static final List<Vector> V1 =
      GoldenVectors.parse(TestKeys.resourceText(GoldenVectors.FILE));
  private static final List<Vector> KINDS =
      GoldenVectors.parse(TestKeys.resourceText(GoldenVectors.KINDS_FILE));
  private static final List<Vector> VECTORS =
      java.util.stream.Stream.concat(V1.stream(), KINDS.stream()).toList();

  @Test
  void fileCoversEveryCase() {
    assertCovers(V1, GoldenVectors.cases());
    assertCovers(KINDS, GoldenVectors.payloadKindCases());
  }

  private static void assertCovers(List<Vector> file, List<Vector> cases) {
    assertThat(file)
        .extracting(Vector::name)
        .containsExactlyElementsOf(cases.stream().map(Vector::name).toList());
    for (int i = 0; i < file.size(); i++) {
      assertThat(file.get(i).value()).isEqualTo(cases.get(i).value());
    }
  }

  /**
   * The first file holds strings and binary values encrypted in their serialised form (payload kind
   * 0), as releases before the payload kinds wrote every encrypted value; the second holds the same
   * types as their own bytes. Both stay readable.
   */
  @Test
  void theFilesHoldBothFormsOfEncryptedStringsAndBinaryValues() {
    assertThat(flagsOf(V1, "encrypted-string")).isEqualTo(0x02);
    assertThat(flagsOf(V1, "encrypted-incompressible-binary")).isEqualTo(0x02);
    assertThat(flagsOf(KINDS, "encrypted-binary-bytes")).isEqualTo(0x0A);
    assertThat(flagsOf(KINDS, "encrypted-empty-binary-bytes")).isEqualTo(0x0A);
    assertThat(flagsOf(KINDS, "encrypted-string-utf8")).isEqualTo(0x12);
    assertThat(flagsOf(KINDS, "compressed-encrypted-incompressible-binary-bytes")).isEqualTo(0x0A);
  }

  private static int flagsOf(List<Vector> vectors, String name) {
    return vectors.stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow()
        .envelope()[3];
  }

  @Test
  void everyVectorDecodes() {
    Codecs codecs = GoldenVectors.codecs();
    for (Vector v : VECTORS) {
      AttributeValue decoded =
          codecs.decode(
              v.table(), v.key(), v.attribute(), v.policy(), AttributeValue.of(v.envelope()));
      assertThat(decoded).as(v.name()).isEqualTo(v.value());
    }
  }

  @Test
  void deterministicVectorsEncodeToTheSameBytes() {
    Codecs codecs = GoldenVectors.codecs();
    for (Vector v : VECTORS) {
      if (!v.deterministic()) {
        continue;
      }
      // Plain attributes now store every value as is; the escape that vector pins is the one a
      // compressed attribute still writes for a small binary value starting with the magic.
      boolean plain = !v.policy().encoded();
      AttributePolicy policy = plain ? AttributePolicy.COMPRESSED : v.policy();
      AttributeValue stored = codecs.encode(v.table(), v.key(), v.attribute(), policy, v.value());
      assertThat(((BinaryValue) stored).value().toByteArray()).as(v.name()).isEqualTo(v.envelope());
      if (plain) {
        assertThat(codecs.encode(v.table(), v.key(), v.attribute(), v.policy(), v.value()))
            .as(v.name() + " in a plain attribute")
            .isSameAs(v.value());
      }
    }
  }

  @Test
  void encryptedVectorsAreUnderTheFixedKeyAndCurrent() {
    Codecs codecs = GoldenVectors.codecs();
    for (Vector v : VECTORS) {
      if (v.policy().encrypted()) {
        assertThat(codecs.needsReencryption(AttributeValue.of(v.envelope()))).isFalse();
      }
    }
  }

  @Test
  void specificationDecodesTheVectorsIndependently() throws Exception {
    Aead aead = TestKeys.fixedKeyset().getPrimitive(RegistryConfiguration.get(), Aead.class);
    byte[] dictionary = GoldenVectors.dictionary().content();
    for (Vector v : VECTORS) {
      byte[] e = v.envelope();
      assertThat(e[0]).isEqualTo((byte) 0xF5);
      assertThat(e[1]).isEqualTo((byte) 0x53);
      assertThat(e[2]).isEqualTo((byte) 1);
      int flags = e[3];
      assertThat(flags & ~0x1F).as(v.name() + " flags").isZero();
      int kind = flags & 0x18;
      int pos = 4;
      if ((flags & 4) != 0) {
        assertThat(Arrays.copyOfRange(e, 4, 6)).containsExactly(0xAC, 0x02); // 300
        pos = 6;
      }
      byte[] payload;
      if ((flags & 2) != 0) {
        ByteArrayOutputStream ad = new ByteArrayOutputStream();
        lengthPrefixed(ad, Arrays.copyOf(e, pos));
        lengthPrefixed(ad, v.table().getBytes(StandardCharsets.UTF_8));
        ad.write(ValueWire.encode(v.key().partition()));
        if (v.key().sortOrNull() == null) {
          ad.write(0);
        } else {
          ad.write(1);
          ad.write(ValueWire.encode(v.key().sortOrNull()));
        }
        lengthPrefixed(ad, v.attribute().getBytes(StandardCharsets.UTF_8));
        byte[] ct = Arrays.copyOfRange(e, pos, e.length);
        assertThat(ct[0]).as("Tink prefix").isEqualTo((byte) 1);
        payload = aead.decrypt(ct, ad.toByteArray());
      } else {
        CRC32C crc = new CRC32C();
        crc.update(e, 0, e.length - 4);
        int stored =
            ((e[e.length - 4] & 0xFF) << 24)
                | ((e[e.length - 3] & 0xFF) << 16)
                | ((e[e.length - 2] & 0xFF) << 8)
                | (e[e.length - 1] & 0xFF);
        assertThat(stored).as(v.name() + " CRC-32C").isEqualTo((int) crc.getValue());
        payload = Arrays.copyOfRange(e, pos, e.length - 4);
      }
      byte[] serial;
      if ((flags & 1) == 0) {
        serial = payload;
      } else if ((flags & 4) == 0) {
        serial = Zstd.decompress(payload, (int) Zstd.getFrameContentSize(payload));
      } else {
        byte[] out = new byte[(int) Zstd.getFrameContentSize(payload)];
        long n = Zstd.decompressUsingDict(out, 0, payload, 0, payload.length, dictionary);
        assertThat(n).isEqualTo(out.length);
        serial = out;
      }
      if (kind == 0) {
        assertThat(ValueWire.decode(serial)).as(v.name()).isEqualTo(v.value());
      } else {
        assertThat(flags & 0x07).as(v.name() + ": a payload kind is only encrypted").isEqualTo(2);
        AttributeValue value =
            kind == 0x08
                ? AttributeValue.of(serial)
                : AttributeValue.of(
                    StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(serial))
                        .toString());
        assertThat(kind).as(v.name() + " kind").isIn(0x08, 0x10);
        assertThat(value).as(v.name()).isEqualTo(v.value());
      }
    }
  }

  /**
   * Fresh encryptions of every kind of value are laid out as specified: header {@code F5 53 01} and
   * flags {@code 0A} for a binary value, {@code 12} for a string, {@code 02} for any other value,
   * then a Tink ciphertext, under the specified associated data, of the binary value's bytes, the
   * string's UTF-8, or the value's exact serialisation.
   */
  @Test
  void freshEncryptionsFollowTheSpecification() throws Exception {
    Aead aead = TestKeys.fixedKeyset().getPrimitive(RegistryConfiguration.get(), Aead.class);
    Codecs codecs = GoldenVectors.codecs();
    Key key = Key.of("customer#1", 7);
    List<AttributeValue> values =
        List.of(
            AttributeValue.of("héllo"),
            AttributeValue.of(new byte[] {(byte) 0xF5, 0x53, 0, 1}),
            AttributeValue.of(new byte[70_000]),
            AttributeValue.of(42),
            AttributeValue.of(true),
            AttributeValue.list(AttributeValue.of("a"), AttributeValue.of(1)),
            AttributeValue.map(Map.of("n", AttributeValue.of(2), "s", AttributeValue.of("x"))));
    for (AttributeValue value : values) {
      byte[] e = bytesOf(codecs.encode("orders", key, "secret", AttributePolicy.ENCRYPTED, value));
      int flags = value instanceof BinaryValue ? 0x0A : value instanceof StringValue ? 0x12 : 0x02;
      assertThat(Arrays.copyOf(e, 4)).containsExactly(0xF5, 0x53, 0x01, flags);
      ByteArrayOutputStream ad = new ByteArrayOutputStream();
      lengthPrefixed(ad, Arrays.copyOf(e, 4));
      lengthPrefixed(ad, "orders".getBytes(StandardCharsets.UTF_8));
      ad.write(ValueWire.encode(key.partition()));
      ad.write(1);
      ad.write(ValueWire.encode(key.sortOrNull()));
      lengthPrefixed(ad, "secret".getBytes(StandardCharsets.UTF_8));
      byte[] payload = aead.decrypt(Arrays.copyOfRange(e, 4, e.length), ad.toByteArray());
      byte[] expected =
          value instanceof BinaryValue b
              ? b.value().toByteArray()
              : value instanceof StringValue s
                  ? s.value().getBytes(StandardCharsets.UTF_8)
                  : ValueWire.encode(value);
      assertThat(payload).as(value.toString()).isEqualTo(expected);
    }
  }

  /**
   * Strings and binary values encrypted in their serialised form, as releases before the payload
   * kinds wrote them (flags {@code 02}, built here by hand with Tink), read exactly, whatever their
   * length; written again, they take their payload kind.
   */
  @Test
  void serialisedStringsAndBinaryValuesStillRead() throws Exception {
    Aead aead = TestKeys.fixedKeyset().getPrimitive(RegistryConfiguration.get(), Aead.class);
    Codecs codecs = GoldenVectors.codecs();
    Key key = Key.of("customer#1", 7);
    byte[] large = new byte[70_000];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31);
    }
    List<AttributeValue> values =
        List.of(
            AttributeValue.of(new byte[0]),
            AttributeValue.of(new byte[] {(byte) 0xF5, 0x53, 0x01, 0x0A}),
            AttributeValue.of(Arrays.copyOf(large, 127)),
            AttributeValue.of(Arrays.copyOf(large, 128)),
            AttributeValue.of(large),
            AttributeValue.of(""),
            AttributeValue.of("héllo \uFFFD ✓ \uD83D\uDE00"),
            AttributeValue.of("x".repeat(20_000)));
    for (AttributePolicy policy :
        List.of(AttributePolicy.ENCRYPTED, AttributePolicy.COMPRESSED_AND_ENCRYPTED)) {
      for (AttributeValue value : values) {
        byte[] header = {(byte) 0xF5, 0x53, 0x01, 0x02};
        ByteArrayOutputStream ad = new ByteArrayOutputStream();
        lengthPrefixed(ad, header);
        lengthPrefixed(ad, "orders".getBytes(StandardCharsets.UTF_8));
        ad.write(ValueWire.encode(key.partition()));
        ad.write(1);
        ad.write(ValueWire.encode(key.sortOrNull()));
        lengthPrefixed(ad, "secret".getBytes(StandardCharsets.UTF_8));
        byte[] ct = aead.encrypt(ValueWire.encode(value), ad.toByteArray());
        byte[] old = new byte[header.length + ct.length];
        System.arraycopy(header, 0, old, 0, header.length);
        System.arraycopy(ct, 0, old, header.length, ct.length);

        AttributeValue decoded =
            codecs.decode("orders", key, "secret", policy, AttributeValue.of(old));
        assertThat(decoded).as(value + " under " + policy).isEqualTo(value);
        assertThat(codecs.needsReencryption(AttributeValue.of(old))).isFalse();
        AttributeValue again = codecs.encode("orders", key, "secret", policy, decoded);
        assertThat(codecs.decode("orders", key, "secret", policy, again)).isEqualTo(value);
        if (policy.equals(AttributePolicy.ENCRYPTED)) {
          assertThat(bytesOf(again)[3])
              .isEqualTo((byte) (value instanceof BinaryValue ? 0x0A : 0x12));
        }
      }
    }
  }

  private static byte[] bytesOf(AttributeValue stored) {
    return ((BinaryValue) stored).value().toByteArray();
  }

  private static void lengthPrefixed(ByteArrayOutputStream out, byte[] b) {
    long n = b.length;
    while ((n & ~0x7FL) != 0) {
      out.write((int) ((n & 0x7F) | 0x80));
      n >>>= 7;
    }
    out.write((int) n);
    out.write(b, 0, b.length);
  }
}
