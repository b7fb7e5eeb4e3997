package dev.stowage;

/**
 * The backend or blob store could not be reached or timed out.
 *
 * <p>Usually the request may or may not have been applied, and Stowage has already retried it under
 * the store's {@link RetryPolicy} where that is safe. {@link #outcomeUnknown()} marks the one case
 * Stowage cannot settle by itself: a write whose response was lost, and whose effect it could
 * neither confirm nor rule out afterwards (for example a non-idempotent increment, or an item
 * another writer changed meanwhile). Repeating such a write may apply it twice; pass a request id
 * ({@code WriteOptions.idempotent}) to make repeats safe.
 */
public final class UnavailableException extends StowageException {
  private static final long serialVersionUID = 1L;

  private final boolean outcomeUnknown;

  /** Creates the exception. */
  public UnavailableException(String message) {
    this(message, null, false);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public UnavailableException(String message, Throwable cause) {
    this(message, cause, false);
  }

  private UnavailableException(String message, Throwable cause, boolean outcomeUnknown) {
    super(message, cause);
    this.outcomeUnknown = outcomeUnknown;
  }

  /**
   * A write whose response was lost and whose effect could not be settled: it may or may not have
   * been applied. Not retryable by Stowage's retry policy.
   */
  public static UnavailableException writeOutcomeUnknown(String message, Throwable cause) {
    return new UnavailableException(message, cause, true);
  }

  /** True if this reports a write that may or may not have been applied, as described above. */
  public boolean outcomeUnknown() {
    return outcomeUnknown;
  }

  /** {@code true}, except for a write whose outcome is unknown (repeating it is not safe). */
  @Override
  public boolean retryable() {
    return !outcomeUnknown;
  }
}
