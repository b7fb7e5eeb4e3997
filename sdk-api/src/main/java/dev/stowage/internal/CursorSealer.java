package dev.stowage.internal;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.InvalidCursorException;
import dev.stowage.InvalidCursorException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Base64;

/**
 * Seals cursor states into opaque URL-safe strings with an AEAD, and opens them again with every
 * check a cursor must pass: authenticity, expiry, namespace and table. Thread-safe.
 */
public final class CursorSealer {
  private static final byte[] ASSOCIATED = "stowage-cursor-v1".getBytes(StandardCharsets.US_ASCII);
  private final Aead aead;
  private final Clock clock;

  /** A sealer over an AEAD; null generates a fresh random AES-256-GCM key. */
  public CursorSealer(Aead aead, Clock clock) {
    this.aead = aead != null ? aead : randomAead();
    this.clock = clock;
  }

  /** A new random AES-256-GCM AEAD. */
  public static Aead randomAead() {
    try {
      AeadConfig.register();
      return KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM)
          .getPrimitive(RegistryConfiguration.get(), Aead.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a cursor key", e);
    }
  }

  /** Seals a state. */
  public String seal(CursorState state) {
    try {
      byte[] sealed = aead.encrypt(CursorCodec.write(state), ASSOCIATED);
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
    byte[] plain;
    try {
      plain = aead.decrypt(raw, ASSOCIATED);
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
   * CursorState#BACKFILL}, {@link CursorState#REENCRYPT}).
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
            + (accepted[0] == CursorState.BACKFILL || accepted[0] == CursorState.REENCRYPT
                ? "a maintenance-job resume token"
                : kindName(accepted[0]))
            + ": pass it to "
            + takenBy(s.job()));
  }

  private static String kindName(int job) {
    switch (job) {
      case CursorState.PAGE:
        return "a page cursor";
      case CursorState.DELETE:
        return "a delete-job resume token";
      case CursorState.BACKFILL:
        return "an index-backfill resume token";
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
