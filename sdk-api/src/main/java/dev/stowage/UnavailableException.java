package dev.stowage;

/**
 * The backend or blob store could not be reached or timed out; the request may or may not have been
 * applied, which is why Stowage's writes are safe to repeat.
 */
public final class UnavailableException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public UnavailableException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public UnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code true}. */
  @Override
  public boolean retryable() {
    return true;
  }
}
