package dev.stowage.codec.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.codec.internal.Envelope.FormatException;
import dev.stowage.codec.internal.Envelope.Header;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;

/**
 * Encodes attribute values into envelopes and back (docs/FORMAT.md). Immutable and thread-safe.
 *
 * <p>Every failure to read an envelope becomes an {@link IntegrityException} naming the table, key
 * and attribute; no zstd, Tink or parsing exception escapes, and no unverified bytes are returned.
 */
public final class EnvelopeCodec {
  private final ZstdCodec zstd;
  private final int minCompressSize;
  private final Map<String, Integer> writeDictionaries;
  private final KeyRing keys;
  private final boolean allowPlaintext;

  /**
   * Creates the codec.
   *
   * @param minCompressSize serialised values shorter than this are never compressed
   * @param writeDictionaries dictionary id to compress each attribute with, by attribute name
   * @param keys the keys, or null when none are configured
   * @param allowPlaintext whether attributes declared encrypted may hold plaintext values
   */
  public EnvelopeCodec(
      ZstdCodec zstd,
      int minCompressSize,
      Map<String, Integer> writeDictionaries,
      KeyRing keys,
      boolean allowPlaintext) {
    this.zstd = zstd;
    this.minCompressSize = minCompressSize;
    this.writeDictionaries = Map.copyOf(writeDictionaries);
    this.keys = keys;
    this.allowPlaintext = allowPlaintext;
  }

