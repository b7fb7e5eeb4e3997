package dev.stowage.internal;

import dev.stowage.StowageException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what {@link dev.stowage.RetryPolicy} retries and why, under the logger {@code
 * dev.stowage.RetryPolicy}: each retry at DEBUG (throttling is routine under load), a retry after
 * half the attempts at INFO (the backend keeps refusing). Stateless and thread-safe.
 */
public final class RetryLog {
  private static final Logger LOG = LoggerFactory.getLogger(dev.stowage.RetryPolicy.class);

  private RetryLog() {}

  /** Attempt {@code attempt} of {@code maxAttempts} failed with {@code error}; retrying. */
  public static void retrying(
      int attempt, int maxAttempts, Duration delay, StowageException error) {
    boolean persistent = attempt * 2 >= maxAttempts && maxAttempts > 2;
    if (persistent ? LOG.isInfoEnabled() : LOG.isDebugEnabled()) {
      String message = "attempt {} of {} failed ({}: {}); retrying in {} ms";
      Object[] args = {
        attempt, maxAttempts, error.getClass().getSimpleName(), error.getMessage(), delay.toMillis()
      };
      if (persistent) {
        LOG.info(message, args);
      } else {
        LOG.debug(message, args);
      }
    }
  }
}
