package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import dev.stowage.AttributePolicy;
import dev.stowage.StowageException;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.codec.PlaintextPolicy;
import dev.stowage.codec.TestKeys;
import dev.stowage.codec.ZstdDictionary;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.security.GeneralSecurityException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes the envelope decoder with arbitrary bytes: only Stowage's own exceptions may escape.
 * Besides raw noise (which the CRC or AEAD rejects early), it builds inputs that pass those checks
 * — a correct CRC-32C or a genuine AEAD ciphertext over garbage, and real zstd frames of garbage —
 * so the zstd and value parsers behind them are fuzzed too.
 */
class DecoderFuzzTest {
  private static final Key KEY = Key.of("fuzz", "1");
  private static final KeysetHandle KEYSET = TestKeys.fresh();
  private static final Aead AEAD = TestKeys.aead(KEYSET);

  private static final ZstdDictionary DICT =
      ZstdDictionary.of(3, "{\"id\":1,\"name\":\"x\"}".getBytes());
  private static final List<Codecs> READERS =
      List.of(
          Codecs.defaults(),
          Codecs.builder()
              .keys(KeyProvider.ofKeyset(KEYSET))
              .dictionary("a", DICT)
              .plaintextPolicy(PlaintextPolicy.ALLOW)
              .build());
  private static final List<AttributePolicy> POLICIES =
      List.of(AttributePolicy.PLAIN, AttributePolicy.COMPRESSED_AND_ENCRYPTED);

  @Provide
  Arbitrary<byte[]> noise() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
  }

  @Provide
  Arbitrary<Integer> flags() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 255));
  }

  /** None, binary, string, and the undefined fourth value of the payload kind bits. */
  @Provide
  Arbitrary<Integer> payloadKinds() {
    return Arbitraries.of(0, Envelope.KIND_BINARY, Envelope.KIND_STRING, Envelope.PAYLOAD_KIND);
  }

  @Property(tries = 1000)
  void noiseAfterTheMagic(
      @ForAll("noise") byte[] tail, @ForAll("flags") int flags, @ForAll boolean validVersion) {
    byte[] b = new byte[4 + tail.length];
    b[0] = Envelope.MAGIC_0;
    b[1] = Envelope.MAGIC_1;
    b[2] = (byte) (validVersion ? 1 : tail.length);
    b[3] = (byte) flags;
    System.arraycopy(tail, 0, b, 4, tail.length);
    decodeEverywhere(b);
    decodeEverywhere(tail);
  }

  @Property(tries = 1000)
  void garbageBehindAValidChecksum(
      @ForAll("noise") byte[] payload, @ForAll("flags") int flags, @ForAll boolean zstdFrame) {
    byte[] body = zstdFrame ? Zstd.compress(payload) : payload;
    int f = flags & ~Envelope.FLAG_ENCRYPTED;
    int dict = (f & Envelope.FLAG_DICTIONARY) != 0 ? 3 : 0;
    int h = Envelope.headerLength(dict);
    byte[] b = new byte[h + body.length + Envelope.CRC_LENGTH];
    Envelope.writeHeader(b, f & ~Envelope.FLAG_DICTIONARY, dict);
    System.arraycopy(body, 0, b, h, body.length);
    Envelope.writeCrc(b, h + body.length);
    decodeEverywhere(b);
  }

  @Property(tries = 500)
  void garbageBehindAGenuineCiphertext(
      @ForAll("noise") byte[] payload,
      @ForAll boolean compressedFlag,
      @ForAll boolean zstdFrame,
      @ForAll("payloadKinds") int kind)
      throws GeneralSecurityException {
    byte[] body = zstdFrame ? Zstd.compress(payload) : payload;
    byte[] header = new byte[Envelope.FIXED_HEADER];
    int flags = Envelope.FLAG_ENCRYPTED | (compressedFlag ? Envelope.FLAG_COMPRESSED : 0) | kind;
    Envelope.writeHeader(header, flags, 0);
    byte[] ct = AEAD.encrypt(body, Binding.forRead(header, 0, header.length, "t", KEY, "a"));
    byte[] b = new byte[header.length + ct.length];
    System.arraycopy(header, 0, b, 0, header.length);
    System.arraycopy(ct, 0, b, header.length, ct.length);
    decodeEverywhere(b);
  }

  @Property(tries = 500)
  void mutatedRealEnvelopes(
      @ForAll("noise") byte[] plain,
      @ForAll int position,
      @ForAll byte replacement,
      @ForAll boolean insert,
      @ForAll boolean encrypt) {
    Codecs writer = READERS.get(1);
    AttributeValue stored =
        writer.encode(
            "t",
            KEY,
            "a",
            encrypt ? AttributePolicy.COMPRESSED_AND_ENCRYPTED : AttributePolicy.COMPRESSED,
            AttributeValue.of(
                new String(plain, java.nio.charset.StandardCharsets.ISO_8859_1).repeat(3)));
    if (!(stored instanceof AttributeValue.BinaryValue bv)) {
      return;
    }
    byte[] env = bv.value().toByteArray();
    int i = Math.floorMod(position, env.length);
    byte[] b;
    if (insert) {
      b = new byte[env.length + 1];
      System.arraycopy(env, 0, b, 0, i);
      b[i] = replacement;
      System.arraycopy(env, i, b, i + 1, env.length - i);
    } else {
      b = env.clone();
      b[i] = replacement;
    }
    decodeEverywhere(b);
  }

  private static void decodeEverywhere(byte[] bytes) {
    AttributeValue v = AttributeValue.of(bytes);
    for (Codecs c : READERS) {
      for (AttributePolicy p : POLICIES) {
        try {
          assertThat(c.decode("t", KEY, "a", p, v)).isNotNull();
          c.needsReencryption(v);
          c.needsRewrite(p, v);
        } catch (StowageException expected) {
          // The only acceptable failure.
        }
      }
    }
  }
}
