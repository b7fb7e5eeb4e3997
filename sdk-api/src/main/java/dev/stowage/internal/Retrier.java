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
  private final Metrics.TableCounters table;

  /** A retrier for one policy. */
  public Retrier(RetryPolicy policy, Metrics metrics) {
    this(policy, metrics, null);
  }

  private Retrier(RetryPolicy policy, Metrics metrics, Metrics.TableCounters table) {
    this.policy = policy;
    this.metrics = metrics;
    this.table = table;
  }

  /**
   * The same policy for the requests of one table: counts its retries and throttles per table too,
   * and paces every attempt through the table's adaptive rate limiter when it has one.
   */
  public Retrier forTable(Metrics.TableCounters counters) {
    return new Retrier(policy, metrics, counters);
  }

  /** The policy. */
  public RetryPolicy policy() {
    return policy;
  }

  /** The counters this retrier's calls count into (the store's). */
  public Metrics metrics() {
    return metrics;
  }

  /**
   * Runs {@code call} under the policy, counting throttled attempts and retries; for a table with
   * an adaptive rate limiter, each attempt first waits for a token and its outcome adjusts the
   * rate.
   */
  public <T> T call(Supplier<T> call) {
    Metrics.TableCounters t = table;
    return policy.call(new Attempts<>(call, t, t == null ? null : t.limiter()));
  }

  /** The attempts of one call: one object per call, counting how many it made. */
  private final class Attempts<T> implements Supplier<T> {
    private final Supplier<T> call;
    private final Metrics.TableCounters t;
    private final AdaptiveRateLimiter limiter;
    private int attempts;

    Attempts(Supplier<T> call, Metrics.TableCounters t, AdaptiveRateLimiter limiter) {
      this.call = call;
      this.t = t;
      this.limiter = limiter;
    }

    @Override
    public T get() {
      if (attempts++ > 0) {
        metrics.retries.increment();
        if (t != null) {
          t.retried();
        }
      }
      if (limiter != null) {
        limiter.acquire();
      }
      T result;
      try {
        result = call.get();
      } catch (ThrottledException e) {
        metrics.throttled(e);
        if (t != null) {
          t.throttled(e);
        }
        if (limiter != null) {
          limiter.onThrottle();
        }
        throw e;
      }
      if (limiter != null) {
        limiter.onSuccess();
      }
      return result;
    }
  }

  /**
   * A batch came back with entries unprocessed (the backend's throttling of a batch) and they are
   * about to be resent: counts a retry and slows the table's rate limiter down.
   */
  void unprocessed() {
    metrics.retries.increment();
    if (table != null) {
      table.retried();
      AdaptiveRateLimiter limiter = table.limiter();
      if (limiter != null) {
        limiter.onThrottle();
      }
    }
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
