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
    // Succeeding requests: the cubic curve climbs back to the rate of the last throttle (about
    // 700/s: 70% of the 1000/s measured) in cbrt(700 * 0.3 / 0.4) = 8 s, then past it.
    runFor(10);
    assertThat(limiter.rate()).as("after 10 s").isGreaterThan(low * 1.3).isGreaterThan(690);
    runFor(10);
    assertThat(limiter.rate())
        .as("after 20 s, past the rate before the throttles")
        .isGreaterThan(1000);
  }

  private void runFor(int seconds) {
    long end = now.get() + seconds * 1_000_000_000L;
    while (now.get() < end) {
      limiter.acquire();
      limiter.onSuccess();
      advanceMillis(1);
    }
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
