package dev.stowage;

/**
 * The request lost a race with a concurrent one (an aborted transaction, contention on an entity
 * group, an ETag that moved during a retry loop); nothing was written and repeating may succeed.
 */
public final class ConflictException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ConflictException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public ConflictException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code true}. */
  @Override
  public boolean retryable() {
    return true;
  }
}
