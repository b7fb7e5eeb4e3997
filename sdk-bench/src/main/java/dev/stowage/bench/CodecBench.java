package dev.stowage.bench;

import com.github.luben.zstd.Zstd;
import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.AttributePolicy;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 3: Stowage's attribute codec ({@code stowage*}: {@link Codecs#encode} / {@link
 * Codecs#decode} of a binary attribute) against the raw libraries on the same bytes ({@code zstd*}:
 * zstd-jni at the same level 3; {@code tink*}: Tink AEAD AES-256-GCM from the same keyset, with
 * associated data of the same length as Stowage's table/key/attribute binding; {@code zstdTink*}:
 * both, compress then encrypt). Payloads are {@link Payloads#jsonLike} text of 1 KB, 64 KB and 1
 * MB. Target: Stowage's throughput at least 0.9 times the raw library's, encode and decode.
 *
 * <p>The raw anchors do the least a hand-written layer could: no envelope, no type tag, no size
 * check, the decompressed size read from the zstd frame header.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class CodecBench {
  private static final String TABLE = "orders";
  private static final String ATTRIBUTE = "document";
  private static final int LEVEL = 3;

  @Param({"1024", "65536", "1048576"})
  public int size;

  private final Key key = Key.of("customer#12345", "order#2026-11-22#000017");
  private byte[] payload;
  private AttributeValue plain;
  private byte[] associatedData;
  private Codecs codecs;
  private Aead aead;
  private AttributeValue storedCompressed, storedEncrypted, storedBoth;
  private AttributeValue decrypted;
  private byte[] rawCompressed, rawEncrypted, rawBoth;

  /** Builds the payload, the keyset and the encoded forms the decode benchmarks read. */
  @Setup
  public void setUp() throws GeneralSecurityException {
    AeadConfig.register();
    KeysetHandle keyset =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    aead = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
    codecs = Codecs.builder().compressionLevel(LEVEL).keys(KeyProvider.ofKeyset(keyset)).build();
    payload = Payloads.jsonLike(size);
    plain = AttributeValue.of(payload);
    // Same length as the binding Stowage authenticates: table, key and attribute names.
    associatedData = binding();
    storedCompressed = stowageCompress();
    storedEncrypted = stowageEncrypt();
    storedBoth = stowageCompressEncrypt();
    rawCompressed = zstdCompress();
    rawEncrypted = tinkEncrypt();
    rawBoth = zstdTinkCompressEncrypt();
    check(stowageDecompress());
    decrypted = stowageDecrypt();
    check(decrypted);
    check(codecs.decode(TABLE, key, ATTRIBUTE, AttributePolicy.ENCRYPTED, stowageReencrypt()));
    check(stowageDecryptDecompress());
    check(AttributeValue.of(zstdDecompress()));
    check(AttributeValue.of(tinkDecrypt()));
    check(AttributeValue.of(tinkDecryptBound()));
    check(AttributeValue.of(zstdTinkDecryptDecompress()));
    if (storedCompressed.equals(plain) || storedEncrypted.equals(plain)) {
      throw new IllegalStateException("the payload was not encoded");
    }
  }

  private void check(AttributeValue decoded) {
    if (!decoded.equals(plain)) {
      throw new IllegalStateException("round trip changed the payload");
    }
  }

  // ---- compression ----

  @Benchmark
  public AttributeValue stowageCompress() {
    return codecs.encode(TABLE, key, ATTRIBUTE, AttributePolicy.COMPRESSED, plain);
  }

  @Benchmark
  public byte[] zstdCompress() {
    return Zstd.compress(payload, LEVEL);
  }

  @Benchmark
  public AttributeValue stowageDecompress() {
    return codecs.decode(TABLE, key, ATTRIBUTE, AttributePolicy.COMPRESSED, storedCompressed);
  }

  @Benchmark
  public byte[] zstdDecompress() {
    return Zstd.decompress(rawCompressed, (int) Zstd.getFrameContentSize(rawCompressed));
  }

  // ---- encryption ----

  @Benchmark
  public AttributeValue stowageEncrypt() {
    return codecs.encode(TABLE, key, ATTRIBUTE, AttributePolicy.ENCRYPTED, plain);
  }

  @Benchmark
  public byte[] tinkEncrypt() throws GeneralSecurityException {
    return aead.encrypt(payload, associatedData);
  }

  /**
   * For reference: Tink with the binding a hand-written layer needs to match Stowage's guarantee,
   * associated data built on each call from the table, key and attribute names.
   */
  @Benchmark
  public byte[] tinkEncryptBound() throws GeneralSecurityException {
    return aead.encrypt(payload, binding());
  }

  /**
   * For reference: encryption of a value decoded from an envelope, as a re-encryption job or a
   * read-modify-write does it. The value's bytes share the decrypted serialisation, which goes to
   * Tink as is: one copy fewer than {@link #stowageEncrypt}.
   */
  @Benchmark
  public AttributeValue stowageReencrypt() {
    return codecs.encode(TABLE, key, ATTRIBUTE, AttributePolicy.ENCRYPTED, decrypted);
  }

  @Benchmark
  public AttributeValue stowageDecrypt() {
    return codecs.decode(TABLE, key, ATTRIBUTE, AttributePolicy.ENCRYPTED, storedEncrypted);
  }

  @Benchmark
  public byte[] tinkDecrypt() throws GeneralSecurityException {
    return aead.decrypt(rawEncrypted, associatedData);
  }

  /** For reference: {@link #tinkDecrypt} with the binding built on each call. */
  @Benchmark
  public byte[] tinkDecryptBound() throws GeneralSecurityException {
    return aead.decrypt(rawEncrypted, binding());
  }

  private byte[] binding() {
    return (TABLE + "\0" + key.partition() + "\0" + key.sortOrNull() + "\0" + ATTRIBUTE)
        .getBytes(StandardCharsets.UTF_8);
  }

  // ---- both ----

  @Benchmark
  public AttributeValue stowageCompressEncrypt() {
    return codecs.encode(TABLE, key, ATTRIBUTE, AttributePolicy.COMPRESSED_AND_ENCRYPTED, plain);
  }

  @Benchmark
  public byte[] zstdTinkCompressEncrypt() throws GeneralSecurityException {
    return aead.encrypt(Zstd.compress(payload, LEVEL), associatedData);
  }

  @Benchmark
  public AttributeValue stowageDecryptDecompress() {
    return codecs.decode(
        TABLE, key, ATTRIBUTE, AttributePolicy.COMPRESSED_AND_ENCRYPTED, storedBoth);
  }

  @Benchmark
  public byte[] zstdTinkDecryptDecompress() throws GeneralSecurityException {
    byte[] frame = aead.decrypt(rawBoth, associatedData);
    return Zstd.decompress(frame, (int) Zstd.getFrameContentSize(frame));
  }
}
