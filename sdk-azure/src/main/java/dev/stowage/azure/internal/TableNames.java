package dev.stowage.azure.internal;

import dev.stowage.spi.TableRef;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Maps (namespace, logical table) to Azure table names: alphanumeric, 3 to 63 characters, starting
 * with a letter, compared case-insensitively. The mapping is injective, so no two pairs collide.
 *
 * <p>Format: {@code s} + the namespace length as one base-36 digit + the namespace + a kind letter
 * + the body. Kinds: {@code t} data table and {@code i} index table with the logical name literal
 * (when it has only {@code [a-z0-9]}); {@code p} data table and {@code q} index table with the
 * logical name packed (when it contains {@code _} or {@code -}): the name read as a bijective
 * base-38 numeral over {@code a-z0-9_-}, written in lowercase base 36. Every part is lowercase, so
 * case-insensitivity cannot merge two names, and the prefix parses unambiguously. Longest: 1 + 1 +
 * 16 + 1 + 41 = 60 characters. Examples: {@code orders} → {@code s0torders}; namespace {@code prod}
 * → {@code s4prodtorders}; its index table {@code s4prodiorders}; {@code order_items} → {@code s0p}
 * + 11 base-36 digits.
 */
public final class TableNames {
  private static final String LOGICAL_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_-";
  private static final Pattern LITERAL = Pattern.compile("[a-z0-9]+");
  private static final BigInteger BASE = BigInteger.valueOf(LOGICAL_ALPHABET.length());

  private TableNames() {}

  /** The Azure table holding the items of {@code ref}. */
  public static String dataTable(TableRef ref) {
    return name(ref, false);
  }

  /** The Azure table holding the index entries of {@code ref}. */
  public static String indexTable(TableRef ref) {
    return name(ref, true);
  }

  private static String name(TableRef ref, boolean index) {
    String ns = ref.namespace();
    String t = ref.table();
    boolean literal = LITERAL.matcher(t).matches();
    char kind = literal ? (index ? 'i' : 't') : (index ? 'q' : 'p');
    String body = literal ? t : pack(t);
    return "s" + Character.forDigit(ns.length(), 36) + ns + kind + body;
  }

  /** The bijective base-38 value of {@code t}, in base 36. */
  static String pack(String t) {
    BigInteger v = BigInteger.ZERO;
    for (int i = 0; i < t.length(); i++) {
      int digit = LOGICAL_ALPHABET.indexOf(t.charAt(i)) + 1;
      if (digit == 0) {
        throw new IllegalArgumentException("invalid logical table name " + t);
      }
      v = v.multiply(BASE).add(BigInteger.valueOf(digit));
    }
    return v.toString(36);
  }

  /** Inverse of {@link #pack}. */
  static String unpack(String packed) {
    BigInteger v = new BigInteger(packed, 36);
    StringBuilder sb = new StringBuilder();
    while (v.signum() > 0) {
      BigInteger[] qr = v.subtract(BigInteger.ONE).divideAndRemainder(BASE);
      sb.append(LOGICAL_ALPHABET.charAt(qr[1].intValue()));
      v = qr[0];
    }
    return sb.reverse().toString();
  }

  /**
   * Parses a name produced here back into its table reference, or returns null for any other name.
   * Used by tests to prove the mapping is reversible (hence collision-free).
   */
  public static TableRef parse(String physical) {
    String p = physical.toLowerCase(java.util.Locale.ROOT);
    if (p.length() < 4 || p.charAt(0) != 's') {
      return null;
    }
    int nsLen = Character.digit(p.charAt(1), 36);
    if (nsLen < 0 || p.length() < 2 + nsLen + 2) {
      return null;
    }
    String ns = p.substring(2, 2 + nsLen);
    char kind = p.charAt(2 + nsLen);
    String body = p.substring(3 + nsLen);
    String table =
        switch (kind) {
          case 't', 'i' -> body;
          case 'p', 'q' -> unpack(body);
          default -> null;
        };
    return table == null ? null : new TableRef(ns, table);
  }
}
