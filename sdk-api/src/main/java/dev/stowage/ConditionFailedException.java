package dev.stowage;

/**
 * A write's condition did not hold (including put-if-absent on an existing item and a version
 * mismatch); nothing was written.
 */
public final class ConditionFailedException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ConditionFailedException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public ConditionFailedException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
