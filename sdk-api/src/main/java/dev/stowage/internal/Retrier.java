package dev.stowage.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.time.Duration;
import java.util.function.Supplier;

/** Runs calls under a {@link RetryPolicy}, retrying retryable {@link StowageException}s. */
public final class Retrier {
  private final RetryPolicy policy;
  private final Metrics metrics;

  /** A retrier for one policy. */
  public Retrier(RetryPolicy policy, Metrics metrics) {
    this.policy = policy;
    this.metrics = metrics;
  }

  /** The policy. */
  public RetryPolicy policy() {
    return policy;
  }

  /** Runs {@code call}, retrying retryable failures; rethrows the last failure. */
  public <T> T call(Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (StowageException e) {
        if (e instanceof ThrottledException) {
          metrics.throttled();
        }
        if (!e.retryable() || attempt >= policy.maxAttempts()) {
          throw e;
        }
        Duration hint = e instanceof ThrottledException t ? t.retryAfter().orElse(null) : null;
        sleep(policy.delayBefore(attempt, hint));
      }
    }
  }

  /** Runs {@code call} with retries. */
  public void run(Runnable call) {
    call(
        () -> {
          call.run();
          return null;
        });
  }

  /** Sleeps, turning interruption into an {@link UnavailableException} with the flag kept. */
  public static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnavailableException("interrupted while backing off", e);
    }
  }
}
