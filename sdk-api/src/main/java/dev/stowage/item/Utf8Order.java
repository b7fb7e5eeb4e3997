package dev.stowage.item;

import java.util.Comparator;

/**
 * Compares strings by their UTF-8 bytes (equivalently, by Unicode code points), the order every
 * Stowage driver uses for string keys. {@link String#compareTo} compares UTF-16 code units and
 * disagrees for characters outside the Basic Multilingual Plane, so it must not be used for keys.
 */
public final class Utf8Order {
  /** The comparator; thread-safe. */
  public static final Comparator<String> COMPARATOR = Utf8Order::compare;

  private Utf8Order() {}

  /** Negative, zero or positive as {@code a} sorts before, with or after {@code b}. */
  public static int compare(String a, String b) {
    if (a == b) {
      return 0;
    }
    // UTF-16 order is code point (so UTF-8) order except where a surrogate meets a char above
    // them (U+E000..U+FFFF): compare chars, and code points only from a difference that involves
    // a surrogate.
    int n = Math.min(a.length(), b.length());
    for (int k = 0; k < n; k++) {
      char ca = a.charAt(k);
      char cb = b.charAt(k);
      if (ca != cb) {
        if (!Character.isSurrogate(ca) && !Character.isSurrogate(cb)) {
          return ca - cb;
        }
        int from = k > 0 && Character.isHighSurrogate(a.charAt(k - 1)) ? k - 1 : k;
        return byCodePoints(a, b, from);
      }
    }
    return a.length() - b.length();
  }

  private static int byCodePoints(String a, String b, int from) {
    int i = from;
    int j = from;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
