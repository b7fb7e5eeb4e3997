package dev.stowage.overflow.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams an overflow blob ({@link BlobBody}'s layout) into attribute values, reading each value
 * straight into its final array, counting bytes and hashing as it goes. The caller must check
 * {@link #finish} (size and digest) before using anything returned. Not thread-safe.
 */
final class BlobReader {
  /** A blob that does not follow the format; the message says where. */
  static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    FormatException(String message) {
      super(message);
    }
  }

  private final InputStream in;
  private final MessageDigest digest = BlobBody.sha256();
  private final long expectedSize;
  private long pos;

  BlobReader(InputStream in, long expectedSize) {
    this.in = new BufferedInputStream(in, 16384);
    this.expectedSize = expectedSize;
  }

  /** Reads the header and the map of moved attributes. */
  Map<String, AttributeValue> readAttributes() throws IOException, FormatException {
    byte[] magic = exactly(BlobBody.MAGIC.length);
    if (!java.util.Arrays.equals(magic, BlobBody.MAGIC)) {
      throw new FormatException("not an overflow blob (bad magic)");
    }
    int version = u8();
    if (version != BlobBody.VERSION) {
      throw new FormatException("unknown overflow blob format version " + version);
    }
    if (u8() != Tags.MAP) {
      throw new FormatException("blob body is not a map");
    }
    int n = count();
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String name = string();
      if (out.put(name, value(1)) != null) {
        throw new FormatException("attribute '" + name + "' appears twice");
      }
    }
    return out;
  }

  /**
   * Checks that the blob ended exactly at the expected size and returns its SHA-256.
   *
   * @throws FormatException on trailing bytes or a size mismatch
   */
  byte[] finish() throws IOException, FormatException {
    if (in.read() != -1) {
      throw new FormatException("trailing bytes after offset " + pos);
    }
    if (pos != expectedSize) {
      throw new FormatException("blob has " + pos + " bytes, pointer says " + expectedSize);
    }
    return digest.digest();
  }

  private AttributeValue value(int depth) throws IOException, FormatException {
    if (depth > Tags.MAX_DEPTH) {
      throw new FormatException("nesting deeper than " + Tags.MAX_DEPTH);
    }
    int tag = u8();
    try {
      switch (tag) {
        case Tags.STRING:
          return AttributeValue.of(string());
        case Tags.NUMBER:
          return AttributeValue.of(number());
        case Tags.BINARY:
          return AttributeValue.of(Bytes.wrap(exactly(length())));
        case Tags.FALSE:
          return AttributeValue.of(false);
        case Tags.TRUE:
          return AttributeValue.of(true);
        case Tags.NULL:
          return AttributeValue.nullValue();
        case Tags.LIST:
          {
            int n = count();
            List<AttributeValue> l = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
              l.add(value(depth + 1));
            }
            return new AttributeValue.ListValue(l);
          }
        case Tags.MAP:
          {
            int n = count();
            Map<String, AttributeValue> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
              String k = string();
              if (m.put(k, value(depth + 1)) != null) {
                throw new FormatException("duplicate map key '" + k + "'");
              }
            }
            return new AttributeValue.MapValue(m);
          }
        case Tags.STRING_SET:
          {
            int n = count();
            List<String> l = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
              l.add(string());
            }
            return AttributeValue.stringSet(l);
          }
        case Tags.NUMBER_SET:
          {
            int n = count();
            List<BigDecimal> l = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
              l.add(number());
            }
            return AttributeValue.numberSet(l);
          }
        case Tags.BINARY_SET:
          {
            int n = count();
            List<Bytes> l = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
              l.add(Bytes.wrap(exactly(length())));
            }
            return AttributeValue.binarySet(l);
          }
        default:
          throw new FormatException("unknown type tag " + tag + " at offset " + (pos - 1));
      }
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new FormatException("invalid value: " + e.getMessage());
    }
  }

  private int u8() throws IOException, FormatException {
    int b = in.read();
    if (b < 0) {
      throw new FormatException("truncated at offset " + pos);
    }
    digest.update((byte) b);
    pos++;
    return b;
  }

  private long varint() throws IOException, FormatException {
    long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      int b = u8();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new FormatException("varint too long at offset " + pos);
  }

  /** A length that fits in what remains of the blob. */
  private int length() throws IOException, FormatException {
    long n = varint();
    if (n > expectedSize - pos || n > Integer.MAX_VALUE - 8) {
      throw new FormatException("length " + n + " exceeds the rest of the blob at offset " + pos);
    }
    return (int) n;
  }

  /** An element count; every element takes at least one byte. */
  private int count() throws IOException, FormatException {
    return length();
  }

  private byte[] exactly(int n) throws IOException, FormatException {
    // Read straight into the value's final array (readNBytes(int) would buffer a second copy).
    byte[] b = new byte[n];
    int read;
    try {
      read = in.readNBytes(b, 0, n);
    } catch (EOFException e) {
      throw new FormatException("truncated at offset " + pos);
    }
    if (read != n) {
      throw new FormatException("truncated at offset " + (pos + read));
    }
    digest.update(b);
    pos += n;
    return b;
  }

  private String string() throws IOException, FormatException {
    byte[] b = exactly(length());
    if (!Utf8.isValid(b)) {
      throw new FormatException("invalid UTF-8 before offset " + pos);
    }
    return new String(b, StandardCharsets.UTF_8);
  }

  private BigDecimal number() throws IOException, FormatException {
    String s = string();
    if (s.length() > 200) {
      throw new FormatException("number text too long");
    }
    try {
      return new BigDecimal(s);
    } catch (NumberFormatException e) {
      throw new FormatException("invalid number '" + s + "'");
    }
  }
}
