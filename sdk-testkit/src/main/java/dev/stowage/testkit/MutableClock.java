package dev.stowage.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it, for cursor expiry and job timing contracts.
 * Thread-safe.
 */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  /** A clock standing at {@code start}, in UTC. */
  public MutableClock(Instant start) {
    this(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
  }

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** Moves the clock forward (or back, with a negative duration). */
  public void advance(Duration by) {
    now.updateAndGet(i -> i.plus(by));
  }

  /** Sets the clock to an instant. */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** A view of the same moving time in another zone. */
  @Override
  public Clock withZone(ZoneId newZone) {
    return new MutableClock(now, newZone);
  }

  @Override
  public Instant instant() {
    return now.get();
  }
}
