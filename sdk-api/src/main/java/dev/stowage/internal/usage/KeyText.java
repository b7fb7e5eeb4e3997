package dev.stowage.internal.usage;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Partition key values as text for hot-key reports. Values of indexes Stowage maintains ({@code 02
 * || fingerprint || tuple}, docs/FORMAT.md) are decoded back to their components; anything that
 * does not decode shows as hex. Long values are cut at 120 characters with an ellipsis. Stateless.
 */
final class KeyText {
  private static final int MAX = 120;

  private KeyText() {}

  /** A key value with equal numbers equal (1.0 and 1 are one key). */
  static KeyValue normalise(KeyValue v) {
    if (v instanceof AttributeValue.NumberValue n && n.value().signum() != 0) {
      return new AttributeValue.NumberValue(n.value().stripTrailingZeros());
    }
    if (v instanceof AttributeValue.NumberValue) {
      return new AttributeValue.NumberValue(BigDecimal.ZERO);
    }
    return v;
  }

  static String of(KeyValue v, boolean synthesizedIndex) {
    String s;
    if (v instanceof AttributeValue.StringValue sv) {
      s = sv.value();
    } else if (v instanceof AttributeValue.NumberValue nv) {
      s = nv.value().toPlainString();
    } else {
      byte[] b = ((AttributeValue.BinaryValue) v).value().toByteArray();
      String decoded = synthesizedIndex ? indexPartition(b) : null;
      s = decoded != null ? decoded : "0x" + HexFormat.of().formatHex(b);
    }
    return s.length() > MAX ? s.substring(0, MAX - 1) + "…" : s;
  }

  /** Decodes {@code 02 || fp(4) || tuple}, or {@code 03 || fp || tuple prefix || digest}. */
  private static String indexPartition(byte[] b) {
    if (b.length < 6 || (b[0] != 0x02 && b[0] != 0x03) || b[5] != 0x01) {
      return null;
    }
    boolean cut = b[0] == 0x03;
    int end = cut ? Math.min(b.length - 32, 5 + 64) : b.length;
    List<String> parts = new ArrayList<>();
    int i = 6;
    try {
      while (i < end) {
        int type = b[i++] & 0xFF;
        if (type == 0x10 || type == 0x20) {
          java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
          while (i < end) {
            if (b[i] == 0 && i + 1 < end && (b[i + 1] & 0xFF) == 0xFF) {
              raw.write(0);
              i += 2;
            } else if (b[i] == 0 && i + 1 < end && b[i + 1] == 0x01) {
              i += 2;
              break;
            } else {
              raw.write(b[i++]);
            }
          }
          parts.add(
              type == 0x20
                  ? raw.toString(StandardCharsets.UTF_8)
                  : "0x" + HexFormat.of().formatHex(raw.toByteArray()));
        } else if (type == 0x31) {
          parts.add("0");
        } else if (type == 0x30 || type == 0x32) {
          boolean neg = type == 0x30;
          int e = ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
          i += 2;
          int exponent = (neg ? 0xFFFF - e : e) - 200;
          StringBuilder digits = new StringBuilder();
          while (i < end) {
            int d = b[i++] & 0xFF;
            if (d == (neg ? 0xFF : 0x00)) {
              break;
            }
            digits.append((char) ('0' + (neg ? 0xFF - d : d) - 1));
          }
          BigDecimal v =
              new BigDecimal(new BigInteger(digits.toString()), digits.length() - 1 - exponent);
          parts.add((neg ? v.negate() : v).stripTrailingZeros().toPlainString());
        } else {
          return null;
        }
      }
    } catch (RuntimeException e) {
      return null;
    }
    String joined = parts.size() == 1 ? parts.get(0) : "(" + String.join(", ", parts) + ")";
    return cut ? joined + "…" : joined;
  }
}
