package dev.stowage.overflow.internal;

import dev.stowage.IntegrityException;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Utf8Order;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The overflow pointer stored in an item's {@code stowage:ovf} attribute: a binary value of format
 * version, blob key, blob size, SHA-256 of the blob and, unless there are too many to fit, the
 * names of the moved attributes (layout in docs/FORMAT.md, "Overflow pointer"). Immutable.
 *
 * @param blobKey the blob holding the moved attributes
 * @param size the blob's length in bytes
 * @param sha256 the blob's SHA-256 (32 bytes)
 * @param names the moved attributes, in UTF-8 order (empty when not listed)
 * @param namesListed false when the names were left out because the list itself would break the
 *     backend's limits: then any attribute absent from the item may be in the blob
 */
public record Pointer(
    String blobKey, long size, Bytes sha256, List<String> names, boolean namesListed) {
  /** The pointer format version this code writes and reads. */
  static final int VERSION = 1;

  /** Names mode byte: the moved names follow. */
  static final int NAMES_LISTED = 0;

  /** Names mode byte: the names were too many to list. */
  static final int NAMES_NOT_LISTED = 1;

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
    if (!namesListed && !names.isEmpty()) {
      throw new IllegalArgumentException("names given but marked as not listed");
    }
  }

  /** A pointer that lists the moved names. */
  public Pointer(String blobKey, long size, Bytes sha256, List<String> names) {
    this(blobKey, size, sha256, names, true);
  }

  /**
   * True if the blob may hold an attribute in {@code needed} (null: all attributes are needed) of
   * the stored item {@code stored}.
   */
  public boolean mayHoldAny(Set<String> needed, Item stored) {
    if (needed == null) {
      return true;
    }
    if (namesListed) {
      return names.stream().anyMatch(needed::contains);
    }
    return needed.stream().anyMatch(n -> !stored.has(n));
  }

  /** The names for messages. */
  String describeNames() {
    return namesListed ? names.toString() : "(not listed)";
  }

  /** The pointer as the attribute value to store. */
  public BinaryValue toValue() {
    ValueWire.Writer w = new ValueWire.Writer();
    w.u8(VERSION).string(blobKey).varint(size).bytes(sha256.toByteArray());
    if (namesListed) {
      w.u8(NAMES_LISTED).varint(names.size());
      names.forEach(w::string);
    } else {
      w.u8(NAMES_NOT_LISTED);
    }
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
      int mode = r.u8();
      if (mode != NAMES_LISTED && mode != NAMES_NOT_LISTED) {
        throw new ValueWire.MalformedException("unknown names mode " + mode);
      }
      List<String> names = new ArrayList<>();
      if (mode == NAMES_LISTED) {
        long n = r.varint();
        if (n > bytes.length) {
          throw new ValueWire.MalformedException("name count " + n + " exceeds the pointer");
        }
        for (int i = 0; i < n; i++) {
          names.add(r.string());
        }
      }
      if (!r.atEnd()) {
        throw new ValueWire.MalformedException("trailing bytes at offset " + r.position());
      }
      if (digest.length != DIGEST_BYTES) {
        throw new ValueWire.MalformedException("digest is " + digest.length + " bytes");
      }
      return new Pointer(key, size, Bytes.wrap(digest), names, mode == NAMES_LISTED);
    } catch (ValueWire.MalformedException | dev.stowage.InvalidRequestException e) {
      throw new IntegrityException(
          "overflow pointer of " + where + " is malformed: " + e.getMessage(), e);
    }
  }

  /** A pointer at least as large as any real pointer to {@code blobKey} with these names. */
  static Pointer upperBound(String blobKey, List<String> names, boolean namesListed) {
    return new Pointer(
        blobKey, Long.MAX_VALUE, Bytes.wrap(new byte[DIGEST_BYTES]), names, namesListed);
  }
}
