package dev.stowage.bench;

import java.util.concurrent.locks.LockSupport;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * A model of the network round trip to a remote service, not a measurement of one: every request of
 * the clients it is added to waits a fixed time before it is sent ({@link #beforeTransmission}), on
 * the thread sending it, as a request to the real service waits for its response. It models only
 * the round trip's latency: no bandwidth limit, no server-side queueing or throttling, no jitter.
 * Requests sent from different threads wait at the same time, as concurrent requests over separate
 * connections do. The wait can be changed between measurements ({@link #millis(double)}), so that
 * one JVM measures with and without it.
 */
public final class ModelledRoundTrip implements ExecutionInterceptor {
  private volatile long nanos;

  /** Sets the wait of every request from now on, in milliseconds; 0 for none. */
  public void millis(double ms) {
    if (!(ms >= 0) || Double.isInfinite(ms)) {
      throw new IllegalArgumentException("a modelled round trip is 0 ms or more, not " + ms);
    }
    nanos = (long) (ms * 1e6);
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    long wait = nanos;
    if (wait <= 0) {
      return;
    }
    // parkNanos may return early (spuriously or on interrupt): wait out the whole time.
    long end = System.nanoTime() + wait;
    for (long left = wait; left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
