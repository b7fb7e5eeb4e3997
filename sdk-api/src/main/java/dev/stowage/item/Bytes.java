package dev.stowage.item;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * An immutable sequence of bytes, the payload of binary attribute values and binary keys.
 *
 * <p>Ordering is unsigned lexicographic, the order every Stowage driver uses for binary keys.
 * Instances are immutable and thread-safe; the constructor and {@link #toByteArray()} copy.
 */
public final class Bytes implements Comparable<Bytes> {
  private static final Bytes EMPTY = new Bytes(new byte[0]);
  private final byte[] bytes;

  private Bytes(byte[] owned) {
    this.bytes = owned;
  }

  /** Copies {@code bytes}. @throws NullPointerException if {@code bytes} is null */
  public static Bytes of(byte[] bytes) {
    return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
  }

  /** Copies the remaining bytes of {@code buffer} without moving its position. */
  public static Bytes of(ByteBuffer buffer) {
    byte[] copy = new byte[buffer.remaining()];
    buffer.duplicate().get(copy);
    return new Bytes(copy);
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
    return new Bytes(bytes);
  }

  /** Decodes standard Base64. @throws IllegalArgumentException on malformed input */
  public static Bytes fromBase64(String base64) {
    return new Bytes(Base64.getDecoder().decode(base64));
  }

  /** Number of bytes. */
  public int size() {
    return bytes.length;
  }

  /** The byte at {@code index}. */
  public byte byteAt(int index) {
    return bytes[index];
  }

  /** A fresh copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** A read-only view of the bytes, without copying. */
  public ByteBuffer asReadOnlyBuffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** Standard Base64 of the bytes. */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** True if this sequence starts with {@code prefix}. */
  public boolean startsWith(Bytes prefix) {
    return bytes.length >= prefix.bytes.length
        && Arrays.equals(bytes, 0, prefix.bytes.length, prefix.bytes, 0, prefix.bytes.length);
  }

  @Override
  public int compareTo(Bytes other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Base64, truncated for long values so logs stay readable. */
  @Override
  public String toString() {
    String b64 = toBase64();
    return b64.length() > 64 ? b64.substring(0, 64) + "…(" + bytes.length + " bytes)" : b64;
  }
}
