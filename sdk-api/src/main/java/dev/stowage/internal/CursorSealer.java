package dev.stowage.internal;

import dev.stowage.InvalidCursorException;
import dev.stowage.InvalidCursorException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;

/**
 * Seals cursor states into opaque URL-safe strings with an AEAD, and opens them again with every
 * check a cursor must pass: a known key, authenticity, namespace, table and expiry. Thread-safe.
 *
 * <p>The associated data {@code "stowage-cursor-v1"} keeps cursors and encrypted attribute values
 * apart when both are sealed with the codec keyset: an attribute envelope's associated data starts
 * with a varint header length followed by the envelope magic {@code F5 53}, so the two never
 * coincide, and neither kind of ciphertext opens as the other.
 */
public final class CursorSealer {
  private static final byte[] ASSOCIATED = "stowage-cursor-v1".getBytes(StandardCharsets.US_ASCII);
  private final CursorKeys keys;
  private final Clock clock;

  /** A sealer over the store's cursor keys. */
  public CursorSealer(CursorKeys keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  /** Seals a state. */
  public String seal(CursorState state) {
    try {
      byte[] sealed = keys.encrypt(CursorCodec.write(state), ASSOCIATED);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot seal a cursor", e);
    }
  }

  /**
   * Opens a cursor issued for {@code table} in {@code namespace}.
   *
   * @throws InvalidCursorException with the precise reason
   */
  public CursorState open(String cursor, String namespace, String table) {
    if (cursor == null || cursor.isEmpty() || cursor.length() > 64 * 1024) {
      throw new InvalidCursorException(Reason.MALFORMED, "cursor is empty or too long");
    }
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException e) {
      throw new InvalidCursorException(Reason.MALFORMED, "cursor is not valid base64url", e);
    }
    Optional<Integer> unknown = keys.unknownKeyId(raw);
    if (unknown.isPresent()) {
      throw new InvalidCursorException(Reason.UNKNOWN_KEY, unknownKeyMessage(unknown.get()));
    }
    byte[] plain;
    try {
      plain = keys.decrypt(raw, ASSOCIATED);
    } catch (GeneralSecurityException e) {
      throw new InvalidCursorException(
          Reason.TAMPERED,
          "cursor failed authentication: it was altered, truncated or sealed with another key",
          e);
    }
    CursorState s;
    try {
      s = CursorCodec.read(plain);
    } catch (ValueWire.MalformedException e) {
      throw new InvalidCursorException(
          Reason.MALFORMED, "cursor content is invalid: " + e.getMessage(), e);
    }
    if (!s.namespace().equals(namespace)) {
      throw new InvalidCursorException(
          Reason.WRONG_NAMESPACE,
          "cursor was issued in namespace '" + s.namespace() + "', not '" + namespace + "'");
    }
    if (!s.table().equals(table)) {
      throw new InvalidCursorException(
          Reason.WRONG_TABLE,
          "cursor was issued for table '" + s.table() + "', not '" + table + "'");
    }
    if (clock.millis() > s.expiresAtMillis()) {
      throw new InvalidCursorException(Reason.EXPIRED, "cursor has expired");
    }
    return s;
  }

  /**
   * Opens a token issued for {@code table} in {@code namespace} that must be of one of the {@code
   * accepted} kinds ({@link CursorState#PAGE}, {@link CursorState#DELETE}, {@link
   * CursorState#BACKFILL}, {@link CursorState#REENCRYPT}, {@link CursorState#VERIFY}).
   *
   * @throws InvalidCursorException with {@link Reason#WRONG_KIND} naming what the token is and
   *     where it belongs, or another reason from {@link #open(String, String, String)}
   */
  public CursorState open(String cursor, String namespace, String table, int... accepted) {
    CursorState s = open(cursor, namespace, table);
    for (int kind : accepted) {
      if (s.job() == kind) {
        return s;
      }
    }
    throw new InvalidCursorException(
        Reason.WRONG_KIND,
        "this is "
            + kindName(s.job())
            + ", not "
            + (accepted[0] == CursorState.BACKFILL
                    || accepted[0] == CursorState.REENCRYPT
                    || accepted[0] == CursorState.VERIFY
                ? "a maintenance-job resume token"
                : kindName(accepted[0]))
            + ": pass it to "
            + takenBy(s.job()));
  }

  private String unknownKeyMessage(int keyId) {
    return "cursor was sealed under cursor key "
        + String.format("%08x", keyId)
        + ", which this store does not hold: it comes from an instance with other cursor keys, or"
        + " from before a restart or a key removal. This store seals cursors with "
        + keys.description()
        + ". For cursors that work on every instance and survive restarts, configure the same"
        + " keys everywhere: a cursor keyset (Stowage.Builder.cursorKeys) or a codec keyset"
        + " (Codecs.Builder.keys, which cursors then use); keep retired keys in the keyset while"
        + " their cursors are to stay valid";
  }

  private static String kindName(int job) {
    switch (job) {
      case CursorState.PAGE:
        return "a page cursor";
      case CursorState.DELETE:
        return "a delete-job resume token";
      case CursorState.BACKFILL:
        return "an index-backfill resume token";
      case CursorState.VERIFY:
        return "an index-verification resume token";
      default:
        return "a re-encryption resume token";
    }
  }

  private static String takenBy(int job) {
    switch (job) {
      case CursorState.PAGE:
        return "Table.page";
      case CursorState.DELETE:
        return "Table.resumeDelete";
      default:
        return "Table.resumeMaintenance";
    }
  }
}
