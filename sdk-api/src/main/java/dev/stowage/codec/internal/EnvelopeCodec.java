package dev.stowage.codec.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.codec.internal.Envelope.FormatException;
import dev.stowage.codec.internal.Envelope.Header;
import dev.stowage.internal.BytesAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
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

  /** Receives the sizes of one encoded value. */
  @FunctionalInterface
  public interface SizeSink {
    /**
     * @param serialised the value's serialisation, the bytes compression starts from
     * @param stored the value as stored: its envelope, or its serialisation when stored plain
     */
    void encoded(long serialised, long stored);
  }

  /** See {@code Codecs.encode}. */
  public AttributeValue encode(
      String table, Key key, String attribute, AttributePolicy policy, AttributeValue plain) {
    return encode(table, key, attribute, policy, plain, null);
  }

  /**
   * See {@code Codecs.encode}; an encoded (compressed or encrypted) attribute's sizes go to {@code
   * sizes} if not null.
   */
  public AttributeValue encode(
      String table,
      Key key,
      String attribute,
      AttributePolicy policy,
      AttributeValue plain,
      SizeSink sizes) {
    if (!policy.encoded()) {
      // Stored exactly as given, as other tools would store it; see decode for how it reads.
      return plain;
    }
    if (policy.encrypted() && keys == null) {
      throw new InvalidRequestException(
          where(table, key, attribute)
              + "the attribute is declared encrypted but no keys are configured; build Stowage"
              + " with Codecs.builder().keys(KeyProvider.ofKeyset(...)) (or"
              + " KeyProvider.ofKmsEncryptedKeyset / ofCleartextJsonKeysetFile for tests)");
    }
    // A string or binary value is compressed where its bytes lie, behind its serialisation header,
    // rather than copied behind it first; encrypted uncompressed, it is its own bytes.
    Serial.Split value = Serial.split(plain);
    if (policy.encrypted() && !policy.compressed()) {
      BinaryValue stored = sealUncompressed(table, key, attribute, value);
      if (sizes != null) {
        sizes.encoded(value.size(), stored.value().size());
      }
      return stored;
    }
    int dictionary = policy.compressed() ? writeDictionaries.getOrDefault(attribute, 0) : 0;
    AttributeValue stored =
        policy.encrypted()
            ? compressedAndEncrypted(table, key, attribute, value, dictionary)
            : compressedOnly(plain, value, dictionary);
    if (sizes != null) {
      // Anything other than the plain value itself is an envelope, stored as its bytes.
      long storedSize = stored == plain ? value.size() : ((BinaryValue) stored).value().size();
      sizes.encoded(value.size(), storedSize);
    }
    return stored;
  }

  /** An encrypted envelope, compressed inside when that makes the payload smaller. */
  private BinaryValue compressedAndEncrypted(
      String table, Key key, String attribute, Serial.Split value, int dictionary) {
    if (value.size() >= minCompressSize) {
      byte[] frame = new byte[ZstdCodec.bound(value.size())];
      int n = zstd.compress(value, frame, 0, dictionary);
      if (n < value.size()) {
        // Tink's Aead takes the plaintext as a whole array: the frame is trimmed to it.
        return seal(
            table,
            key,
            attribute,
            Arrays.copyOf(frame, n),
            Envelope.FLAG_ENCRYPTED | Envelope.FLAG_COMPRESSED,
            dictionary);
      }
    }
    return sealUncompressed(table, key, attribute, value);
  }

  /**
   * An encrypted envelope without compression. A string's or binary value's payload is its own
   * bytes, marked by the payload kind in the header (bound through the associated data like every
   * header byte), so no serialisation is copied together before Tink: a binary value's backing
   * array goes to Tink as it is. Any other value's payload is its serialisation.
   */
  private BinaryValue sealUncompressed(
      String table, Key key, String attribute, Serial.Split value) {
    int tag = Serial.flatTag(value);
    int kind =
        tag == Serial.BINARY_TAG
            ? Envelope.KIND_BINARY
            : tag == Serial.STRING_TAG ? Envelope.KIND_STRING : 0;
    return seal(table, key, attribute, Serial.body(value), Envelope.FLAG_ENCRYPTED | kind, 0);
  }

  /**
   * Encrypts {@code payload} into an envelope with the given flags and dictionary id: header, then
   * Tink's ciphertext under the associated data binding it to table, key and attribute.
   */
  private BinaryValue seal(
      String table, Key key, String attribute, byte[] payload, int flags, int dictionary) {
    try {
      byte[] associatedData = Binding.forWrite(flags, dictionary, table, key, attribute);
      byte[] ciphertext = keys.encrypt(payload, associatedData);
      // Tink returns the ciphertext as a new array, so it is copied behind the header, straight
      // after the allocation: C2 then leaves the copied range unzeroed instead of writing it twice.
      int headerLength = Envelope.headerLength(dictionary);
      byte[] out = new byte[headerLength + ciphertext.length];
      System.arraycopy(ciphertext, 0, out, headerLength, ciphertext.length);
      System.arraycopy(associatedData, Binding.HEADER_OFFSET, out, 0, headerLength);
      return AttributeValue.of(Bytes.wrap(out));
    } catch (GeneralSecurityException e) {
      String m = where(table, key, attribute) + "encryption failed with " + keys.description();
      if (keys.remote()) {
        throw new UnavailableException(m + " (the KMS could not be used)", e);
      }
      throw new InvalidRequestException(m, e);
    }
  }

  /**
   * A value of a compressed or encrypted attribute stored without compression or encryption: as is
   * unless it could pass for an envelope.
   */
  private static AttributeValue plainForm(AttributeValue plain) {
    if (plain instanceof BinaryValue b && mayBeEnvelope(b.value())) {
      return AttributeValue.of(Bytes.wrap(noOpEnvelope(Serial.serialize(plain))));
    }
    return plain;
  }

  private AttributeValue compressedOnly(AttributeValue plain, Serial.Split value, int dictionary) {
    int size = value.size();
    if (size >= minCompressSize) {
      int header = Envelope.headerLength(dictionary);
      byte[] out = new byte[header + ZstdCodec.bound(size) + Envelope.CRC_LENGTH];
      int n = zstd.compress(value, out, header, dictionary);
      int total = header + n + Envelope.CRC_LENGTH;
      if (total < size) {
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
    if (!policy.encoded()) {
      // A plain attribute holds what was put, byte for byte (Stowage never escapes it), so a
      // binary value that merely starts with the magic is data, whoever wrote it. Only a complete
      // envelope that verifies (left from an earlier policy) reads as the value it wraps.
      try {
        return open(table, key, attribute, policy, b);
      } catch (IntegrityException notAnEnvelope) {
        return stored;
      }
    }
    return open(table, key, attribute, policy, b);
  }

  private AttributeValue open(
      String table, Key key, String attribute, AttributePolicy policy, BinaryValue b) {
    try {
      // Read in place: the stored value is immutable, and so are the arrays we hand out.
      Bytes bytes = b.value();
      byte[] env = BytesAccess.array(bytes);
      int start = BytesAccess.offset(bytes);
      int length = bytes.size();
      Header h = Envelope.parseHeader(env, start, length);
      if (h.encrypted()) {
        return decrypt(table, key, attribute, env, start, length, h);
      }
      if (!Envelope.crcMatches(env, start, length)) {
        throw new FormatException("checksum mismatch: the envelope was corrupted or tampered with");
      }
      checkPlaintextAllowed(table, key, attribute, policy);
      int bodyLength = length - h.length() - Envelope.CRC_LENGTH;
      if (h.compressed()) {
        byte[] serial = zstd.decompress(env, start + h.length(), bodyLength, h.dictionaryId());
        return Serial.deserialize(serial, 0, serial.length);
      }
      // A binary value read here shares the stored array; both are immutable.
      return Serial.deserialize(env, start + h.length(), bodyLength);
    } catch (RuntimeException e) {
      if (e instanceof IntegrityException ie) {
        throw ie;
      }
      throw new IntegrityException(where(table, key, attribute) + message(e), e);
    }
  }

  private AttributeValue decrypt(
      String table, Key key, String attribute, byte[] env, int start, int length, Header h) {
    if (keys == null) {
      throw new IntegrityException(
          where(table, key, attribute)
              + "the value is encrypted but no keys are configured (missing key); configure the"
              + " keyset it was written with through Codecs.builder().keys(...)");
    }
    int ciphertext = start + h.length();
    int end = start + length;
    byte[] payload;
    try {
      payload =
          keys.decrypt(
              env,
              ciphertext,
              end - ciphertext,
              Binding.forRead(env, start, h.length(), table, key, attribute));
    } catch (GeneralSecurityException e) {
      if (keys.keyIsMissing(env, ciphertext, end)) {
        throw new IntegrityException(
            where(table, key, attribute)
                + "the value is encrypted under Tink key id "
                + Integer.toUnsignedString(KeyRing.keyIdOf(env, ciphertext, end).orElse(0))
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
    return switch (h.payloadKind()) {
      // Tink's plaintext is a fresh array nobody else holds: the value shares it.
      case Envelope.KIND_BINARY -> AttributeValue.of(BytesAccess.wrap(payload, 0, payload.length));
      case Envelope.KIND_STRING -> AttributeValue.of(Serial.utf8(payload));
      default -> Serial.deserialize(payload, 0, payload.length);
    };
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
    Bytes bytes = ((BinaryValue) stored).value();
    int start = BytesAccess.offset(bytes);
    return !keys.underPrimary(BytesAccess.array(bytes), start + offset, start + bytes.size());
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
      Bytes bytes = b.value();
      Header h =
          Envelope.parseHeader(BytesAccess.array(bytes), BytesAccess.offset(bytes), bytes.size());
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
