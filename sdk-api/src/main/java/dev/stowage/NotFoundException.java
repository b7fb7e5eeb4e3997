package dev.stowage;

/**
 * Something the request requires does not exist: a table that was never created, a blob store
 * prefix, an index name not in the table spec.
 */
public final class NotFoundException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public NotFoundException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public NotFoundException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
