package dev.stowage.azure.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.TableRef;
import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Maps (namespace, logical table) to Azure table names: alphanumeric, 3 to 63 characters, starting
 * with a letter, compared case-insensitively. The mapping is injective, so no two pairs collide.
 *
 * <p>Format: {@code s} + the namespace length as one base-36 digit + the namespace + a kind letter
 * + the body. Kinds: {@code t} data table and {@code i} index table with the logical name literal
 * (when it has only {@code [a-z0-9]}); {@code p} data table and {@code q} index table with the
 * logical name packed (when it contains {@code _} or {@code -}): the name read as a bijective
 * base-38 numeral over {@code a-z0-9_-}, written in lowercase base 36. An adopted table's items
 * live in the application's own table; its index entries in an index table of kind {@code a}
 * (literal) or {@code b} (packed), so it never shares an index table with a table Stowage lays out
 * under the same logical name. Every part is lowercase, so case-insensitivity cannot merge two
 * names, and the prefix parses unambiguously. Longest: 1 + 1 + 16 + 1 + 41 = 60 characters.
 * Examples: {@code orders} → {@code s0torders}; namespace {@code prod} → {@code s4prodtorders}; its
 * index table {@code s4prodiorders}; {@code order_items} → {@code s0p} + 11 base-36 digits.
 */
public final class TableNames {
  private static final String LOGICAL_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_-";
  private static final Pattern LITERAL = Pattern.compile("[a-z0-9]+");
  private static final Pattern AZURE_TABLE = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");
  private static final BigInteger BASE = BigInteger.valueOf(LOGICAL_ALPHABET.length());

  private TableNames() {}

  /** The Azure table holding the items of {@code ref}. */
  public static String dataTable(TableRef ref) {
    // Named on every request (the client, the write templates, the known versions): kept per
    // table rather than matched and packed again each time.
    String name = DATA_TABLES.get(ref);
    if (name == null) {
      name = name(ref, false);
      if (DATA_TABLES.size() < MAX_CACHED) {
        DATA_TABLES.put(ref, name);
      }
    }
    return name;
  }

  /** Tables whose data table names are kept; a process addresses far fewer. */
  private static final int MAX_CACHED = 4096;

  private static final Map<TableRef, String> DATA_TABLES = new ConcurrentHashMap<>();

  /** The Azure table holding the index entries of {@code ref}. */
  public static String indexTable(TableRef ref) {
    return name(ref, true);
  }

  /** The Azure table holding the index entries of the adopted table {@code ref}. */
  public static String adoptedIndexTable(TableRef ref) {
    String t = ref.table();
    boolean literal = LITERAL.matcher(t).matches();
    return name(ref, literal ? 'a' : 'b');
  }

  private static String name(TableRef ref, boolean index) {
    boolean literal = LITERAL.matcher(ref.table()).matches();
    return name(ref, literal ? (index ? 'i' : 't') : (index ? 'q' : 'p'));
  }

  private static String name(TableRef ref, char kind) {
    String ns = ref.namespace();
    String t = ref.table();
    String body = kind == 't' || kind == 'i' || kind == 'a' ? t : pack(t);
    return "s" + Character.forDigit(ns.length(), 36) + ns + kind + body;
  }

  /**
   * Checks an adopted table's name against Azure's rule: 3 to 63 letters and digits, starting with
   * a letter, not the reserved {@code tables}, and not a name of Stowage's own tables (whose rows
   * are Stowage's encodings, not an application's entities).
   *
   * @throws InvalidRequestException saying which rule the name breaks
   */
  public static void checkAdoptable(String physical, TableRef ref) {
    if (!AZURE_TABLE.matcher(physical).matches()) {
      throw new InvalidRequestException(
          "table "
              + ref
              + " adopts '"
              + physical
              + "', which is not an Azure table name: Azure table names are 3 to 63 letters and"
              + " digits (no '-', '_' or other characters) and start with a letter");
    }
    if (physical.equalsIgnoreCase("tables")) {
      throw new InvalidRequestException(
          "table " + ref + " adopts 'tables', a name Azure Table Storage reserves");
    }
    TableRef own = parse(physical);
    if (own != null) {
      throw new InvalidRequestException(
          "table "
              + ref
              + " adopts '"
              + physical
              + "', which is the name of a table Stowage lays out itself (table "
              + own
              + "); open that table with a spec that does not adopt");
    }
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
   * Tests use it to prove the mapping is reversible (hence collision-free); adoption uses it to
   * refuse Stowage's own tables.
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
          case 't', 'i', 'a' -> body;
          case 'p', 'q', 'b' -> unpack(body);
          default -> null;
        };
    if (table == null) {
      return null;
    }
    try {
      return new TableRef(ns, table);
    } catch (IllegalArgumentException e) {
      return null; // not a namespace or logical name Stowage accepts
    }
  }
}
