package dev.stowage;

/**
 * Stored data failed verification: a tampered or truncated envelope, a wrong or missing key, a blob
 * whose digest does not match, an unknown format version. The message names the table, key and
 * attribute; Stowage never returns the unverified data.
 */
public final class IntegrityException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public IntegrityException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public IntegrityException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
