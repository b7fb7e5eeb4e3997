package dev.stowage.azure.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * Reversible escaping of Stowage attribute names (any printable Unicode, up to 255 UTF-8 bytes)
 * into Azure property names (C#-identifier-like: letters, digits and {@code _}, not starting with a
 * digit, at most 255 characters).
 *
 * <p>{@code [A-Za-z0-9]} stay as they are (except a leading digit), {@code _} becomes {@code __},
 * every other code point becomes {@code _<lowercase hex>_}. A result equal to a system property
 * name ({@code PartitionKey}, {@code RowKey}, {@code Timestamp}, compared case-insensitively) gets
 * its first character escaped. Escapes of code points 0 to 2 never occur (control characters are
 * not valid attribute names), so the driver's own properties use the prefixes {@code _0_} (its
 * bookkeeping), {@code _1_} (attributes in the typed encoding) and {@code _2_} (attributes whose
 * escaped name would exceed 255 characters: a hash of the name, the name itself travelling in the
 * value).
 */
public final class PropertyNames {
  /** Prefix of the driver's own bookkeeping properties. */
  public static final String INTERNAL = "_0_";

  /** Prefix of attributes stored in the typed encoding. */
  public static final String TYPED = "_1_";

  /** Prefix of attributes stored under a hash of their name. */
  public static final String HASHED = "_2_";

  /** Longest Azure property name. */
  public static final int MAX_LENGTH = 255;

  private static final Set<String> SYSTEM = Set.of("partitionkey", "rowkey", "timestamp");

  private PropertyNames() {}

  /** The escaped form of {@code name}, or null if it would exceed {@link #MAX_LENGTH}. */
  public static String escape(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      boolean alnum = cp < 128 && Character.isLetterOrDigit(cp);
      if (alnum && !(i == 0 && Character.isDigit(cp))) {
        sb.append((char) cp);
      } else if (cp == '_') {
        sb.append("__");
      } else {
        escapeCodePoint(sb, cp);
      }
      i += Character.charCount(cp);
      if (sb.length() > MAX_LENGTH) {
        return null;
      }
    }
    String s = sb.toString();
    if (SYSTEM.contains(s.toLowerCase(Locale.ROOT))) {
      StringBuilder e = new StringBuilder();
      escapeCodePoint(e, s.charAt(0));
      s = e.append(s, 1, s.length()).toString();
    }
    return s.length() > MAX_LENGTH ? null : s;
  }

  private static void escapeCodePoint(StringBuilder sb, int cp) {
    sb.append('_').append(Integer.toHexString(cp)).append('_');
  }

  /** Inverse of {@link #escape}. @throws IllegalArgumentException if malformed */
  public static String unescape(String property) {
    StringBuilder sb = new StringBuilder(property.length());
    for (int i = 0; i < property.length(); ) {
      char c = property.charAt(i);
      if (c != '_') {
        sb.append(c);
        i++;
        continue;
      }
      if (i + 1 < property.length() && property.charAt(i + 1) == '_') {
        sb.append('_');
        i += 2;
        continue;
      }
      int end = property.indexOf('_', i + 1);
      if (end < 0 || end == i + 1) {
        throw new IllegalArgumentException("malformed escaped property name " + property);
      }
      sb.appendCodePoint(Integer.parseInt(property.substring(i + 1, end), 16));
      i = end + 1;
    }
    return sb.toString();
  }

  /** The property name for an attribute stored natively, or null if it needs the hashed form. */
  public static String plain(String attribute) {
    return escape(attribute);
  }

  /** The property name for an attribute in the typed encoding, or null if it needs hashing. */
  public static String typed(String attribute) {
    String e = escape(attribute);
    return e == null || e.length() + TYPED.length() > MAX_LENGTH ? null : TYPED + e;
  }

  /** The hashed property name of an attribute whose escaped name is too long. */
  public static String hashed(String attribute) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(attribute.getBytes(StandardCharsets.UTF_8));
      return HASHED + HexFormat.of().formatHex(digest, 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
