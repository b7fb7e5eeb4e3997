package dev.stowage;

import java.time.Duration;
import java.util.Optional;

/**
 * The backend refused the request because of its rate or capacity limits (DynamoDB throughput and
 * request limits, Datastore RESOURCE_EXHAUSTED, Azure 503 ServerBusy). Retryable; the core retries
 * it with backoff, honouring {@link #retryAfter()} when the backend gave a hint, but never waiting
 * longer than the policy's {@link RetryPolicy#maxDelay()} at a time. The one that reaches the
 * application says how many attempts were made over how long, and keeps the backend's cause and
 * last hint.
 */
public final class ThrottledException extends StowageException {
  private static final long serialVersionUID = 1L;
  private final transient Duration retryAfter;

  /** Creates the exception without a retry hint. */
  public ThrottledException(String message, Throwable cause) {
    this(message, null, cause);
  }

  /** Creates the exception with the backend's retry-after hint (may be null). */
  public ThrottledException(String message, Duration retryAfter, Throwable cause) {
    super(message, cause);
    this.retryAfter = retryAfter;
  }

  /** How long the backend asked us to wait, when it said. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** Always {@code true}. */
  @Override
  public boolean retryable() {
    return true;
  }
}
