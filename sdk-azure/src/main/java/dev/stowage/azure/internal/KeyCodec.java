package dev.stowage.azure.internal;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Order-preserving, reversible encoding of Stowage key values into Azure key strings.
 *
 * <p>A key value first becomes bytes whose unsigned order is Stowage's order (strings: UTF-8;
 * binary: as is; numbers: sign, exponent and base-100 digit bytes, see {@link #numberBytes}). The
 * bytes are then written in "sorted base64": 6 bits per character from a 64-character alphabet
 * listed in ascending ASCII order ({@code -0-9A-Z_a-z}), last group zero-padded. Because the
 * alphabet is sorted and padding bits are zero, string order of the encodings equals the unsigned
 * order of the bytes, a shorter prefix sorting first. The output is pure ASCII, so Azure's ordinal
 * string order and every other string order agree, and it never contains {@code / \ # ?}, quotes or
 * control characters.
 *
 * <p>Composite keys join encodings with {@link #SEP} ({@code '!'}, below every alphabet character),
 * which keeps tuple order. {@link #reverse} turns any string over {@code '!'} and the alphabet into
 * one that sorts in exactly the opposite order.
 */
public final class KeyCodec {
  /** The sorted base64 alphabet, in ascending ASCII order. */
  static final String ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

  /** Separator of composite keys; sorts below every alphabet character. */
  public static final char SEP = '!';

  /** Terminator appended by {@link #reverse}; sorts above every other key character. */
  static final char REVERSE_END = '~';

  private static final String EXTENDED = SEP + ALPHABET;
  private static final int[] INDEX = new int[128];

  static {
    java.util.Arrays.fill(INDEX, -1);
    for (int i = 0; i < EXTENDED.length(); i++) {
      INDEX[EXTENDED.charAt(i)] = i;
    }
  }

  private KeyCodec() {}

  /** Encodes a key value; the order of results equals Stowage's order of values of one type. */
  public static String encode(KeyValue value) {
    return encodeBytes(toBytes(value));
  }

  /** Decodes a value of {@code type} written by {@link #encode}. */
  public static KeyValue decode(String encoded, AttributeType type) {
    byte[] b = decodeBytes(encoded);
    return switch (type) {
      case STRING -> AttributeValue.of(new String(b, StandardCharsets.UTF_8));
      case BINARY -> AttributeValue.of(Bytes.wrap(b));
      case NUMBER -> AttributeValue.of(numberFromBytes(b));
      default -> throw new IllegalArgumentException(type + " is not a key type");
    };
  }

  /** The order-preserving bytes of a key value. */
  static byte[] toBytes(KeyValue value) {
    if (value instanceof AttributeValue.StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    if (value instanceof AttributeValue.BinaryValue b) {
      return b.value().toByteArray();
    }
    return numberBytes(((AttributeValue.NumberValue) value).value());
  }

  /**
   * Numbers: one class byte (1 negative, 2 zero, 3 positive); for non-zero numbers one exponent
   * byte (the decimal exponent of the leading digit plus 130, which fits the portable range
   * -130..125 into 0..255), then the significant digits in pairs as bytes 1..100 and a terminator
   * 0. Negative numbers complement exponent, digit bytes and terminator (255) so larger magnitudes
   * sort first.
   */
  static byte[] numberBytes(BigDecimal v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(24);
    int sign = v.signum();
    if (sign == 0) {
      out.write(2);
      return out.toByteArray();
    }
    BigDecimal n = v.abs().stripTrailingZeros();
    String digits = n.unscaledValue().toString();
    int exponent = digits.length() - n.scale() - 1;
    if (exponent < -130 || exponent > 125) {
      throw new IllegalArgumentException("number outside the portable range: " + v);
    }
    boolean neg = sign < 0;
    out.write(neg ? 1 : 3);
    int e = exponent + 130;
    out.write(neg ? 255 - e : e);
    if (digits.length() % 2 == 1) {
      digits = digits + "0";
    }
    for (int i = 0; i < digits.length(); i += 2) {
      int pair = (digits.charAt(i) - '0') * 10 + (digits.charAt(i + 1) - '0') + 1;
      out.write(neg ? 255 - pair : pair);
    }
    out.write(neg ? 255 : 0);
    return out.toByteArray();
  }

  static BigDecimal numberFromBytes(byte[] b) {
    if (b.length == 1 && b[0] == 2) {
      return BigDecimal.ZERO;
    }
    if (b.length < 4 || (b[0] != 1 && b[0] != 3)) {
      throw new IllegalArgumentException("malformed number key");
    }
    boolean neg = b[0] == 1;
    int e = b[1] & 0xFF;
    int exponent = (neg ? 255 - e : e) - 130;
    StringBuilder digits = new StringBuilder();
    for (int i = 2; i < b.length - 1; i++) {
      int x = b[i] & 0xFF;
      int pair = (neg ? 255 - x : x) - 1;
      digits.append((char) ('0' + pair / 10)).append((char) ('0' + pair % 10));
    }
    BigDecimal magnitude = new BigDecimal(new BigInteger(digits.toString()), 0);
    // digits represent d.ddd × 10^exponent, with digits.length() digits in total.
    magnitude = magnitude.scaleByPowerOfTen(exponent - digits.length() + 1).stripTrailingZeros();
    return neg ? magnitude.negate() : magnitude;
  }

  /** Sorted base64 of {@code bytes}. */
  public static String encodeBytes(byte[] bytes) {
    StringBuilder sb = new StringBuilder((bytes.length * 8 + 5) / 6);
    int buffer = 0;
    int bits = 0;
    for (byte x : bytes) {
      buffer = (buffer << 8) | (x & 0xFF);
      bits += 8;
      while (bits >= 6) {
        bits -= 6;
        sb.append(ALPHABET.charAt((buffer >>> bits) & 0x3F));
      }
    }
    if (bits > 0) {
      sb.append(ALPHABET.charAt((buffer << (6 - bits)) & 0x3F));
    }
    return sb.toString();
  }

  /** Inverse of {@link #encodeBytes}. */
  public static byte[] decodeBytes(String s) {
    byte[] out = new byte[s.length() * 6 / 8];
    int buffer = 0;
    int bits = 0;
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int v = c < 128 ? INDEX[c] - 1 : -1;
      if (v < 0) {
        throw new IllegalArgumentException("not a Stowage key encoding: " + s);
      }
      buffer = (buffer << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        if (n < out.length) {
          out[n++] = (byte) (buffer >>> bits);
        }
      }
    }
    return out;
  }

  /**
   * A string that sorts in exactly the opposite order: each character of {@code '!'} plus the
   * alphabet is mirrored within that set, and {@link #REVERSE_END} is appended so that a prefix
   * sorts after its extensions.
   */
  public static String reverse(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 1);
    for (int i = 0; i < s.length(); i++) {
      sb.append(EXTENDED.charAt(EXTENDED.length() - 1 - index(s.charAt(i))));
    }
    return sb.append(REVERSE_END).toString();
  }

  /** Inverse of {@link #reverse}. */
  public static String unreverse(String r) {
    if (r.isEmpty() || r.charAt(r.length() - 1) != REVERSE_END) {
      throw new IllegalArgumentException("not a reversed key: " + r);
    }
    StringBuilder sb = new StringBuilder(r.length() - 1);
    for (int i = 0; i < r.length() - 1; i++) {
      sb.append(EXTENDED.charAt(EXTENDED.length() - 1 - index(r.charAt(i))));
    }
    return sb.toString();
  }

  private static int index(char c) {
    int v = c < 128 ? INDEX[c] : -1;
    if (v < 0) {
      throw new IllegalArgumentException("character '" + c + "' is not a key character");
    }
    return v;
  }
}
