package dev.stowage.overflow.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.TableRef;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Blob key rules: the charset every {@link dev.stowage.overflow.BlobStore} accepts, and the layout
 * of overflow blob keys, {@code <namespace or "_root">/<table>/<32 lowercase hex digits>}.
 *
 * <p>{@code _root} cannot collide with a namespace (namespaces start with a lowercase letter), and
 * a table name never contains {@code /}, so {@link #tablePrefix} of one table is never a prefix of
 * another table's keys. Thread-safe.
 */
public final class BlobKeys {
  /** Longest key, in characters. */
  public static final int MAX_LENGTH = 512;

  /** Stands for the root (empty) namespace in blob keys. */
  public static final String ROOT_NAMESPACE = "_root";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final HexFormat HEX = HexFormat.of();

  private BlobKeys() {}

  /**
   * Checks a key against the store key rules: 1 to 512 characters of {@code [A-Za-z0-9/._=-]}, no
   * empty, {@code .} or {@code ..} path segment (so no leading, trailing or doubled {@code /}).
   *
   * @throws InvalidRequestException naming the rule the key breaks
   */
  public static String validate(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_LENGTH) {
      throw new InvalidRequestException(
          "blob key must be 1 to " + MAX_LENGTH + " characters, was " + describe(key));
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean ok =
          c >= 'a' && c <= 'z'
              || c >= 'A' && c <= 'Z'
              || c >= '0' && c <= '9'
              || c == '/'
              || c == '.'
              || c == '_'
              || c == '='
              || c == '-';
      if (!ok) {
        throw new InvalidRequestException(
            "blob key '" + sanitize(key) + "' has a character outside [A-Za-z0-9/._=-] at " + i);
      }
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new InvalidRequestException(
            "blob key '" + key + "' has an empty, '.' or '..' path segment");
      }
    }
    return key;
  }

  /** Checks a listing prefix: empty, or a key prefix of the key charset (may end with '/'). */
  public static String validatePrefix(String prefix) {
    if (prefix == null) {
      throw new InvalidRequestException("blob prefix must not be null");
    }
    if (prefix.isEmpty()) {
      return prefix;
    }
    String asKey = prefix.endsWith("/") ? prefix + "x" : prefix;
    validate(asKey);
    return prefix;
  }

  /** The prefix all overflow blobs of {@code table} share, ending with {@code /}. */
  public static String tablePrefix(TableRef table) {
    String ns = table.namespace().isEmpty() ? ROOT_NAMESPACE : table.namespace();
    return ns + "/" + table.table() + "/";
  }

  /** A fresh key for a new blob of {@code table}: 128 random bits, never reused. */
  public static String newKey(TableRef table) {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    return tablePrefix(table) + HEX.formatHex(id);
  }

  /** The table a well-formed overflow blob key belongs to, or empty for any other key. */
  public static Optional<TableRef> tableOf(String key) {
    String[] parts = key.split("/", -1);
    if (parts.length != 3 || parts[2].length() != 32 || !isLowerHex(parts[2])) {
      return Optional.empty();
    }
    String ns = parts[0].equals(ROOT_NAMESPACE) ? "" : parts[0];
    if (!TableRef.isValidNamespace(ns) || !dev.stowage.TableSpec.isValidName(parts[1])) {
      return Optional.empty();
    }
    return Optional.of(new TableRef(ns, parts[1]));
  }

  private static boolean isLowerHex(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static String describe(String key) {
    return key == null ? "null" : key.length() + " characters";
  }

  private static String sanitize(String key) {
    String s = key.replaceAll("[^\\x20-\\x7e]", "?");
    return s.length() > 80 ? s.substring(0, 80) + "…" : s;
  }
}
