package dev.stowage.cli.migrate.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Retries driver and blob-store calls made below the core (which would otherwise retry them), with
 * the same policy the core uses.
 */
public final class Retry {
  private final RetryPolicy policy;

  /** Retries with {@code policy}. */
  public Retry(RetryPolicy policy) {
    this.policy = policy;
  }

  /** Runs {@code call}, retrying retryable Stowage errors. */
  public <T> T call(Supplier<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (StowageException e) {
        if (!e.retryable() || attempt >= policy.maxAttempts()) {
          throw e;
        }
        Duration hint = e instanceof ThrottledException t ? t.retryAfter().orElse(null) : null;
        sleep(policy.delayBefore(attempt, hint));
      }
    }
  }

  /** Runs {@code call}, retrying retryable Stowage errors. */
  public void run(Runnable call) {
    call(
        () -> {
          call.run();
          return null;
        });
  }

  /** Sleeps for a backoff delay; an interrupt becomes an {@link IllegalStateException}. */
  public static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
