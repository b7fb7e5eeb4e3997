package dev.stowage.item;

import dev.stowage.internal.BytesAccess;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * An immutable sequence of bytes, the payload of binary attribute values and binary keys.
 *
 * <p>Ordering is unsigned lexicographic, the order every Stowage driver uses for binary keys.
 * Instances are immutable and thread-safe; the constructor and {@link #toByteArray()} copy.
 */
public final class Bytes implements Comparable<Bytes> {
  private static final Bytes EMPTY = new Bytes(new byte[0], 0, 0);

  static {
    // Lets Stowage's codecs read and wrap storage without copying (see BytesAccess); installed
    // here so that no other class can install its own accessor first.
    BytesAccess.install(
        new BytesAccess.Accessor() {
          @Override
          public byte[] array(Bytes b) {
            return b.bytes;
          }

          @Override
          public int offset(Bytes b) {
            return b.offset;
          }

          @Override
          public Bytes wrap(byte[] bytes, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, bytes.length);
            return length == 0 ? EMPTY : new Bytes(bytes, offset, length);
          }
        });
  }

  // The value is bytes[offset, offset + length): a decoded value may sit inside a larger array
  // (after its serialisation header), which it shares instead of copying.
  private final byte[] bytes;
  private final int offset;
  private final int length;

  private Bytes(byte[] owned, int offset, int length) {
    this.bytes = owned;
    this.offset = offset;
    this.length = length;
  }

  /** Copies {@code bytes}. @throws NullPointerException if {@code bytes} is null */
  public static Bytes of(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone(), 0, bytes.length);
  }

  /** Copies the remaining bytes of {@code buffer} without moving its position. */
  public static Bytes of(ByteBuffer buffer) {
    byte[] copy = new byte[buffer.remaining()];
    buffer.duplicate().get(copy);
    return new Bytes(copy, 0, copy.length);
  }

  /** The empty byte sequence. */
  public static Bytes empty() {
    return EMPTY;
  }

  /**
   * Wraps {@code bytes} without copying. Only for arrays the caller never touches again; used on
   * hot paths inside Stowage where the copy would be pure waste.
   */
  public static Bytes wrap(byte[] bytes) {
    return new Bytes(bytes, 0, bytes.length);
  }

  /** Decodes standard Base64. @throws IllegalArgumentException on malformed input */
  public static Bytes fromBase64(String base64) {
    return wrap(Base64.getDecoder().decode(base64));
  }

  /** Number of bytes. */
  public int size() {
    return length;
  }

  /** The byte at {@code index}. */
  public byte byteAt(int index) {
    Objects.checkIndex(index, length);
    return bytes[offset + index];
  }

  /** A fresh copy of the bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOfRange(bytes, offset, offset + length);
  }

  /** A read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes, offset, length).slice().asReadOnlyBuffer();
  }

  /** Standard Base64 of the bytes. */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(whole());
  }

  /** True if this sequence starts with {@code prefix}. */
  public boolean startsWith(Bytes prefix) {
    return length >= prefix.length
        && Arrays.equals(
            bytes,
            offset,
            offset + prefix.length,
            prefix.bytes,
            prefix.offset,
            prefix.offset + prefix.length);
  }

  @Override
  public int compareTo(Bytes other) {
    return Arrays.compareUnsigned(
        bytes, offset, offset + length, other.bytes, other.offset, other.offset + other.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes b
        && Arrays.equals(bytes, offset, offset + length, b.bytes, b.offset, b.offset + b.length);
  }

  @Override
  public int hashCode() {
    // Arrays.hashCode of exactly the value's bytes, so equal values hash alike however stored.
    int h = 1;
    for (int i = offset, end = offset + length; i < end; i++) {
      h = 31 * h + bytes[i];
    }
    return h;
  }

  /** Base64, truncated for long values so logs stay readable. */
  @Override
  public String toString() {
    String b64 = toBase64();
    return b64.length() > 64 ? b64.substring(0, 64) + "…(" + length + " bytes)" : b64;
  }

  /** The backing array if it holds exactly the value, else a copy (for APIs without ranges). */
  private byte[] whole() {
    return offset == 0 && length == bytes.length ? bytes : toByteArray();
  }
}
