package dev.stowage.internal;

import java.util.function.LongSupplier;

/**
 * A client-side token bucket for one table whose rate adapts to throttling, after the AWS SDK's
 * adaptive retry mode: it lets everything through until the backend first throttles; from then on
 * requests take a token, the fill rate drops multiplicatively (to {@link #BETA} of the rate
 * measured when throttled) on every throttle, and grows back along a cubic curve towards, then
 * past, the rate at which the last throttle happened. The rate never exceeds twice the rate
 * requests were actually sent at, and never falls under {@link #MIN_RATE}.
 *
 * <p>So a burst that the backend throttles turns into a slower stream instead of a retry storm, and
 * the table recovers its full throughput a few seconds after the throttling stops. Time comes from
 * {@code nanoTime} and waiting is done by {@code sleeper}, both replaceable for tests. Thread-safe;
 * one lock per table, taken briefly per request.
 */
public final class AdaptiveRateLimiter {
  /** Multiplicative decrease on a throttle. */
  static final double BETA = 0.7;

  /** Cubic growth's scaling constant (AWS SDK: 0.4). */
  static final double SCALE = 0.4;

  /** Lowest fill rate, requests per second. */
  static final double MIN_RATE = 0.5;

  /** Smoothing of the measured send rate. */
  private static final double SMOOTH = 0.8;

  /** Width of the buckets the send rate is measured over, in seconds. */
  private static final double BUCKET_SECONDS = 0.5;

  /** Waits, for tests replaceable by a fake clock's advance. */
  public interface Sleeper {
    /** Waits {@code nanos}; throws if interrupted. */
    void sleep(long nanos);
  }

  private final LongSupplier nanoTime;
  private final Sleeper sleeper;

  private boolean enabled;
  private double fillRate;
  private double capacity;
  private double tokens;
  private double lastRefill = Double.NaN;
  private double lastMaxRate;
  private double lastThrottle;
  private double timeWindow;
  private double measuredRate;
  private double measureBucket = Double.NaN;
  private double firstSeen = Double.NaN;
  private long seen;
  private long measureCount;

  /** A limiter on the system clock. */
  public AdaptiveRateLimiter() {
    this(System::nanoTime, nanos -> Retrier.sleep(java.time.Duration.ofNanos(nanos)));
  }

  /** A limiter on the given clock and sleeper (tests). */
  public AdaptiveRateLimiter(LongSupplier nanoTime, Sleeper sleeper) {
    this.nanoTime = nanoTime;
    this.sleeper = sleeper;
  }

  private double now() {
    return nanoTime.getAsLong() / 1e9;
  }

  /** Waits for a token (not at all before the first throttle). */
  public void acquire() {
    long wait = reserve();
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }

  /** Takes a token, returning how long to wait before sending, in nanoseconds. */
  synchronized long reserve() {
    if (!enabled) {
      return 0;
    }
    refill();
    tokens -= 1;
    if (tokens >= 0) {
      return 0;
    }
    // Owe the token: the caller waits for it to be refilled, and the debt is kept so concurrent
    // callers queue behind one another.
    return (long) (-tokens / fillRate * 1e9);
  }

  /** The backend throttled a request. */
  public synchronized void onThrottle() {
    double t = now();
    updateMeasuredRate(t);
    double measured = measuredRate;
    if (!(measured > 0)) {
      // No whole bucket measured yet (a burst right at the start): the rate so far.
      measured = seen / Math.max(t - firstSeen, 0.1);
    }
    double rate = enabled ? Math.min(measured, fillRate) : measured;
    lastMaxRate = rate;
    timeWindow = Math.cbrt(lastMaxRate * (1 - BETA) / SCALE);
    lastThrottle = t;
    refill();
    enabled = true;
    setRate(rate * BETA);
  }

  /** A request succeeded. */
  public synchronized void onSuccess() {
    double t = now();
    updateMeasuredRate(t);
    if (!enabled) {
      return;
    }
    refill();
    double dt = t - lastThrottle - timeWindow;
    double cubic = SCALE * dt * dt * dt + lastMaxRate;
    setRate(cubic);
  }

  private void setRate(double rate) {
    double capped = Math.min(rate, 2 * Math.max(Math.max(measuredRate, lastMaxRate), MIN_RATE));
    fillRate = Math.max(MIN_RATE, capped);
    capacity = Math.max(1, fillRate);
    if (tokens > capacity) {
      tokens = capacity;
    }
  }

  private void refill() {
    double t = now();
    if (Double.isNaN(lastRefill)) {
      lastRefill = t;
      tokens = 1;
      return;
    }
    if (fillRate > 0) {
      tokens = Math.min(capacity, tokens + (t - lastRefill) * fillRate);
    }
    lastRefill = t;
  }

  private void updateMeasuredRate(double t) {
    double bucket = Math.floor(t / BUCKET_SECONDS) * BUCKET_SECONDS;
    measureCount++;
    seen++;
    if (Double.isNaN(measureBucket)) {
      firstSeen = t;
      measureBucket = bucket;
      return;
    }
    if (bucket > measureBucket) {
      double current = measureCount / (bucket - measureBucket);
      measuredRate = current * SMOOTH + measuredRate * (1 - SMOOTH);
      measureCount = 0;
      measureBucket = bucket;
    }
  }

  /** The current fill rate in requests per second, or infinity while not limiting. */
  public synchronized double rate() {
    return enabled ? fillRate : Double.POSITIVE_INFINITY;
  }

  /** True once the backend has throttled and the limiter paces requests. */
  public synchronized boolean limiting() {
    return enabled;
  }
}