  /** See {@code Codecs.encode}. */
  public AttributeValue encode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue plain) {
    if (!policy.encoded()) {
      return plainForm(plain);
    }
    if (policy.encrypted() && keys == null) {
      throw new InvalidRequestException(
          where(table, key, attribute)
              + "the attribute is declared encrypted but no keys are configured; build Stowage"
              + " with Codecs.builder().keys(KeyProvider.ofKeyset(...)) (or"
              + " KeyProvider.ofKmsEncryptedKeyset / ofCleartextJsonKeysetFile for tests)");
    }
    byte[] serial = Serial.serialize(plain);
    int dictionary = policy.compressed() ? writeDictionaries.getOrDefault(attribute, 0) : 0;
    if (!policy.encrypted()) {
      return compressedOnly(plain, serial, dictionary);
    }
    byte[] payload = serial;
    int flags = Envelope.FLAG_ENCRYPTED;
    int usedDictionary = 0;
    if (policy.compressed() && serial.length >= minCompressSize) {
      byte[] frame = new byte[ZstdCodec.bound(serial.length)];
      int n = zstd.compress(serial, frame, 0, dictionary);
      if (n < serial.length) {
        payload = Arrays.copyOf(frame, n);
        flags |= Envelope.FLAG_COMPRESSED;
        usedDictionary = dictionary;
      }
    }
    byte[] header = new byte[Envelope.headerLength(usedDictionary)];
    Envelope.writeHeader(header, flags, usedDictionary);
    byte[] ciphertext;
    try {
      ciphertext = keys.encrypt(payload, Serial.associatedData(header, table, key, attribute));
    } catch (GeneralSecurityException e) {
      String m = where(table, key, attribute) + "encryption failed with " + keys.description();
      if (keys.remote()) {
        throw new UnavailableException(m + " (the KMS could not be used)", e);
      }
      throw new InvalidRequestException(m, e);
    }
    byte[] out = new byte[header.length + ciphertext.length];
    System.arraycopy(header, 0, out, 0, header.length);
    System.arraycopy(ciphertext, 0, out, header.length, ciphertext.length);
    return AttributeValue.of(Bytes.wrap(out));
  }

  /**
   * A value stored without compression or encryption: as is unless it could pass for an envelope.
   */
  private static AttributeValue plainForm(AttributeValue plain) {
    if (plain instanceof BinaryValue b && mayBeEnvelope(b.value())) {
      return AttributeValue.of(Bytes.wrap(noOpEnvelope(Serial.serialize(plain))));
    }
    return plain;
  }

  private AttributeValue compressedOnly(AttributeValue plain, byte[] serial, int dictionary) {
    if (serial.length >= minCompressSize) {
      int header = Envelope.headerLength(dictionary);
      byte[] out = new byte[header + ZstdCodec.bound(serial.length) + Envelope.CRC_LENGTH];
      int n = zstd.compress(serial, out, header, dictionary);
      int total = header + n + Envelope.CRC_LENGTH;
      if (total < serial.length) {
        Envelope.writeHeader(out, Envelope.FLAG_COMPRESSED, dictionary);
        Envelope.writeCrc(out, header + n);
        return AttributeValue.of(Bytes.wrap(Arrays.copyOf(out, total)));
      }
    }
    return plainForm(plain);
  }

  /** An envelope with no flags: header, serialised value, CRC-32C. */
  private static byte[] noOpEnvelope(byte[] payload) {
    int header = Envelope.FIXED_HEADER;
    byte[] out = new byte[header + payload.length + Envelope.CRC_LENGTH];
    Envelope.writeHeader(out, 0, 0);
    System.arraycopy(payload, 0, out, header, payload.length);
    Envelope.writeCrc(out, header + payload.length);
    return out;
  }

  private static boolean mayBeEnvelope(Bytes b) {
    return b.size() >= 2 && b.byteAt(0) == Envelope.MAGIC_0 && b.byteAt(1) == Envelope.MAGIC_1;
  }

  /** See {@code Codecs.decode}. */
  public AttributeValue decode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue stored) {
    if (!(stored instanceof BinaryValue b) || !mayBeEnvelope(b.value())) {
      checkPlaintextAllowed(table, key, attribute, policy);
      return stored;
    }
    try {
      Bytes bytes = b.value();
      Header h = Envelope.parseHeader(head(bytes));
      if (h.encrypted()) {
        return decrypt(table, key, attribute, bytes, h);
      }
      byte[] env = bytes.toByteArray();
      if (!Envelope.crcMatches(env)) {
        throw new FormatException("checksum mismatch: the envelope was corrupted or tampered with");
      }
      checkPlaintextAllowed(table, key, attribute, policy);
      int bodyLength = env.length - h.length() - Envelope.CRC_LENGTH;
      if (h.compressed()) {
        byte[] serial = zstd.decompress(env, h.length(), bodyLength, h.dictionaryId());
        return Serial.deserialize(serial, 0, serial.length);
      }
      return Serial.deserialize(env, h.length(), bodyLength);
    } catch (RuntimeException e) {
      if (e instanceof IntegrityException ie) {
        throw ie;
      }
      throw new IntegrityException(where(table, key, attribute) + message(e), e);
    }
  }

  /**
   * The first bytes of an envelope, enough for any header. A truncated copy keeps {@link
   * Envelope#parseHeader}'s length checks meaningful only for the header itself; the body's length
   * is checked by the checksum or the AEAD.
   */
  private static byte[] head(Bytes bytes) {
    byte[] head = new byte[Math.min(bytes.size(), HEAD)];
    bytes.asReadOnlyBuffer().get(head);
    return head;
  }

  /** Longest header (9 bytes) plus the shortest body parseHeader insists on. */
  private static final int HEAD = 16;

  private AttributeValue decrypt(String table, Key key, String attribute, Bytes bytes, Header h) {
    if (keys == null) {
      throw new IntegrityException(
          where(table, key, attribute)
              + "the value is encrypted but no keys are configured (missing key); configure the"
              + " keyset it was written with through Codecs.builder().keys(...)");
    }
    ByteBuffer buf = bytes.asReadOnlyBuffer();
    byte[] header = new byte[h.length()];
    buf.get(header);
    byte[] ciphertext = new byte[buf.remaining()];
    buf.get(ciphertext);
    byte[] payload;
    try {
      payload = keys.decrypt(ciphertext, Serial.associatedData(header, table, key, attribute));
    } catch (GeneralSecurityException e) {
      if (keys.keyIsMissing(ciphertext, 0)) {
        throw new IntegrityException(
            where(table, key, attribute)
                + "the value is encrypted under Tink key id "
                + Integer.toUnsignedString(KeyRing.keyIdOf(ciphertext, 0).orElse(0))
                + ", which "
                + keys.description()
                + " does not hold (missing key: was it removed before re-encryption finished?)",
            e);
      }
      throw new IntegrityException(
          where(table, key, attribute)
              + "decryption failed with "
              + keys.description()
              + ": wrong key, tampered ciphertext, or a value copied from another table, item or"
              + " attribute"
              + (keys.remote() ? " (or the KMS could not be reached)" : ""),
          e);
    }
    if (h.compressed()) {
      byte[] serial = zstd.decompress(payload, 0, payload.length, h.dictionaryId());
      return Serial.deserialize(serial, 0, serial.length);
    }
    return Serial.deserialize(payload, 0, payload.length);
  }

  private void checkPlaintextAllowed(
      String table, Key key, String attribute, AttributePolicy policy) {
    if (policy.encrypted() && !allowPlaintext) {
      throw new IntegrityException(
          where(table, key, attribute)
              + "the attribute is declared encrypted but holds a plaintext value, which"
              + " PlaintextPolicy.FORBID rejects; use PlaintextPolicy.ALLOW while migrating"
              + " existing data, then re-encrypt");
    }
  }

  /**
   * True if {@code stored} is an encrypted envelope whose key is not the current primary key. False
   * for plaintext, unencrypted envelopes, malformed envelopes (reading them reports the problem),
   * and when no keys are configured.
   */
  public boolean needsReencryption(AttributeValue stored) {
    int offset = ciphertextOffset(stored);
    if (offset < 0 || keys == null) {
      return false;
    }
    ByteBuffer buf = ((BinaryValue) stored).value().asReadOnlyBuffer();
    int n = Math.min(5, buf.remaining() - offset);
    byte[] prefix = new byte[n];
    buf.position(offset);
    buf.get(prefix);
    return !keys.underPrimary(prefix, 0);
  }

  /**
   * True if rewriting {@code stored} under {@code policy} would change its protection: an attribute
   * declared encrypted holding a plaintext value or a value under an old key, or an attribute no
   * longer declared encrypted still holding ciphertext.
   */
  public boolean needsRewrite(AttributePolicy policy, AttributeValue stored) {
    boolean encrypted = ciphertextOffset(stored) >= 0;
    if (policy.encrypted()) {
      return !encrypted || needsReencryption(stored);
    }
    return encrypted;
  }

  /** Offset of the ciphertext if {@code stored} is a well-formed encrypted envelope, else -1. */
  private static int ciphertextOffset(AttributeValue stored) {
    if (!(stored instanceof BinaryValue b) || !mayBeEnvelope(b.value())) {
      return -1;
    }
    try {
      Header h = Envelope.parseHeader(head(b.value()));
      return h.encrypted() ? h.length() : -1;
    } catch (FormatException e) {
      return -1;
    }
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  private static String where(String table, Key key, String attribute) {
    return "table '" + table + "', " + key + ", attribute '" + attribute + "': ";
  }
}
