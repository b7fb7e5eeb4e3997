package dev.stowage.micrometer;

import dev.stowage.Stowage;
import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exports a store's {@linkplain Stowage#usage() usage} to Micrometer (the store needs {@code
 * Stowage.Builder.usageTracking}):
 *
 * <ul>
 *   <li>{@code stowage.hotkey.requests}, {@code stowage.hotkey.bytes} and {@code
 *       stowage.hotkey.throttles}: gauges of the top-K keys of each table and index in the window,
 *       tagged {@code backend}, {@code namespace}, {@code table}, {@code index} ({@code ""} for the
 *       primary key), {@code rank} ({@code 1} to K) and {@code key}. Only the current top K are
 *       registered: when a rank's key changes, the old key's gauge is removed, so each ranking
 *       holds at most K series at a time (bounded tag cardinality, however many keys the table
 *       has);
 *   <li>{@code stowage.capacity.units} (tagged {@code kind=read|write}, {@code namespace}, {@code
 *       table}): DynamoDB-rule capacity units used since tracking started, see {@link TableUsage}.
 * </ul>
 *
 * <p>Rankings are re-read on {@link #refresh()}, which {@link #bind(Stowage, MeterRegistry,
 * java.time.Duration)} calls periodically on a daemon thread until {@link #close()}. Thread-safe.
 */
public final class UsageMeters implements AutoCloseable {
  private static final List<String> DIMENSIONS = List.of("requests", "bytes", "throttles");

  private final Stowage store;
  private final MeterRegistry registry;
  private final ScheduledExecutorService refresher;
  private final Map<String, Gauge> byRank = new HashMap<>();
  private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();
  private final Map<String, TableUsage> usage = new ConcurrentHashMap<>();
  private final Map<String, Integer> ranks = new HashMap<>();

  private UsageMeters(Stowage store, MeterRegistry registry, ScheduledExecutorService refresher) {
    this.store = store;
    this.registry = registry;
    this.refresher = refresher;
  }

  /** Registers the meters once; call {@link #refresh()} to follow the rankings. */
  public static UsageMeters bind(Stowage store, MeterRegistry registry) {
    UsageMeters m =
        new UsageMeters(
            Objects.requireNonNull(store, "store"),
            Objects.requireNonNull(registry, "registry"),
            null);
    m.refresh();
    return m;
  }

  /** Registers the meters and refreshes them every {@code period} until closed. */
  public static UsageMeters bind(Stowage store, MeterRegistry registry, java.time.Duration period) {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stowage-usage-meters");
              t.setDaemon(true);
              return t;
            });
    UsageMeters m = new UsageMeters(store, registry, s);
    m.refresh();
    long every = Math.max(1, period.toMillis());
    s.scheduleWithFixedDelay(m::refreshQuietly, every, every, TimeUnit.MILLISECONDS);
    return m;
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      // The store may be closed; metrics never fail the application.
    }
  }

  /** Re-reads the store's usage and moves the hot-key gauges to the current top K. */
  public synchronized void refresh() {
    UsageSnapshot s = store.usage();
    for (TableUsage t : s.tables()) {
      String id = t.namespace() + "\u0000" + t.table();
      if (usage.put(id, t) == null) {
        Tags tags = Tags.of("backend", s.backend(), "namespace", t.namespace(), "table", t.table());
        FunctionCounter.builder("stowage.capacity.units", usage, u -> u.get(id).readUnits())
            .tags(tags.and("kind", "read"))
            .description("DynamoDB-rule read capacity units used")
            .register(registry);
        FunctionCounter.builder("stowage.capacity.units", usage, u -> u.get(id).writeUnits())
            .tags(tags.and("kind", "write"))
            .description("DynamoDB-rule write capacity units used")
            .register(registry);
      }
    }
    for (HotKeys h : s.hotKeys()) {
      List<List<HotKey>> lists = List.of(h.byRequests(), h.byBytes(), h.byThrottles());
      for (int d = 0; d < DIMENSIONS.size(); d++) {
        List<HotKey> keys = lists.get(d);
        String ranking =
            String.join("\u0000", h.namespace(), h.table(), h.index(), DIMENSIONS.get(d));
        int k = Math.max(keys.size(), ranks.getOrDefault(ranking, 0));
        ranks.put(ranking, keys.size());
        for (int rank = 1; rank <= k; rank++) {
          String slot = ranking + "\u0000" + rank;
          HotKey key = rank <= keys.size() ? keys.get(rank - 1) : null;
          Gauge current = byRank.get(slot);
          if (current != null
              && (key == null || !current.getId().getTag("key").equals(key.key()))) {
            registry.remove(current);
            byRank.remove(slot);
            current = null;
          }
          if (key == null) {
            values.remove(slot);
            continue;
          }
          values.computeIfAbsent(slot, x -> new AtomicLong()).set(key.count());
          if (current == null) {
            byRank.put(
                slot,
                Gauge.builder("stowage.hotkey." + DIMENSIONS.get(d), values, v -> value(v, slot))
                    .tags(
                        Tags.of(
                            "backend", s.backend(),
                            "namespace", h.namespace(),
                            "table", h.table(),
                            "index", h.index(),
                            "rank", String.valueOf(rank),
                            "key", key.key()))
                    .description("estimated " + DIMENSIONS.get(d) + " of a hot key in the window")
                    .register(registry));
          }
        }
      }
    }
  }

  private static double value(Map<String, AtomicLong> values, String slot) {
    AtomicLong v = values.get(slot);
    return v == null ? Double.NaN : v.get();
  }

  /** Series currently registered for hot keys (at most K per ranking). */
  public synchronized int hotKeySeries() {
    return byRank.size();
  }

  /** Stops the periodic refresh, if any. The meters stay registered. */
  @Override
  public void close() {
    if (refresher != null) {
      refresher.shutdownNow();
    }
  }
}
