package dev.stowage.spi;

import java.util.Objects;

/**
 * What a driver must verify about the stored item, atomically with a write. A failed expectation
 * throws {@link dev.stowage.ConditionFailedException} and writes nothing. The core builds every
 * conditional feature (conditions, versions, idempotency, updates) on these three.
 */
public sealed interface Expectation permits Expectation.Any, Expectation.Absent, Expectation.Token {
  /** No expectation. */
  Expectation ANY = new Any();

  /** The item must not exist. */
  Expectation ABSENT = new Absent();

  /** The item must exist with exactly this token. */
  static Expectation token(String token) {
    return new Token(token);
  }

  /** No expectation. */
  record Any() implements Expectation {}

  /** The item must not exist. */
  record Absent() implements Expectation {}

  /** The item must exist and its token must equal this one. */
  record Token(String token) implements Expectation {
    public Token {
      Objects.requireNonNull(token, "token");
    }
  }
}
