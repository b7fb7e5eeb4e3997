package dev.stowage.internal.usage;

import dev.stowage.RequestListener;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.TableRef;
import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import dev.stowage.usage.UsageTracking;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Collects a store's usage per table and its hot keys per table and index; {@link UsageDriver}
 * feeds it the driver's requests and, as a {@link RequestListener}, it hears the blob store's.
 * Thread-safe.
 */
public final class UsageRecorder implements RequestListener {
  private final UsageTracking config;
  private final Clock clock;
  private final String backend;
  private final Instant since;
  private final Map<TableRef, Counters> tables = new ConcurrentHashMap<>();
  private final Map<RankingId, Rankings> rankings = new ConcurrentHashMap<>();

  public UsageRecorder(UsageTracking config, Clock clock, String backend) {
    this.config = config;
    this.clock = clock;
    this.backend = backend;
    this.since = clock.instant();
  }

  /** The configuration. */
  public UsageTracking config() {
    return config;
  }

  Counters table(TableRef t) {
    return tables.computeIfAbsent(t, x -> new Counters());
  }

  /**
   * Adds billable units the backend reported for a request on {@code t} as a whole (index "");
   * index breakdowns are already in the whole and are not added again.
   */
  void reported(TableRef t, String index, double read, double write, double delete) {
    if (!index.isEmpty()) {
      return;
    }
    Counters c = table(t);
    c.reportedRead.add(read);
    c.reportedWrite.add(write);
    c.reportedDelete.add(delete);
  }

  /** Adds capacity units asked for (consumed or throttled) to the table's per-minute demand. */
  void demand(TableRef t, long writeUnits, long halfReadUnits) {
    table(t).demand.add(clock.millis(), writeUnits, halfReadUnits);
  }

  /**
   * Counts one touch of a partition key.
   *
   * @param index the index name, or "" for the primary key
   * @param synthesized true if {@code key} is the binary value of an index Stowage maintains
   */
  void touch(
      TableRef t, String index, KeyValue key, boolean synthesized, long bytes, boolean throttled) {
    Rankings r =
        rankings.computeIfAbsent(new RankingId(t, index), x -> new Rankings(config, synthesized));
    KeyValue k = KeyText.normalise(key);
    long now = clock.millis();
    r.requests.offer(k, 1, now);
    r.bytes.offer(k, bytes, now);
    if (throttled) {
      r.throttles.offer(k, 1, now);
    }
  }

  /** Blob requests, attributed to their table by the blob key layout. */
  @Override
  public void onRequest(Request r) {
    if (r.target() != Target.BLOB || r.table().isEmpty()) {
      return;
    }
    Counters c = table(new TableRef(r.namespace(), r.table()));
    if (r.outcome() == Outcome.THROTTLED) {
      c.throttled.increment();
    }
    switch (r.operation()) {
      case "put" -> {
        c.blobPuts.increment();
        c.blobBytesWritten.add(r.bytesWritten());
      }
      case "open" -> {
        c.blobGets.increment();
        c.blobBytesRead.add(r.bytesRead());
      }
      default -> c.blobOther.increment();
    }
  }

  /** The usage so far and the rankings now. */
  public UsageSnapshot snapshot() {
    long now = clock.millis();
    List<TableUsage> usage = new ArrayList<>();
    tables.forEach((t, c) -> usage.add(c.usage(t, now)));
    List<HotKeys> hot = new ArrayList<>();
    rankings.forEach((id, r) -> hot.add(r.snapshot(id, config, now)));
    return new UsageSnapshot(backend, since, Instant.ofEpochMilli(now), usage, hot);
  }

  /** The counters allocated by every ranking (for the memory bound). */
  public int counters() {
    int n = 0;
    for (Rankings r : rankings.values()) {
      n += r.requests.counters() + r.bytes.counters() + r.throttles.counters();
    }
    return n;
  }

  /** The rankings allocated (one per table and index used). */
  public int rankings() {
    return rankings.size();
  }

  private record RankingId(TableRef table, String index) {}

  private static final class Rankings {
    final boolean synthesized;
    final WindowedTopK<KeyValue> requests;
    final WindowedTopK<KeyValue> bytes;
    final WindowedTopK<KeyValue> throttles;

    Rankings(UsageTracking c, boolean synthesized) {
      this.synthesized = synthesized;
      long w = c.window().toMillis();
      this.requests = new WindowedTopK<>(c.counters(), c.slices(), w);
      this.bytes = new WindowedTopK<>(c.counters(), c.slices(), w);
      this.throttles = new WindowedTopK<>(c.counters(), c.slices(), w);
    }

    HotKeys snapshot(RankingId id, UsageTracking c, long now) {
      return new HotKeys(
          id.table().namespace(),
          id.table().table(),
          id.index(),
          c.window(),
          c.slices(),
          c.counters(),
          requests.total(now),
          bytes.total(now),
          throttles.total(now),
          keys(requests, c.topK(), now),
          keys(bytes, c.topK(), now),
          keys(throttles, c.topK(), now));
    }

    private List<HotKey> keys(WindowedTopK<KeyValue> w, int k, long now) {
      List<HotKey> out = new ArrayList<>();
      for (WindowedTopK.Estimate<KeyValue> e : w.top(k, now)) {
        out.add(new HotKey(KeyText.of(e.key(), synthesized), e.count(), e.error()));
      }
      return out;
    }
  }

  /** One table's counters. */
  static final class Counters {
    final LongAdder reads = new LongAdder();
    final LongAdder writes = new LongAdder();
    final LongAdder queries = new LongAdder();
    final LongAdder scans = new LongAdder();
    final LongAdder emptyPages = new LongAdder();
    final LongAdder itemsRead = new LongAdder();
    final LongAdder itemsWritten = new LongAdder();
    final LongAdder itemsDeleted = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder bytesWritten = new LongAdder();
    final LongAdder halfReadUnits = new LongAdder();
    final LongAdder writeUnits = new LongAdder();
    final LongAdder throttled = new LongAdder();
    final LongAdder blobPuts = new LongAdder();
    final LongAdder blobBytesWritten = new LongAdder();
    final LongAdder blobGets = new LongAdder();
    final LongAdder blobBytesRead = new LongAdder();
    final LongAdder blobOther = new LongAdder();
    final DemandMeter demand = new DemandMeter();
    final java.util.concurrent.atomic.DoubleAdder reportedRead =
        new java.util.concurrent.atomic.DoubleAdder();
    final java.util.concurrent.atomic.DoubleAdder reportedWrite =
        new java.util.concurrent.atomic.DoubleAdder();
    final java.util.concurrent.atomic.DoubleAdder reportedDelete =
        new java.util.concurrent.atomic.DoubleAdder();

    TableUsage usage(TableRef t, long now) {
      return new TableUsage(
          t.namespace(),
          t.table(),
          reads.sum(),
          writes.sum(),
          queries.sum(),
          scans.sum(),
          emptyPages.sum(),
          itemsRead.sum(),
          itemsWritten.sum(),
          itemsDeleted.sum(),
          bytesRead.sum(),
          bytesWritten.sum(),
          halfReadUnits.sum() / 2.0,
          writeUnits.sum(),
          throttled.sum(),
          blobPuts.sum(),
          blobBytesWritten.sum(),
          blobGets.sum(),
          blobBytesRead.sum(),
          blobOther.sum(),
          demand.peakReadsPerSecond(now),
          demand.peakWritesPerSecond(now),
          reportedRead.sum(),
          reportedWrite.sum(),
          reportedDelete.sum());
    }
  }
}
