package dev.stowage;

/**
 * A page cursor or job resume token was rejected. {@link #reason()} says why: it was altered or
 * truncated, it has expired, it belongs to another namespace, table or cursor key, it is a token of
 * another kind than the call takes, or the index it reads was redefined. No data is read for a
 * rejected cursor.
 */
public final class InvalidCursorException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Why a cursor was rejected. */
  public enum Reason {
    /** Not a cursor at all: bad encoding, wrong length. */
    MALFORMED,
    /**
     * Its authentication failed: altered or truncated (or, with an opaque {@code cursorAead},
     * sealed under a key it does not hold).
     */
    TAMPERED,
    /**
     * It was sealed under a cursor key this store does not hold: it comes from an application
     * instance configured with other keys, or from before a restart when the store uses a
     * per-process key (no cursor keyset or codec keyset configured), or its key was removed. The
     * message says which keys this store uses and how to share them.
     */
    UNKNOWN_KEY,
    /** Its expiry has passed. */
    EXPIRED,
    /** It was issued in another namespace. */
    WRONG_NAMESPACE,
    /** It was issued for another table. */
    WRONG_TABLE,
    /**
     * It is a token of another kind than the call takes: a delete-job or maintenance-job resume
     * token given as a page cursor, or the reverse. The message names what it is and where it
     * belongs.
     */
    WRONG_KIND,
    /**
     * It continues an index query, and the index was redefined (other partition or sort attributes)
     * or removed since it was issued: its position and matches belong to the old definition.
     */
    INDEX_CHANGED
  }

  private final Reason reason;

  /** Creates the exception. */
  public InvalidCursorException(Reason reason, String message) {
    super(message, null);
    this.reason = reason;
  }

  /** Creates the exception, keeping the cause. */
  public InvalidCursorException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** Why the cursor was rejected. */
  public Reason reason() {
    return reason;
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
