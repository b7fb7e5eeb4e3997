package dev.stowage;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * How the core retries retryable errors: exponential backoff with full jitter, a bounded number of
 * attempts, and the backend's retry-after hint honoured when it gives one.
 *
 * <p>The delay before attempt {@code n} (counting from 1 for the first retry) is a uniformly random
 * duration between zero and {@code min(maxDelay, baseDelay * 2^(n-1))}, or the backend's hint if
 * that is longer. Immutable and thread-safe.
 *
 * @param maxAttempts total attempts including the first, at least 1
 * @param baseDelay the backoff unit, positive
 * @param maxDelay the cap on any one delay, at least {@code baseDelay}
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
  /** 8 attempts, 20 ms base, 2 s cap. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(20), Duration.ofSeconds(2));

  /** One attempt: errors surface at once. */
  public static final RetryPolicy NONE =
      new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    if (baseDelay == null || baseDelay.isNegative() || baseDelay.isZero()) {
      throw new IllegalArgumentException("baseDelay must be positive");
    }
    if (maxDelay == null || maxDelay.compareTo(baseDelay) < 0) {
      throw new IllegalArgumentException("maxDelay must be at least baseDelay");
    }
  }

  /** The same policy with another number of attempts. */
  public RetryPolicy withMaxAttempts(int attempts) {
    return new RetryPolicy(attempts, baseDelay, maxDelay);
  }

  /**
   * The delay before retry number {@code retry} (1 for the first retry).
   *
   * @param hint the backend's retry-after hint, or null
   */
  public Duration delayBefore(int retry, Duration hint) {
    long capMillis = maxDelay.toMillis();
    long exp = baseDelay.toMillis() << Math.min(30, Math.max(0, retry - 1));
    long ceiling = Math.min(capMillis, exp <= 0 ? capMillis : exp);
    long jittered = ThreadLocalRandom.current().nextLong(ceiling + 1);
    if (hint != null && hint.toMillis() > jittered) {
      return hint;
    }
    return Duration.ofMillis(jittered);
  }

  /**
   * Runs {@code call}, retrying retryable {@link StowageException}s with this policy's backoff, and
   * rethrows the last failure. For code that talks to drivers or blob stores directly (tools,
   * migrations); the store's own operations already retry.
   *
   * @throws UnavailableException if interrupted while backing off (the interrupt flag is kept)
   */
  public <T> T call(Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (StowageException e) {
        if (!e.retryable() || attempt >= maxAttempts) {
          throw e;
        }
        Duration hint = e instanceof ThrottledException t ? t.retryAfter().orElse(null) : null;
        Duration delay = delayBefore(attempt, hint);
        dev.stowage.internal.RetryLog.retrying(attempt, maxAttempts, delay, e);
        try {
          Thread.sleep(delay.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new UnavailableException("interrupted while backing off", ie);
        }
      }
    }
  }

  /** Runs {@code call} under this policy; see {@link #call(Supplier)}. */
  public void run(Runnable call) {
    call(
        () -> {
          call.run();
          return null;
        });
  }
}
