package dev.stowage.datastore.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The order-preserving encoding of a Stowage primary key into a Datastore key name.
 *
 * <p>Raw form: a two-byte big-endian length followed by the partition value's bytes (partition
 * order does not matter, only grouping does), then the sort value's order-preserving bytes with no
 * terminator (it is the last component): UTF-8 for strings, the raw bytes for binary, {@link
 * #number} for numbers. The raw bytes are then written six bits per character in an alphabet whose
 * ASCII order equals its digit order, so comparing names compares raw bytes, whatever string order
 * the backend applies (UTF-8 bytes, UTF-16 units or code points all agree on ASCII).
 *
 * <p>All keys of partition {@code p} have names in {@code [name(P), name(succ(P)))} where {@code P}
 * is the raw partition prefix and {@code succ} its prefix successor. Stateless and thread-safe.
 */
public final class KeyNames {
  /** Longest key name Datastore accepts, in bytes (it is ASCII, so also characters). */
  public static final int MAX_NAME_CHARS = 1500;

  /** Raw bytes that fit in {@link #MAX_NAME_CHARS} characters. */
  public static final int MAX_RAW_BYTES = MAX_NAME_CHARS * 6 / 8;

  /** Largest partition value in bytes (string UTF-8, binary, or a number's plain string). */
  public static final int MAX_PARTITION_BYTES = 720;

  /** Largest sort value in bytes; the two limits together fit {@link #MAX_RAW_BYTES}. */
  public static final int MAX_SORT_BYTES = MAX_RAW_BYTES - 2 - MAX_PARTITION_BYTES;

  private static final char[] ALPHABET =
      "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final int[] DIGIT = new int[128];

  static {
    Arrays.fill(DIGIT, -1);
    for (int i = 0; i < ALPHABET.length; i++) {
      DIGIT[ALPHABET[i]] = i;
    }
  }

  private KeyNames() {}

  /** The key name of {@code key}. @throws InvalidRequestException if the key is too long */
  public static String name(Key key) {
    byte[] p = partitionPrefix(key.partition());
    KeyValue sort = key.sortOrNull();
    if (sort == null) {
      return toName(p);
    }
    byte[] s = sortBytes(sort);
    if (s.length > MAX_SORT_BYTES) {
      throw new InvalidRequestException(
          "sort key is " + s.length + " bytes encoded; Datastore allows " + MAX_SORT_BYTES);
    }
    return toName(concat(p, s));
  }

  /** The smallest name of any key in partition {@code partition}. */
  public static String partitionStart(KeyValue partition) {
    return toName(partitionPrefix(partition));
  }

  /** A name greater than every key name of the partition and not above the next partition. */
  public static String partitionEnd(KeyValue partition) {
    byte[] p = partitionPrefix(partition);
    int i = p.length - 1;
    while (p[i] == (byte) 0xFF) {
      i--; // the length prefix is at most 0x02D0, so this stops before index 0
    }
    byte[] succ = Arrays.copyOf(p, i + 1);
    succ[i]++;
    return toName(succ);
  }

  /** The name of the position {@code (partition, sort)} inside a sort-keyed partition. */
  public static String bound(KeyValue partition, KeyValue sort) {
    return toName(concat(partitionPrefix(partition), sortBytes(sort)));
  }

  /** The raw bytes behind a name (for tests and diagnostics). */
  public static byte[] raw(String name) {
    int bytes = name.length() * 6 / 8;
    byte[] out = new byte[bytes];
    long acc = 0;
    int bits = 0;
    int o = 0;
    for (int i = 0; i < name.length() && o < bytes; i++) {
      char c = name.charAt(i);
      int d = c < 128 ? DIGIT[c] : -1;
      if (d < 0) {
        throw new IllegalArgumentException("not a Stowage key name: " + name);
      }
      acc = (acc << 6) | d;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (byte) (acc >>> bits);
      }
    }
    return out;
  }

  /** Bytes 6 bits per character, zero-padded: order-preserving and injective. */
  static String toName(byte[] raw) {
    StringBuilder sb = new StringBuilder((raw.length * 8 + 5) / 6);
    int acc = 0;
    int bits = 0;
    for (byte b : raw) {
      acc = (acc << 8) | (b & 0xFF);
      bits += 8;
      while (bits >= 6) {
        bits -= 6;
        sb.append(ALPHABET[(acc >>> bits) & 0x3F]);
      }
    }
    if (bits > 0) {
      sb.append(ALPHABET[(acc << (6 - bits)) & 0x3F]);
    }
    return sb.toString();
  }

  private static byte[] partitionPrefix(KeyValue partition) {
    byte[] v;
    if (partition instanceof StringValue s) {
      v = s.value().getBytes(StandardCharsets.UTF_8);
    } else if (partition instanceof BinaryValue b) {
      v = b.value().toByteArray();
    } else {
      v = ((NumberValue) partition).value().toString().getBytes(StandardCharsets.US_ASCII);
    }
    if (v.length > MAX_PARTITION_BYTES) {
      throw new InvalidRequestException(
          "partition key is " + v.length + " bytes; Datastore allows " + MAX_PARTITION_BYTES);
    }
    byte[] out = new byte[v.length + 2];
    out[0] = (byte) (v.length >>> 8);
    out[1] = (byte) v.length;
    System.arraycopy(v, 0, out, 2, v.length);
    return out;
  }

  private static byte[] sortBytes(KeyValue sort) {
    if (sort instanceof StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    if (sort instanceof BinaryValue b) {
      return b.value().toByteArray();
    }
    return number(((NumberValue) sort).value());
  }

  /**
   * An order-preserving encoding of a normalised decimal: a sign byte (1 negative, 2 zero, 3
   * positive), then for non-zero values the decimal exponent plus 130 and one byte per significant
   * digit (digit + 1) closed by 0; negative values invert exponent and digits and close with 0xFF.
   */
  static byte[] number(BigDecimal v) {
    if (v.signum() == 0) {
      return new byte[] {2};
    }
    BigDecimal n = v.stripTrailingZeros();
    String digits = n.unscaledValue().abs().toString();
    int exponent = n.precision() - n.scale() - 1 + 130;
    boolean neg = n.signum() < 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream(digits.length() + 3);
    out.write(neg ? 1 : 3);
    out.write(neg ? 255 - exponent : exponent);
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(i) - '0' + 1;
      out.write(neg ? 11 - d : d);
    }
    out.write(neg ? 0xFF : 0);
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
