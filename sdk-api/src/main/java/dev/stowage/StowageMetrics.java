package dev.stowage;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;

/**
 * A snapshot of a store's request counters (shared by all namespace views of one {@link Stowage}).
 * Immutable.
 *
 * @param reads single-item and batch reads sent to the backend
 * @param writes writes sent to the backend (single, batch and transactional)
 * @param queries query and scan pages requested from the backend
 * @param throttled requests the backend throttled (each retried per the retry policy)
 * @param casRetries conditional writes re-read because a concurrent write won the race
 * @param requestIdsForgotten idempotent writes that made an item forget its oldest request id
 *     because the table's idempotency window was full (a retry of that request would be applied
 *     again): a count that keeps rising means the window is too small for the traffic
 */
public record StowageMetrics(
    long reads,
    long writes,
    long queries,
    long throttled,
    long casRetries,
    long requestIdsForgotten) {

  /**
   * Registers the counters of a store with a Micrometer registry as {@code stowage.requests}
   * (tagged {@code kind=read|write|query}), {@code stowage.throttled}, {@code stowage.cas.retries}
   * and {@code stowage.idempotency.forgotten}, tagged with the backend name.
   */
  public static void bind(Stowage store, MeterRegistry registry) {
    Supplier<StowageMetrics> m = store::metrics;
    String backend = store.backend();
    FunctionCounter.builder("stowage.requests", m, x -> x.get().reads())
        .tags("kind", "read", "backend", backend)
        .register(registry);
    FunctionCounter.builder("stowage.requests", m, x -> x.get().writes())
        .tags("kind", "write", "backend", backend)
        .register(registry);
    FunctionCounter.builder("stowage.requests", m, x -> x.get().queries())
        .tags("kind", "query", "backend", backend)
        .register(registry);
    FunctionCounter.builder("stowage.throttled", m, x -> x.get().throttled())
        .tag("backend", backend)
        .register(registry);
    FunctionCounter.builder("stowage.cas.retries", m, x -> x.get().casRetries())
        .tag("backend", backend)
        .register(registry);
    FunctionCounter.builder("stowage.idempotency.forgotten", m, x -> x.get().requestIdsForgotten())
        .tag("backend", backend)
        .register(registry);
  }
}
