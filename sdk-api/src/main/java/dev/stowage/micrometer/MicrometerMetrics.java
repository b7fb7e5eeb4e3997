package dev.stowage.micrometer;

import dev.stowage.RequestListener;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.ThrottledException;
import dev.stowage.internal.Metrics;
import dev.stowage.internal.OperationCounters;
import dev.stowage.internal.StowageAccess;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Exports a store's requests to Micrometer:
 *
 * <ul>
 *   <li>{@code stowage.backend.requests}, a timer with a percentile histogram (the latency
 *       distribution), tagged {@code backend}, {@code target} ({@code table} for the driver, {@code
 *       blob} for the blob store), {@code operation} ({@code get}, {@code query}, {@code
 *       batchWrite}, …), {@code namespace}, {@code table} and {@code outcome} ({@code ok}, {@code
 *       throttled}, {@code unavailable}, {@code condition_failed}, {@code error});
 *   <li>{@code stowage.backend.bytes}, a counter in bytes tagged {@code backend}, {@code target},
 *       {@code namespace}, {@code table} and {@code direction} ({@code written} or {@code read}):
 *       items as the backend's size model counts them, blobs as stored.
 * </ul>
 *
 * <pre>{@code
 * Stowage store = Stowage.builder(driver)
 *     .requestListener(MicrometerMetrics.of(registry))
 *     .build();
 * MicrometerMetrics.bind(store, registry);   // the store's own counters, see StowageMetrics
 * }</pre>
 *
 * <p>Thread-safe. Requires {@code io.micrometer:micrometer-core}, an optional dependency of
 * Stowage; only this package uses it.
 */
