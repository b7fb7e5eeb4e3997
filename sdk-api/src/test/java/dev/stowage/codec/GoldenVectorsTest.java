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
  private static final List<Vector> VECTORS =
      GoldenVectors.parse(TestKeys.resourceText(GoldenVectors.FILE));

  @Test
  void fileCoversEveryCase() {
    assertThat(VECTORS)
        .extracting(Vector::name)
        .containsExactlyElementsOf(GoldenVectors.cases().stream().map(Vector::name).toList());
    for (int i = 0; i < VECTORS.size(); i++) {
      assertThat(VECTORS.get(i).value()).isEqualTo(GoldenVectors.cases().get(i).value());
    }
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
      assertThat(ValueWire.decode(serial)).as(v.name()).isEqualTo(v.value());
    }
  }

  /**
   * Fresh encryptions of every kind of value (a string and a binary value, whose serialisation
   * header is joined to their bytes, and values serialised whole into an array of their own) are
   * laid out as specified: header {@code F5 53 01 02}, then a Tink ciphertext of the value's exact
   * serialisation under the specified associated data.
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
      assertThat(Arrays.copyOf(e, 4)).containsExactly(0xF5, 0x53, 0x01, 0x02);
      ByteArrayOutputStream ad = new ByteArrayOutputStream();
      lengthPrefixed(ad, Arrays.copyOf(e, 4));
      lengthPrefixed(ad, "orders".getBytes(StandardCharsets.UTF_8));
      ad.write(ValueWire.encode(key.partition()));
      ad.write(1);
      ad.write(ValueWire.encode(key.sortOrNull()));
      lengthPrefixed(ad, "secret".getBytes(StandardCharsets.UTF_8));
      byte[] payload = aead.decrypt(Arrays.copyOfRange(e, 4, e.length), ad.toByteArray());
      assertThat(payload).as(value.toString()).isEqualTo(ValueWire.encode(value));
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
