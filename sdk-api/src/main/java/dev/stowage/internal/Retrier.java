package dev.stowage.internal;

import dev.stowage.RetryPolicy;
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

  /** Runs {@code call} under the policy, counting throttled attempts. */
  public <T> T call(Supplier<T> call) {
    return policy.call(
        () -> {
          try {
            return call.get();
          } catch (ThrottledException e) {
            metrics.throttled();
            throw e;
          }
        });
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
