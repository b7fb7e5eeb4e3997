package dev.stowage.dynamodb.internal;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The driver's concurrency token: a random string in the reserved attribute {@value #ATTRIBUTE},
 * replaced on every write. Items written by other tools have no such attribute; they read with the
 * fixed token {@value #NONE}, which a conditional write checks as "exists and has no token
 * attribute".
 */
public final class Tokens {
  /** The reserved attribute holding the token. */
  public static final String ATTRIBUTE = "stowage:tok";

  /** The token of a stored item that has no token attribute (written by another tool). */
  public static final String NONE = "-";

  /** Length of a generated token (base64url of 16 random bytes, unpadded). */
  public static final int TOKEN_LENGTH = 22;

  private static final SecureRandom RANDOM = new SecureRandom();

  private Tokens() {}

  /** A fresh random token. */
  public static String next() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * {@code n} fresh random tokens, each as {@link #next()} makes one, their bytes drawn in one call
   * of the shared random source: a batch write's puts would otherwise take its lock once each, and
   * a copy's writer threads draw a token for every item.
   */
  public static String[] next(int n) {
    byte[] b = new byte[16 * n];
    RANDOM.nextBytes(b);
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    String[] tokens = new String[n];
    byte[] one = new byte[16];
    for (int i = 0; i < n; i++) {
      System.arraycopy(b, 16 * i, one, 0, 16);
      tokens[i] = base64.encodeToString(one);
    }
    return tokens;
  }
}
