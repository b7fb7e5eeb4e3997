package dev.stowage.overflow.internal;

/**
 * Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
 * without decoding, so a large string costs no temporary char buffer.
 */
final class Utf8 {
  private Utf8() {}

  static boolean isValid(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int need;
      int lo = 0x80;
      int hi = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0) {
          lo = 0xA0;
        } else if (c == 0xED) {
          hi = 0x9F;
        }
      } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0) {
          lo = 0x90;
        } else if (c == 0xF4) {
          hi = 0x8F;
        }
      } else {
        return false;
      }
      if (i + need >= n) {
        return false;
      }
      int first = b[i + 1] & 0xFF;
      if (first < lo || first > hi) {
        return false;
      }
      for (int k = 2; k <= need; k++) {
        int cc = b[i + k] & 0xFF;
        if (cc < 0x80 || cc > 0xBF) {
          return false;
        }
      }
      i += need + 1;
    }
    return true;
  }
}
