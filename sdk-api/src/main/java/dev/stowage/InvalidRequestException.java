package dev.stowage;

/**
 * The request is malformed or violates a rule (an invalid name, a wrong type in a condition, a
 * condition on an encrypted attribute, an oversized key); detected before anything is written, or
 * reported by the backend with its native message.
 */
public final class InvalidRequestException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public InvalidRequestException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
