package dev.stowage;

/**
 * The root of every error Stowage throws. Unchecked; the subclasses are a closed set, so callers
 * can handle each kind of failure the same way on every backend. Native client errors are
 * translated into these, with the native exception kept as the cause.
 *
 * <p>{@link #retryable()} says whether repeating the same request may succeed; the core's {@link
 * RetryPolicy} already retries retryable errors before they reach the application.
 */
public abstract sealed class StowageException extends RuntimeException
    permits ConditionFailedException,
        ThrottledException,
        UnavailableException,
        ConflictException,
        ItemTooLargeException,
        IntegrityException,
        UnsupportedCapabilityException,
        InvalidRequestException,
        InvalidCursorException,
        NotFoundException {

  StowageException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True if the same request may succeed when repeated later. */
  public abstract boolean retryable();
}
