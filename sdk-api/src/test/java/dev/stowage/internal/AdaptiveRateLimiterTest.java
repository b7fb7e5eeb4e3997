package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The adaptive token bucket on a fake clock: waiting advances the clock instead of sleeping. */
class AdaptiveRateLimiterTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final AdaptiveRateLimiter limiter =
      new AdaptiveRateLimiter(now::get, nanos -> now.addAndGet(nanos));

  private void advanceMillis(long ms) {
    now.addAndGet(ms * 1_000_000L);
  }

  /** Sends {@code n} requests as fast as the limiter lets them, each succeeding. */
  private double sendSucceeding(int n) {
    long start = now.get();
    for (int i = 0; i < n; i++) {
      limiter.acquire();
      limiter.onSuccess();
      advanceMillis(1); // each request takes a millisecond
    }
    return n / ((now.get() - start) / 1e9);
  }

  @Test
  void nothingIsLimitedBeforeTheFirstThrottle() {
    double rate = sendSucceeding(2000);
    assertThat(limiter.limiting()).isFalse();
    assertThat(limiter.rate()).isInfinite();
    assertThat(rate).as("requests per second, 1 ms each").isGreaterThan(900);
  }

  @Test
  void aThrottleCutsTheRateAndRepeatedThrottlesCutItFurther() {
    sendSucceeding(2000); // about 1000 requests per second measured
    limiter.onThrottle();
    assertThat(limiter.limiting()).isTrue();
    double first = limiter.rate();
    assertThat(first).as("70%% of the measured rate").isBetween(500.0, 800.0);
    limiter.onThrottle();
    limiter.onThrottle();
    assertThat(limiter.rate()).as("each throttle cuts again").isLessThan(first * 0.75);
  }

  @Test
  void theLimiterPacesRequestsAtItsRate() {
    sendSucceeding(2000);
    for (int i = 0; i < 6; i++) {
      limiter.onThrottle();
    }
    double limit = limiter.rate();
    assertThat(limit).isLessThan(200);
    // Requests that take no time are held back to about the limiter's rate.
    long start = now.get();
    for (int i = 0; i < 100; i++) {
      limiter.acquire();
    }
    double seconds = (now.get() - start) / 1e9;
    assertThat(100 / seconds).as("paced rate").isLessThan(limit * 1.6);
  }

  @Test
  void theRateRecoversAfterThrottlingStops() {
    sendSucceeding(2000);
    limiter.onThrottle();
    limiter.onThrottle();
    double low = limiter.rate();
    // Ten seconds of succeeding requests: the cubic curve climbs back past the old rate.
    long end = now.get() + 10_000_000_000L;
    while (now.get() < end) {
      limiter.acquire();
      limiter.onSuccess();
      advanceMillis(1);
    }
    assertThat(limiter.rate()).isGreaterThan(low * 2);
    assertThat(limiter.rate()).as("back to the rate before the throttles").isGreaterThan(700);
  }

  @Test
  void theRateNeverFallsBelowTheFloor() {
    sendSucceeding(100);
    for (int i = 0; i < 100; i++) {
      limiter.onThrottle();
    }
    assertThat(limiter.rate()).isEqualTo(AdaptiveRateLimiter.MIN_RATE);
  }
}
