package dev.stowage;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * How the core retries retryable errors: exponential backoff with full jitter, a bounded number of
 * attempts, and the backend's retry-after hint honoured up to {@code maxDelay}.
 *
 * <p>The delay before attempt {@code n} (counting from 1 for the first retry) is a uniformly random
 * duration between zero and {@code min(maxDelay, baseDelay * 2^(n-1))}, or the backend's hint if
 * that is longer, but never longer than {@code maxDelay}: a hint of ten minutes does not block the
 * caller for ten minutes. When the attempts run out, the error thrown says how many attempts were
 * made over how long and keeps the backend's cause and hint (see {@link #call}). Immutable and
 * thread-safe.
 *
 * @param maxAttempts total attempts including the first, at least 1
 * @param baseDelay the backoff unit, positive
 * @param maxDelay the cap on any one delay, the backend's retry-after hint included; at least
 *     {@code baseDelay}
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
   * The delay before retry number {@code retry} (1 for the first retry): the jittered backoff, or
   * the backend's hint if that is longer, never more than {@link #maxDelay}.
   *
   * @param hint the backend's retry-after hint, or null
   */
  public Duration delayBefore(int retry, Duration hint) {
    long capMillis = maxDelay.toMillis();
    long exp = baseDelay.toMillis() << Math.min(30, Math.max(0, retry - 1));
    long ceiling = Math.min(capMillis, exp <= 0 ? capMillis : exp);
    long jittered = ThreadLocalRandom.current().nextLong(ceiling + 1);
    if (hint != null && hint.compareTo(Duration.ofMillis(jittered)) > 0) {
      return hint.compareTo(maxDelay) > 0 ? maxDelay : hint;
    }
    return Duration.ofMillis(jittered);
  }

  /**
   * Runs {@code call}, retrying retryable {@link StowageException}s with this policy's backoff. For
   * code that talks to drivers or blob stores directly (tools, migrations); the store's own
   * operations already retry.
   *
   * <p>A non-retryable error is rethrown as it is. When a retryable error remains after the last
   * attempt, an error of the same type is thrown whose message adds how many attempts were made
   * over how long (for example {@code "... (gave up after 8 attempts over 3.2 s)"}); it keeps the
   * last error's cause, stack trace and {@link ThrottledException#retryAfter() retry hint}.
   *
   * @throws UnavailableException if interrupted while backing off (the interrupt flag is kept; the
   *     error being retried is attached as suppressed)
   */
  public <T> T call(Supplier<T> call) {
    long start = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (StowageException e) {
        if (!e.retryable()) {
          throw e;
        }
        if (attempt >= maxAttempts) {
          throw gaveUp(e, attempt, System.nanoTime() - start);
        }
        Duration hint = e instanceof ThrottledException t ? t.retryAfter().orElse(null) : null;
        Duration delay = delayBefore(attempt, hint);
        dev.stowage.internal.RetryLog.retrying(attempt, maxAttempts, delay, e);
        try {
          Thread.sleep(delay.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          UnavailableException u =
              new UnavailableException(
                  "interrupted while backing off " + effort(attempt, System.nanoTime() - start),
                  ie);
          u.addSuppressed(e);
          throw u;
        }
      }
    }
  }

  /** The last error of a call whose attempts ran out, its message saying how hard we tried. */
  private static StowageException gaveUp(StowageException last, int attempts, long nanos) {
    String message = last.getMessage() + " (gave up " + effort(attempts, nanos) + ")";
    StowageException out;
    if (last instanceof ThrottledException t) {
      out = new ThrottledException(message, t.retryAfter().orElse(null), t.details(), t.getCause());
    } else if (last instanceof UnavailableException) {
      out = new UnavailableException(message, last.getCause());
    } else if (last instanceof ConflictException) {
      out = new ConflictException(message, last.getCause());
    } else {
      return last;
    }
    out.setStackTrace(last.getStackTrace());
    for (Throwable s : last.getSuppressed()) {
      out.addSuppressed(s);
    }
    return out;
  }

  private static String effort(int attempts, long nanos) {
    return String.format(
        Locale.ROOT,
        "after %d attempt%s over %.1f s",
        attempts,
        attempts == 1 ? "" : "s",
        nanos / 1e9);
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
