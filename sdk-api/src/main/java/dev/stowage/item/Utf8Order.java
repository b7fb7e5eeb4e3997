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
    int i = 0;
    int j = 0;
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
