package dev.stowage.local.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Key values as bytes whose unsigned byte order (SQLite's order of BLOBs: {@code memcmp}, a shorter
 * prefix first) is Stowage's key order within one type: strings as UTF-8 (whose byte order is code
 * point order), binary values as they are, numbers in an order-preserving decimal form. A column
 * only ever holds values of one type (the table's key schema, an index's declared type), so no type
 * tag is needed. Stateless.
 *
 * <p>A number is one byte of sign class ({@code 0x40} negative, {@code 0x80} zero, {@code 0xC0}
 * positive), then for a non-zero number its decimal exponent in one byte and its significant digits
 * one byte each. Trailing zeros are stripped (as {@link AttributeValue.NumberValue} does), so a
 * longer digit string with the same exponent is the larger magnitude. Negative numbers invert
 * exponent and digits and end with {@code 0xFF}, so a larger magnitude sorts first.
 */
public final class KeyBytes {
  /** The value stored for a missing sort key (sorts before everything; one per partition). */
  public static final byte[] NONE = new byte[0];

  private static final int NEGATIVE = 0x40;
  private static final int ZERO = 0x80;
  private static final int POSITIVE = 0xC0;
  // NumberValue keeps exponents in -130..125: biased, they fit one byte.
  private static final int EXPONENT_BIAS = 130;

  private KeyBytes() {}

  /** The bytes of a key value, or {@link #NONE} for null. */
  public static byte[] of(KeyValue v) {
    if (v == null) {
      return NONE;
    }
    if (v instanceof AttributeValue.StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().toByteArray();
    }
    return number(((AttributeValue.NumberValue) v).value());
  }

  /** The bytes of a binary value as it is (synthesized index values). */
  public static byte[] of(Bytes b) {
    return b.toByteArray();
  }

  static byte[] number(BigDecimal n) {
    if (n.signum() == 0) {
      return new byte[] {(byte) ZERO};
    }
    BigDecimal normal = n.stripTrailingZeros();
    String digits = normal.unscaledValue().abs().toString();
    int exponent = digits.length() - normal.scale() - 1 + EXPONENT_BIAS;
    if (exponent < 0 || exponent > 255) {
      throw new IllegalArgumentException("number " + n + " is outside the portable range");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(digits.length() + 3);
    boolean negative = normal.signum() < 0;
    out.write(negative ? NEGATIVE : POSITIVE);
    out.write(negative ? 255 - exponent : exponent);
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(i) - '0';
      // Digits become 1..10 so that the terminator of a negative number is above them all.
      out.write(negative ? 10 - d : d + 1);
    }
    if (negative) {
      out.write(0xFF);
    }
    return out.toByteArray();
  }
}
