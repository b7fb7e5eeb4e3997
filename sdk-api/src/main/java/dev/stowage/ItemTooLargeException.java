package dev.stowage;

/**
 * An item cannot be stored even after moving attributes to the blob store, because its key or
 * indexed attributes alone exceed the backend's limits, or because no blob store is configured.
 * Nothing was written.
 */
public final class ItemTooLargeException extends StowageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public ItemTooLargeException(String message) {
    super(message, null);
  }

  /** Creates the exception, keeping the native or underlying cause. */
  public ItemTooLargeException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