public final class MicrometerMetrics implements RequestListener {
  private final MeterRegistry registry;
  private final Map<Request, Timer> timers = new ConcurrentHashMap<>();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  private MicrometerMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * A listener recording into {@code registry}; pass it to {@link Stowage.Builder#requestListener}.
   */
  public static MicrometerMetrics of(MeterRegistry registry) {
    return new MicrometerMetrics(Objects.requireNonNull(registry, "registry"));
  }

  @Override
  public void onRequest(Request r) {
    // One timer per tag combination: key the cache by the request with its measurements zeroed.
    Request key =
        new Request(
            r.backend(),
            r.target(),
            r.operation(),
            r.namespace(),
            r.table(),
            java.time.Duration.ZERO,
            0,
            0,
            r.outcome());
    timers
        .computeIfAbsent(
            key,
            k ->
                Timer.builder("stowage.backend.requests")
                    .description("Requests Stowage sent to a backend or blob store")
                    .tags(where(k).and("operation", k.operation(), "outcome", lower(k.outcome())))
                    .publishPercentileHistogram()
                    .register(registry))
        .record(r.duration());
    if (r.bytesWritten() > 0) {
      bytes(r, "written").increment(r.bytesWritten());
    }
    if (r.bytesRead() > 0) {
      bytes(r, "read").increment(r.bytesRead());
    }
  }

  private Counter bytes(Request r, String direction) {
    String id =
        String.join("\u0000", r.backend(), r.target().name(), r.namespace(), r.table(), direction);
    return counters.computeIfAbsent(
        id,
        k ->
            Counter.builder("stowage.backend.bytes")
                .description("Bytes of items and blobs Stowage wrote and read")
                .baseUnit("bytes")
                .tags(where(r).and("direction", direction))
                .register(registry));
  }

  private static Tags where(Request r) {
    return Tags.of(
        "backend", r.backend(),
        "target", lower(r.target()),
        "namespace", r.namespace(),
        "table", r.table());
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Registers the counters of a store ({@link Stowage#metrics()}), tagged with the backend name:
   *
   * <ul>
   *   <li>{@code stowage.requests} (tagged {@code kind=read|write|query}), {@code
   *       stowage.throttled}, {@code stowage.cas.retries}, {@code stowage.idempotency.forgotten}
   *       and {@code stowage.index.stale};
   *   <li>per table (tagged {@code namespace} and {@code table}; tables opened later are added when
   *       they are opened): {@code stowage.overflow.blobs} and {@code stowage.overflow.bytes}
   *       (tagged {@code direction=written|read}), {@code stowage.compression.bytes} (tagged {@code
   *       stage=before|after}: the serialised values of compressed attributes and the same values
   *       as stored) and the gauge {@code stowage.compression.ratio} (before / after; NaN until a
   *       value of a compressed attribute is written). See {@link StowageMetrics.TableMetrics}.
   *   <li>per table, operation and index (tagged {@code backend}, {@code namespace}, {@code table},
   *       {@code operation}, {@code index}; "" for the table itself; registered when the operation
   *       first counts a request): {@code stowage.table.requests}, a function timer (count and
   *       total time), {@code stowage.table.failures} tagged {@code outcome=throttled|conflict|
   *       condition_failed|error}, {@code stowage.table.items} and {@code stowage.table.bytes}
   *       tagged {@code direction=read|written};
   *   <li>per table: {@code stowage.table.throttled} tagged {@code reason} ({@link
   *       ThrottledException.Reason#tag()}), {@code stowage.table.retries}, the gauge {@code
   *       stowage.table.rate.limit} (requests per second; infinite while not limiting) and {@code
   *       stowage.table.capacity} tagged {@code index} and {@code kind=read|write|delete}: the
   *       billable units the backend reports (see {@link StowageMetrics.CapacityMetrics});
   *   <li>for the store, {@code stowage.throttled.reason} tagged {@code reason} and {@code
   *       stowage.retries}.
   * </ul>
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
    FunctionCounter.builder("stowage.index.stale", m, x -> x.get().staleIndexHits())
        .tag("backend", backend)
        .description("index query hits left out because the item no longer matches")
        .register(registry);
    Metrics metrics = StowageAccess.metrics(store);
    for (ThrottledException.Reason r : ThrottledException.Reason.values()) {
      FunctionCounter.builder("stowage.throttled.reason", metrics, x -> x.throttledRequests(r))
          .tags("backend", backend, "reason", r.tag())
          .description("throttled requests by the reason the backend gave")
          .register(registry);
    }
    FunctionCounter.builder("stowage.retries", metrics, Metrics::retries)
        .tag("backend", backend)
        .description("attempts repeated after a retryable failure")
        .register(registry);
    metrics.onTable(t -> bindTable(t, backend, registry));
    metrics.onOperation(o -> bindOperation(o, backend, registry));
    metrics.onCapacity((t, index) -> bindCapacity(t, index, backend, registry));
  }

  private static void bindOperation(OperationCounters o, String backend, MeterRegistry registry) {
    Tags tags =
        Tags.of(
            "backend", backend,
            "namespace", o.table().table().namespace(),
            "table", o.table().table().table(),
            "operation", o.op().tag(),
            "index", o.index());
    FunctionTimer.builder(
            "stowage.table.requests",
            o,
            OperationCounters::requests,
            OperationCounters::nanos,
            java.util.concurrent.TimeUnit.NANOSECONDS)
        .tags(tags)
        .description("requests to the backend per table, operation and index, with total time")
        .register(registry);
    FunctionCounter.builder("stowage.table.failures", o, OperationCounters::throttled)
        .tags(tags.and("outcome", "throttled"))
        .register(registry);
    FunctionCounter.builder("stowage.table.failures", o, OperationCounters::conflicts)
        .tags(tags.and("outcome", "conflict"))
        .register(registry);
    FunctionCounter.builder("stowage.table.failures", o, OperationCounters::conditionFailures)
        .tags(tags.and("outcome", "condition_failed"))
        .register(registry);
    FunctionCounter.builder("stowage.table.failures", o, OperationCounters::errors)
        .tags(tags.and("outcome", "error"))
        .register(registry);
    FunctionCounter.builder("stowage.table.items", o, OperationCounters::itemsRead)
        .tags(tags.and("direction", "read"))
        .register(registry);
    FunctionCounter.builder("stowage.table.items", o, OperationCounters::itemsWritten)
        .tags(tags.and("direction", "written"))
        .register(registry);
    FunctionCounter.builder("stowage.table.bytes", o, OperationCounters::bytesRead)
        .tags(tags.and("direction", "read"))
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder("stowage.table.bytes", o, OperationCounters::bytesWritten)
        .tags(tags.and("direction", "written"))
        .baseUnit("bytes")
        .register(registry);
  }

  private static void bindCapacity(
      Metrics.TableCounters t, String index, String backend, MeterRegistry registry) {
    Tags tags =
        Tags.of(
            "backend",
            backend,
            "namespace",
            t.table().namespace(),
            "table",
            t.table().table(),
            "index",
            index);
    String[] kinds = {"read", "write", "delete"};
    for (int i = 0; i < kinds.length; i++) {
      int k = i;
      FunctionCounter.builder("stowage.table.capacity", t, x -> x.capacity(index)[k])
          .tags(tags.and("kind", kinds[k]))
          .description(
              "billable units the backend reports (capacity units, entity operations,"
                  + " transactions)")
          .register(registry);
    }
  }

  private static void bindTable(
      Metrics.TableCounters counters, String backend, MeterRegistry registry) {
    Tags tags =
        Tags.of(
            "backend", backend,
            "namespace", counters.table().namespace(),
            "table", counters.table().table());
    FunctionCounter.builder(
            "stowage.overflow.blobs", counters, Metrics.TableCounters::overflowBlobsWritten)
        .tags(tags.and("direction", "written"))
        .description("overflow blobs written to the blob store")
        .register(registry);
    FunctionCounter.builder(
            "stowage.overflow.blobs", counters, Metrics.TableCounters::overflowBlobsRead)
        .tags(tags.and("direction", "read"))
        .description("overflow blobs read from the blob store")
        .register(registry);
    FunctionCounter.builder(
            "stowage.overflow.bytes", counters, Metrics.TableCounters::overflowBytesWritten)
        .tags(tags.and("direction", "written"))
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder(
            "stowage.overflow.bytes", counters, Metrics.TableCounters::overflowBytesRead)
        .tags(tags.and("direction", "read"))
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder(
            "stowage.compression.bytes", counters, Metrics.TableCounters::bytesBeforeCompression)
        .tags(tags.and("stage", "before"))
        .baseUnit("bytes")
        .description("serialised bytes of the values of compressed attributes written")
        .register(registry);
    FunctionCounter.builder(
            "stowage.compression.bytes", counters, Metrics.TableCounters::bytesAfterCompression)
        .tags(tags.and("stage", "after"))
        .baseUnit("bytes")
        .description("the same values' bytes as stored")
        .register(registry);
    for (ThrottledException.Reason r : ThrottledException.Reason.values()) {
      FunctionCounter.builder("stowage.table.throttled", counters, c -> c.throttled(r))
          .tags(tags.and("reason", r.tag()))
          .description("throttled requests of the table by the reason the backend gave")
          .register(registry);
    }
    FunctionCounter.builder("stowage.table.retries", counters, Metrics.TableCounters::retries)
        .tags(tags)
        .register(registry);
    Gauge.builder(
            "stowage.table.rate.limit",
            counters,
            c -> c.limiter() == null ? Double.POSITIVE_INFINITY : c.limiter().rate())
        .tags(tags)
        .description("the adaptive rate limiter's rate, requests per second")
        .register(registry);
    Gauge.builder("stowage.compression.ratio", counters, MicrometerMetrics::ratio)
        .tags(tags)
        .description("bytes before compression / bytes as stored, of compressed attributes")
        .register(registry);
  }

  private static double ratio(Metrics.TableCounters c) {
    long after = c.bytesAfterCompression();
    return after == 0 ? Double.NaN : (double) c.bytesBeforeCompression() / after;
  }
}
