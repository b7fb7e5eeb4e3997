package dev.stowage.item;

import java.nio.charset.StandardCharsets;

/**
 * The portable rules for attribute names, applied to every item before anything is written.
 *
 * <p>A name is 1 to 255 UTF-8 bytes of printable text. Names starting with {@value
 * #RESERVED_PREFIX} are reserved for Stowage's own bookkeeping attributes (overflow pointers, index
 * values, request ids, write ids, drivers' version tokens) and are rejected in user items. Every
 * other name is the application's, including names other tools give meaning to such as AppSync's
 * {@code __typename}: an item read from a table keeps them, and Stowage writes them back unchanged.
 */
public final class AttributeNames {
  /**
   * Prefix of the attribute names Stowage keeps for itself: {@value}. It names its owner, so no
   * other tool's attributes can be mistaken for Stowage's.
   */
  public static final String RESERVED_PREFIX = "stowage:";

  /** Longest name, in UTF-8 bytes. */
  public static final int MAX_BYTES = 255;

  private AttributeNames() {}

  /**
   * Checks a user attribute name.
   *
   * @throws IllegalArgumentException naming the rule the name breaks
   */
  public static String validate(String name) {
    validateSyntax(name);
    if (name.startsWith(RESERVED_PREFIX)) {
      throw new IllegalArgumentException(
          "attribute name '"
              + name
              + "' starts with the reserved prefix '"
              + RESERVED_PREFIX
              + "' that Stowage uses for its own attributes");
    }
    return name;
  }

  /** Checks length and characters only; Stowage's own reserved names pass. */
  public static String validateSyntax(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("attribute name must not be empty");
    }
    // A char takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 chars): only long names can
    // be over the limit, and only they are encoded to count.
    int bytes = name.length() * 3 <= MAX_BYTES ? 0 : name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      throw new IllegalArgumentException(
          "attribute name '"
              + name.substring(0, 32)
              + "…' is "
              + bytes
              + " UTF-8 bytes; at most "
              + MAX_BYTES
              + " are allowed");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      // Printable ASCII, nearly every char of nearly every name, in one comparison.
      if ((char) (c - 0x20) < 0x5F) {
        continue;
      }
      if (Character.isISOControl(c) || Character.isSurrogate(c) && !validPair(name, i)) {
        throw new IllegalArgumentException(
            "attribute name '"
                + name.replaceAll("\\p{Cntrl}", "?")
                + "' contains a control character or unpaired surrogate at index "
                + i);
      }
    }
    return name;
  }

  /** True if {@code name} is one of Stowage's reserved names. */
  public static boolean isReserved(String name) {
    return name.startsWith(RESERVED_PREFIX);
  }

  private static boolean validPair(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
