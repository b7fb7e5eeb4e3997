package dev.stowage.overflow.internal;

import dev.stowage.IntegrityException;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Utf8Order;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The overflow pointer stored in an item's {@code __ovf} attribute: a binary value of format
 * version, blob key, blob size, SHA-256 of the blob and the names of the moved attributes (layout
 * in docs/FORMAT-overflow.md). Immutable.
 *
 * @param blobKey the blob holding the moved attributes
 * @param size the blob's length in bytes
 * @param sha256 the blob's SHA-256 (32 bytes)
 * @param names the moved attributes, in UTF-8 order
 */
public record Pointer(String blobKey, long size, Bytes sha256, List<String> names) {
  /** The pointer format version this code writes and reads. */
  static final int VERSION = 1;

  /** Length of a SHA-256 digest. */
  static final int DIGEST_BYTES = 32;

  public Pointer {
    Objects.requireNonNull(blobKey, "blobKey");
    Objects.requireNonNull(sha256, "sha256");
    if (sha256.size() != DIGEST_BYTES || size < 0) {
      throw new IllegalArgumentException("invalid pointer digest or size");
    }
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(Utf8Order.COMPARATOR);
    names = List.copyOf(sorted);
  }

  /** The pointer as the attribute value to store. */
  public BinaryValue toValue() {
    ValueWire.Writer w = new ValueWire.Writer();
    w.u8(VERSION).string(blobKey).varint(size).bytes(sha256.toByteArray()).varint(names.size());
    names.forEach(w::string);
    return new BinaryValue(Bytes.wrap(w.toByteArray()));
  }

  /**
   * Parses a stored pointer.
   *
   * @throws IntegrityException if the value is not a pointer this version can read
   */
  public static Pointer parse(AttributeValue value, String where) {
    if (!(value instanceof BinaryValue b)) {
      throw new IntegrityException(
          "overflow pointer of " + where + " is a " + value.type() + ", not binary");
    }
    byte[] bytes = b.value().toByteArray();
    try {
      ValueWire.Reader r = new ValueWire.Reader(bytes, 0, bytes.length);
      int version = r.u8();
      if (version != VERSION) {
        throw new IntegrityException(
            "overflow pointer of " + where + " has unknown format version " + version);
      }
      String key = BlobKeys.validate(r.string());
      long size = r.varint();
      byte[] digest = r.bytes();
      long n = r.varint();
      if (n > bytes.length) {
        throw new ValueWire.MalformedException("name count " + n + " exceeds the pointer");
      }
      List<String> names = new ArrayList<>((int) n);
      for (int i = 0; i < n; i++) {
        names.add(r.string());
      }
      if (!r.atEnd()) {
        throw new ValueWire.MalformedException("trailing bytes at offset " + r.position());
      }
      if (digest.length != DIGEST_BYTES) {
        throw new ValueWire.MalformedException("digest is " + digest.length + " bytes");
      }
      return new Pointer(key, size, Bytes.wrap(digest), names);
    } catch (ValueWire.MalformedException | dev.stowage.InvalidRequestException e) {
      throw new IntegrityException(
          "overflow pointer of " + where + " is malformed: " + e.getMessage(), e);
    }
  }

  /** A pointer at least as large as any real pointer to {@code blobKey} with these names. */
  static Pointer upperBound(String blobKey, List<String> names) {
    return new Pointer(blobKey, Long.MAX_VALUE, Bytes.wrap(new byte[DIGEST_BYTES]), names);
  }
}
