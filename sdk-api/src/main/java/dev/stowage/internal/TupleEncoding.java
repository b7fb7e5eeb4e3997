package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The order-preserving, injective encoding of key-value tuples into bytes that backs every
 * multi-column index (specified in docs/FORMAT.md, "Index tuples").
 *
 * <p>Comparing encodings as unsigned bytes gives the same result as comparing the tuples component
 * by component in Stowage's key order, and the encoding of a tuple is a byte prefix of the encoding
 * of every longer tuple that starts with it. Layout: a version byte {@code 0x01}, then per
 * component a type byte and a self-delimiting body:
 *
 * <ul>
 *   <li>binary {@code 0x10}: bytes with {@code 0x00} escaped as {@code 0x00 0xFF}, then {@code 0x00
 *       0x00}... terminated by {@code 0x00 0x01}; see {@link #escapeInto};
 *   <li>string {@code 0x20}: UTF-8 bytes escaped and terminated the same way;
 *   <li>number {@code 0x30} negative, {@code 0x31} zero, {@code 0x32} positive: two exponent bytes
 *       then one byte per significant digit and a terminator, complemented for negatives.
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class TupleEncoding {
  static final int VERSION = 0x01;
  static final int BINARY = 0x10;
  static final int STRING = 0x20;
  static final int NEGATIVE = 0x30;
  static final int ZERO = 0x31;
  static final int POSITIVE = 0x32;
  private static final int EXPONENT_BIAS = 200;

  private TupleEncoding() {}

  /** Encodes a whole tuple. */
  public static Bytes encode(List<? extends KeyValue> tuple) {
    return Bytes.wrap(encodeAfter(NO_BYTES, tuple));
  }

  private static final byte[] NO_BYTES = new byte[0];

  /** {@code head} followed by the encoding of a whole tuple, in one array. */
  static byte[] encodeAfter(byte[] head, List<? extends KeyValue> tuple) {
    Buffer out = new Buffer(head.length + 32);
    out.writeBytes(head);
    out.write(VERSION);
    List<?> values = tuple;
    for (int i = 0; i < values.size(); i++) {
      component(out, values.get(i), true);
    }
    return out.toByteArray();
  }

  /**
   * Encodes exact leading components followed by an unterminated string or binary prefix of the
   * next component: every tuple whose next component starts with {@code prefix} has an encoding
   * that starts with the result.
   */
  public static Bytes encodePrefix(List<? extends KeyValue> exact, KeyValue prefix) {
    Buffer out = new Buffer(32);
    out.write(VERSION);
    for (KeyValue v : exact) {
      component(out, v, true);
    }
    component(out, prefix, false);
    return Bytes.wrap(out.toByteArray());
  }

  /**
   * The smallest byte string greater than every string that starts with {@code prefix}, or null if
   * there is none (the prefix is all {@code 0xFF}).
   */
  public static Bytes prefixEnd(Bytes prefix) {
    byte[] b = prefix.toByteArray();
    int i = b.length - 1;
    while (i >= 0 && b[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return null;
    }
    byte[] end = Arrays.copyOf(b, i + 1);
    end[i]++;
    return Bytes.wrap(end);
  }

  /**
   * The smallest string greater than every string starting with {@code prefix} in code point order,
   * or null if none exists.
   */
  public static String prefixEnd(String prefix) {
    int[] cps = prefix.codePoints().toArray();
    int i = cps.length - 1;
    while (i >= 0 && cps[i] == Character.MAX_CODE_POINT) {
      i--;
    }
    if (i < 0) {
      return null;
    }
    int next = cps[i] + 1;
    if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
      next = Character.MAX_SURROGATE + 1; // surrogates are not code points of valid strings
    }
    int[] end = Arrays.copyOf(cps, i + 1);
    end[i] = next;
    return new String(end, 0, end.length);
  }

  // Takes an Object, so that reading a tuple's list costs no cast to the KeyValue interface (see
  // KeyValues for why such casts are dear): the checks below are of the three final classes.
  private static void component(Buffer out, Object v, boolean terminate) {
    if (v instanceof BinaryValue b) {
      out.write(BINARY);
      escapeInto(out, b.value().toByteArray(), terminate);
    } else if (v instanceof StringValue s) {
      out.write(STRING);
      escapeInto(out, s.value().getBytes(StandardCharsets.UTF_8), terminate);
    } else if (v instanceof NumberValue n) {
      if (!terminate) {
        throw new IllegalArgumentException("a number cannot be a begins-with prefix");
      }
      number(out, n.value());
    } else {
      throw new IllegalArgumentException("not a key value: " + v);
    }
  }

  /**
   * Writes bytes with {@code 0x00} as {@code 0x00 0xFF} and, when terminating, a final {@code 0x00
   * 0x01}. A shorter string's terminator sorts below any continuation ({@code 0x00 0xFF} or a
   * non-zero byte), which keeps prefix order.
   */
  private static void escapeInto(Buffer out, byte[] bytes, boolean terminate) {
    for (byte x : bytes) {
      out.write(x);
      if (x == 0) {
        out.write(0xFF);
      }
    }
    if (terminate) {
      out.write(0x00);
      out.write(0x01);
    }
  }

  private static void number(Buffer out, BigDecimal value) {
    int sign = value.signum();
    if (sign == 0) {
      out.write(ZERO);
      return;
    }
    if (value.precision() <= 18) {
      // Up to 18 digits (the common case) fit a long: the digits are written from it, without
      // building strings or stripped copies; the same bytes as the general case below.
      BigInteger unscaled = value.scale() == 0 ? null : value.unscaledValue();
      long u = Math.abs(unscaled == null ? value.longValue() : unscaled.longValue());
      int scale = value.scale();
      while (u % 10 == 0) {
        u /= 10;
        scale--;
      }
      int count = digitCount(u);
      int exponent = count - scale - 1 + EXPONENT_BIAS;
      out.write(sign > 0 ? POSITIVE : NEGATIVE);
      int e = sign > 0 ? exponent : 0xFFFF - exponent;
      out.write((e >>> 8) & 0xFF);
      out.write(e & 0xFF);
      int at = out.reserve(count);
      for (int i = count - 1; i >= 0; i--) {
        int d = (int) (u % 10) + 1; // 1..10
        u /= 10;
        out.set(at + i, sign > 0 ? d : 0xFF - d);
      }
      out.write(sign > 0 ? 0x00 : 0xFF);
      return;
    }
    BigDecimal abs = value.abs().stripTrailingZeros();
    String digits = abs.unscaledValue().toString();
    int exponent =
        digits.length() - abs.scale() - 1 + EXPONENT_BIAS; // 70..325 for portable numbers
    out.write(sign > 0 ? POSITIVE : NEGATIVE);
    int e = sign > 0 ? exponent : 0xFFFF - exponent;
    out.write((e >>> 8) & 0xFF);
    out.write(e & 0xFF);
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(i) - '0' + 1; // 1..10
      out.write(sign > 0 ? d : 0xFF - d);
    }
    out.write(sign > 0 ? 0x00 : 0xFF);
  }

  /** The number of decimal digits of a positive long. */
  private static int digitCount(long u) {
    int count = 1;
    while (u >= 10) {
      u /= 10;
      count++;
    }
    return count;
  }

  /** A growable byte array: {@link java.io.ByteArrayOutputStream} without its locking. */
  private static final class Buffer {
    private byte[] bytes;
    private int size;

    Buffer(int capacity) {
      bytes = new byte[capacity];
    }

    void write(int b) {
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, bytes.length * 2);
      }
      bytes[size++] = (byte) b;
    }

    void writeBytes(byte[] b) {
      if (size + b.length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + b.length));
      }
      System.arraycopy(b, 0, bytes, size, b.length);
      size += b.length;
    }

    /** Makes room for {@code n} bytes to be {@link #set} and answers where they start. */
    int reserve(int n) {
      if (size + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
      }
      int at = size;
      size += n;
      return at;
    }

    void set(int at, int b) {
      bytes[at] = (byte) b;
    }

    byte[] toByteArray() {
      return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }
  }

  /** Convenience for a single binary synthesized value. */
  public static AttributeValue.BinaryValue binary(List<? extends KeyValue> tuple) {
    return AttributeValue.of(encode(tuple));
  }
}
