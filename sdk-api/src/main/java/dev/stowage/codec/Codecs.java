package dev.stowage.codec;

import com.github.luben.zstd.Zstd;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.codec.internal.EnvelopeCodec;
import dev.stowage.codec.internal.EnvelopeCodecs;
import dev.stowage.codec.internal.ZstdCodec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compression and encryption of individual attributes: turns a plain value into its stored form
 * under an {@link AttributePolicy}, and a stored form back into the plain value.
 *
 * <p>Encoded values are binary values holding a self-describing envelope (docs/FORMAT.md,
 * "Attribute envelope"): magic, format version, flags, optional dictionary id, and the value's
 * canonical serialisation, compressed with zstd and/or encrypted with Tink AEAD (compress, then
 * encrypt). The bytes are identical on every backend. Encryption binds each ciphertext to the
 * logical table name, the item key and the attribute name, but not to the namespace or backend.
 *
 * <p>Reading is driven by the stored value, not by today's policy: plain values written before an
 * attribute was compressed or encrypted and envelopes written before a policy was relaxed both
 * read. An attribute declared encrypted holding a plaintext value is accepted or rejected per the
 * {@link PlaintextPolicy}.
 *
 * <p>Errors: reading throws {@link IntegrityException}, naming the table, key and attribute, for a
 * wrong or missing key, tampered or truncated envelope, unknown format version, or a dictionary
 * that is not configured (named by id); no Tink or zstd exception escapes and no unverified data is
 * returned. Writing an encrypted attribute without keys throws {@link InvalidRequestException};
 * writing through a {@link KeyProvider#ofKmsEnvelope KMS envelope provider} whose KMS fails throws
 * {@link dev.stowage.UnavailableException} (retryable). Null arguments throw {@link
 * NullPointerException}.
 *
 * <p>Callers pass every non-key attribute through {@link #encode} and {@link #decode}, whatever its
 * current policy: a binary value of a compressed attribute may need escaping on write, and an
 * attribute whose policy was relaxed may still hold envelopes. Key attributes and Stowage's
 * reserved {@code stowage:} attributes are never encoded.
 *
 * <p>Immutable and thread-safe; native zstd contexts are pooled and shared across threads.
 */
public final class Codecs {
  static {
    EnvelopeCodecs.install(c -> c.codec);
  }

  private static final Codecs DEFAULTS = builder().build();

  private final EnvelopeCodec codec;
  private final KeyProvider keys;

  private Codecs(EnvelopeCodec codec, KeyProvider keys) {
    this.codec = codec;
    this.keys = keys;
  }

  /** zstd level 3, values under 64 serialised bytes left uncompressed, no dictionaries, no keys. */
  public static Codecs defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the {@link #defaults() default} settings. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Encodes one attribute for storage according to its policy.
   *
   * <p>{@link AttributePolicy#PLAIN}: returns {@code plain} itself, byte for byte, as any other
   * tool would store it. Compressed: an envelope if compression makes the value smaller and the
   * value reaches the size threshold, otherwise the plain value, except that a binary value whose
   * bytes start with the envelope magic is then wrapped in an envelope without compression or
   * encryption, so reads of an encoded attribute stay unambiguous. Encrypted: always an encrypted
   * envelope, compressed first when the policy says so and it pays.
   *
   * @param table the logical table name (bound into encryption)
   * @param key the item's key (bound into encryption)
   * @param attribute the attribute name (bound into encryption; selects its dictionary)
   * @throws InvalidRequestException if the policy encrypts and no {@link KeyProvider} is configured
   */
  public AttributeValue encode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue plain) {
    requireContext(table, key, attribute, policy);
    Objects.requireNonNull(plain, "plain");
    return codec.encode(table, key, attribute, policy, plain);
  }

  /**
   * Decodes one stored attribute, driven by its envelope (or its absence).
   *
   * <p>In a {@link AttributePolicy#PLAIN plain} attribute, a binary value is data unless it is a
   * complete envelope that verifies (checksum or authentication; one left from an earlier policy):
   * a value another tool wrote that merely starts with the magic reads exactly as stored.
   *
   * @param policy today's policy; decides how a value starting with the magic is read, and is
   *     consulted for the {@link PlaintextPolicy}
   * @throws IntegrityException if the stored value cannot be verified and decoded, or is plaintext
   *     in an encrypted attribute under {@link PlaintextPolicy#FORBID}
   */
  public AttributeValue decode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue stored) {
    requireContext(table, key, attribute, policy);
    Objects.requireNonNull(stored, "stored");
    return codec.decode(table, key, attribute, policy, stored);
  }

  /**
   * True if {@code stored} is encrypted under a key other than the current primary key, so a
   * re-encryption job should rewrite it ({@link #decode} then {@link #encode}). False for values
   * that are not encrypted envelopes, for malformed envelopes (reading reports those), when no keys
   * are configured, and for {@link KeyProvider#ofKmsEnvelope} providers. Reads only the envelope
   * header and Tink key id; never decrypts.
   */
  public boolean needsReencryption(AttributeValue stored) {
    return codec.needsReencryption(Objects.requireNonNull(stored, "stored"));
  }

  /**
   * True if rewriting {@code stored} under {@code policy} changes its protection: an encrypted
   * attribute holding plaintext (left from a migration) or ciphertext under an old key, or an
   * attribute no longer declared encrypted still holding ciphertext. Compression differences do not
   * count. This is the test a re-encryption job applies to every encoded attribute.
   */
  public boolean needsRewrite(AttributePolicy policy, AttributeValue stored) {
    return codec.needsRewrite(
        Objects.requireNonNull(policy, "policy"), Objects.requireNonNull(stored, "stored"));
  }

  /** The configured keys, if any. */
  public Optional<KeyProvider> keys() {
    return Optional.ofNullable(keys);
  }

  private static void requireContext(
      String table, Key key, String attribute, AttributePolicy policy) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(attribute, "attribute");
    Objects.requireNonNull(policy, "policy");
  }

  /**
   * Configures a {@link Codecs}. Not thread-safe; {@link #build()} may be called repeatedly and
   * each result is independent of later changes. Invalid settings throw {@link
   * IllegalArgumentException}; nulls throw {@link NullPointerException}.
   */
  public static final class Builder {
    private int level = 3;
    private int minCompressSize = 64;
    private final Map<String, ZstdDictionary> writeDictionaries = new LinkedHashMap<>();
    private final Map<Integer, ZstdDictionary> readDictionaries = new LinkedHashMap<>();
    private KeyProvider keys;
    private PlaintextPolicy plaintextPolicy = PlaintextPolicy.FORBID;

    private Builder() {}

    /** The zstd level, from {@code Zstd.minCompressionLevel()} (fastest) to 22; default 3. */
    public Builder compressionLevel(int level) {
      if (level < Zstd.minCompressionLevel() || level > Zstd.maxCompressionLevel()) {
        throw new IllegalArgumentException(
            "zstd level must be "
                + Zstd.minCompressionLevel()
                + " to "
                + Zstd.maxCompressionLevel()
                + ", was "
                + level);
      }
      this.level = level;
      return this;
    }

    /**
     * Values whose serialised form is shorter than this many bytes are never compressed (zstd's
     * frame overhead makes tiny values bigger); default 64.
     */
    public Builder minCompressSize(int bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("minimum size must be >= 0, was " + bytes);
      }
      this.minCompressSize = bytes;
      return this;
    }

    /**
     * Compresses the named attribute (in every table) with {@code dictionary}, and reads values
     * that name its id. Replaces an earlier dictionary for the attribute, which stays readable only
     * if also passed to {@link #readDictionary}.
     */
    public Builder dictionary(String attribute, ZstdDictionary dictionary) {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(dictionary, "dictionary");
      writeDictionaries.put(attribute, dictionary);
      return this;
    }

    /** Makes a dictionary available for reading only (a retired dictionary some values use). */
    public Builder readDictionary(ZstdDictionary dictionary) {
      Objects.requireNonNull(dictionary, "dictionary");
      readDictionaries.put(dictionary.id(), dictionary);
      return this;
    }

    /** The keys for encrypted attributes; without them, encrypting fails. */
    public Builder keys(KeyProvider keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * What reading does with plaintext in encrypted attributes; default {@link
     * PlaintextPolicy#FORBID}.
     */
    public Builder plaintextPolicy(PlaintextPolicy policy) {
      this.plaintextPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Builds the codecs.
     *
     * @throws IllegalArgumentException if two dictionaries share an id but differ in content
     */
    public Codecs build() {
      Map<Integer, byte[]> byId = new HashMap<>();
      Map<Integer, ZstdDictionary> seen = new HashMap<>();
      Map<String, Integer> writeIds = new HashMap<>();
      for (ZstdDictionary d : readDictionaries.values()) {
        register(d, seen, byId);
      }
      writeDictionaries.forEach(
          (attribute, d) -> {
            register(d, seen, byId);
            writeIds.put(attribute, d.id());
          });
      ZstdCodec zstd = new ZstdCodec(level, byId);
      return new Codecs(
          new EnvelopeCodec(
              zstd,
              minCompressSize,
              writeIds,
              keys == null ? null : keys.ring(),
              plaintextPolicy == PlaintextPolicy.ALLOW),
          keys);
    }

    private static void register(
        ZstdDictionary d, Map<Integer, ZstdDictionary> seen, Map<Integer, byte[]> byId) {
      ZstdDictionary old = seen.putIfAbsent(d.id(), d);
      if (old != null && !old.equals(d)) {
        throw new IllegalArgumentException(
            "two different dictionaries share id " + d.id() + "; every id must name one content");
      }
      byId.put(d.id(), d.contentUnsafe());
    }
  }
}
