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

  /** The counters this retrier's calls count into (the store's). */
  public Metrics metrics() {
    return metrics;
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

  /**
   * Runs a write that is not safe to resend blindly (it carries an expectation that its own landed
   * attempt would break). Retries only failures after which the write certainly did not happen,
   * such as throttling; a failure that leaves the outcome open ({@link UnavailableException}: the
   * backend may have applied the write and the response been lost) ends the call at once with an
   * {@link AmbiguousWrite}, for the caller to settle by reading the item.
   */
  public <T> T callUnlessAmbiguous(Supplier<T> call) {
    return call(
        () -> {
          try {
            return call.get();
          } catch (UnavailableException e) {
            throw new AmbiguousWrite(e);
          }
        });
  }

  /**
   * A write attempt failed in a way that leaves open whether the backend applied it. Deliberately
   * not a {@link dev.stowage.StowageException}, so the retry policy does not resend it.
   */
  static final class AmbiguousWrite extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AmbiguousWrite(UnavailableException cause) {
      super(cause.getMessage(), cause, false, false);
    }

    /** The failure as the backend reported it. */
    UnavailableException failure() {
      return (UnavailableException) getCause();
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
