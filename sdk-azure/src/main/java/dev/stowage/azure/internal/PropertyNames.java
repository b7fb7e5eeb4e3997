package dev.stowage.azure.internal;

import dev.stowage.item.AttributeNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * Reversible mapping of Stowage attribute names (any printable Unicode, up to 255 UTF-8 bytes) to
 * Azure property names (C# identifiers of at most 255 characters), under which every name another
 * tool can store on Azure reads as itself and is written back as itself.
 *
 * <p><b>Plain names.</b> A name that is a C# identifier (a letter or {@code _}, then letters,
 * decimal digits, combining marks or {@code _}; {@link #isIdentifier}), is not a system property
 * ({@code PartitionKey}, {@code RowKey}, {@code Timestamp}, compared case-insensitively), does not
 * start with one of the driver's private prefixes {@code _0_}, {@code _1_}, {@code _2_}, and is not
 * itself an escape (below) is its own property name: {@code first_name}, {@code __typename}, {@code
 * a__b}, {@code prénom}, {@code _3_abc}.
 *
 * <p><b>Escapes.</b> Every other name {@code a} is stored as {@code _3_} + esc(a), where esc keeps
 * ASCII letters and digits, writes {@code _} as {@code __} and every other code point as {@code
 * _<lowercase hex>_}: {@code a.b} → {@code _3_a_2e_b}, {@code stowage:w} → {@code _3_stowage_3a_w},
 * {@code 1st} → {@code _3_1st}, {@code RowKey} → {@code _3_RowKey}. A property name is read as an
 * escape only if it is exactly the escape of a name that is not plain, so the only names another
 * tool could write that read differently are those of that form ({@code _3_} followed by the escape
 * of a non-plain name, such as {@code _3_a_2e_b}).
 *
 * <p><b>Private prefixes.</b> Escapes of code points 0 to 2 never occur in attribute names (control
 * characters are not valid attribute names), so {@code _0_} (the driver's bookkeeping), {@code _1_}
 * (attributes in the typed encoding: {@code _1_} + the attribute's property name) and {@code _2_}
 * (attributes whose property name would exceed 255 characters: a hash of the name, the name itself
 * travelling in the value) are the driver's own.
 */
public final class PropertyNames {
  /** Prefix of the driver's own bookkeeping properties. */
  public static final String INTERNAL = "_0_";

  /** Prefix of attributes stored in the typed encoding. */
  public static final String TYPED = "_1_";

  /** Prefix of attributes stored under a hash of their name. */
  public static final String HASHED = "_2_";

  /** Prefix of escaped names (names that are not plain). */
  public static final String ESCAPED = "_3_";

  /** Longest Azure property name. */
  public static final int MAX_LENGTH = 255;

  private static final Set<String> SYSTEM = Set.of("partitionkey", "rowkey", "timestamp");

  private PropertyNames() {}

  /** The property name of {@code name}, or null if it would exceed {@link #MAX_LENGTH}. */
  public static String escape(String name) {
    if (isPlain(name)) {
      return name;
    }
    String e = ESCAPED + esc(name);
    return e.length() > MAX_LENGTH ? null : e;
  }

  /**
   * The attribute name a property name stands for: its unescaped form if it is the escape of a
   * non-plain name, else the property name itself. Not for the private {@code _0_}, {@code _1_},
   * {@code _2_} properties (their callers strip or decode those).
   */
  public static String unescape(String property) {
    if (!property.startsWith(ESCAPED)) {
      return property;
    }
    // An escape is checked by decoding, re-encoding and classifying the name, on every entity
    // read; a table has few escaped names, so each is decoded once (the answer depends on the
    // name alone).
    String known = UNESCAPED.get(property);
    if (known != null) {
      return known;
    }
    String decoded = decodedEscape(property);
    String name = decoded != null ? decoded : property;
    if (UNESCAPED.size() < UNESCAPED_CACHED) {
      UNESCAPED.put(property, name);
    }
    return name;
  }

  /** Escaped property names decoded at most (beyond them, names are decoded every time). */
  static final int UNESCAPED_CACHED = 4096;

  /** {@link #unescape} of the escaped property names read so far. */
  private static final java.util.concurrent.ConcurrentHashMap<String, String> UNESCAPED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * True if {@code name} is stored under its own name. Recurses with {@link #decodedEscape} on
   * strictly shorter names (an escape is longer than the name it stands for), so it ends.
   */
  private static boolean isPlain(String name) {
    return name.length() <= MAX_LENGTH
        && isIdentifier(name)
        && !SYSTEM.contains(name.toLowerCase(Locale.ROOT))
        && !name.startsWith(INTERNAL)
        && !name.startsWith(TYPED)
        && !name.startsWith(HASHED)
        && decodedEscape(name) == null;
  }

  /** The name {@code property} is the escape of, or null if it is not one. */
  private static String decodedEscape(String property) {
    if (!property.startsWith(ESCAPED)) {
      return null;
    }
    String body = property.substring(ESCAPED.length());
    String name = unesc(body);
    if (name == null || !isAttributeName(name) || !esc(name).equals(body) || isPlain(name)) {
      return null;
    }
    return name;
  }

  /** True if {@code s} is a valid attribute name (so {@code _3_} alone is not an escape of ""). */
  private static boolean isAttributeName(String s) {
    try {
      AttributeNames.validateSyntax(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * True if {@code s} is a C# identifier as Azure asks of property names: a letter (Unicode
   * categories Lu, Ll, Lt, Lm, Lo, Nl) or {@code _}, then letters, decimal digits (Nd), combining
   * marks (Mn, Mc) or {@code _}. (C# also allows other connecting and formatting characters; they
   * are escaped, being invisible or easily confused.)
   */
  public static boolean isIdentifier(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      boolean ok =
          cp == '_'
              || isLetter(cp)
              || (i > 0
                  && switch (Character.getType(cp)) {
                    case Character.DECIMAL_DIGIT_NUMBER,
                        Character.NON_SPACING_MARK,
                        Character.COMBINING_SPACING_MARK ->
                        true;
                    default -> false;
                  });
      if (!ok) {
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  private static boolean isLetter(int cp) {
    return switch (Character.getType(cp)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.LETTER_NUMBER ->
          true;
      default -> false;
    };
  }

  /** ASCII letters and digits as they are, {@code _} as {@code __}, others as {@code _hex_}. */
  private static String esc(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      if (cp < 128 && Character.isLetterOrDigit(cp)) {
        sb.append((char) cp);
      } else if (cp == '_') {
        sb.append("__");
      } else {
        sb.append('_').append(Integer.toHexString(cp)).append('_');
      }
      i += Character.charCount(cp);
    }
    return sb.toString();
  }

  /** Inverse of {@link #esc}, or null if {@code body} is not in its alphabet. */
  private static String unesc(String body) {
    StringBuilder sb = new StringBuilder(body.length());
    for (int i = 0; i < body.length(); ) {
      char c = body.charAt(i);
      if (c != '_') {
        if (c >= 128 || !Character.isLetterOrDigit(c)) {
          return null;
        }
        sb.append(c);
        i++;
        continue;
      }
      if (i + 1 < body.length() && body.charAt(i + 1) == '_') {
        sb.append('_');
        i += 2;
        continue;
      }
      int end = body.indexOf('_', i + 1);
      // At most six hex digits: U+10FFFF.
      if (end < 0 || end == i + 1 || end - i - 1 > 6) {
        return null;
      }
      int cp;
      try {
        cp = Integer.parseInt(body.substring(i + 1, end), 16);
      } catch (NumberFormatException e) {
        return null;
      }
      if (!Character.isValidCodePoint(cp)
          || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)) {
        return null;
      }
      sb.appendCodePoint(cp);
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
