package dev.stowage.internal.usage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Heavy hitters over a sliding window: the window is cut into {@code buckets} time slices, each a
 * {@link SpaceSaving} summary of {@code counters} counters; a slice older than the window is
 * cleared and reused. Memory is {@code buckets × counters} counters, fixed.
 *
 * <p>A query merges the live slices (the mergeable-summaries rule): a key's count is the sum of its
 * counts in the slices that monitor it plus, for each slice that does not, that slice's floor (the
 * most it can have had there); its error is the sum of its errors plus those floors. So every
 * reported count over-estimates the key's true weight in the window by at most the reported error.
 * The window slides by whole slices: it covers the last {@code buckets - 1} slices in full and the
 * current one so far. Thread-safe (synchronized).
 *
 * @param <K> the key type
 */
final class WindowedTopK<K> {
  /** A merged counter: over-estimate {@code count}, true weight at least {@code count - error}. */
  record Estimate<K>(K key, long count, long error) {}

  private final long sliceMillis;
  private final SpaceSaving<K>[] slices;
  private final long[] sliceStart;

  @SuppressWarnings("unchecked")
  WindowedTopK(int counters, int buckets, long windowMillis) {
    if (buckets < 1 || windowMillis < buckets) {
      throw new IllegalArgumentException("need at least one bucket of at least 1 ms");
    }
    this.sliceMillis = windowMillis / buckets;
    this.slices = new SpaceSaving[buckets];
    this.sliceStart = new long[buckets];
    for (int i = 0; i < buckets; i++) {
      slices[i] = new SpaceSaving<>(counters);
      sliceStart[i] = Long.MIN_VALUE;
    }
  }

  /** Adds {@code weight} to {@code key} at time {@code nowMillis}. */
  synchronized void offer(K key, long weight, long nowMillis) {
    if (weight > 0) {
      slice(nowMillis).offer(key, weight);
    }
  }

  private SpaceSaving<K> slice(long nowMillis) {
    long index = Math.floorDiv(nowMillis, sliceMillis);
    int i = (int) Math.floorMod(index, (long) slices.length);
    long start = index * sliceMillis;
    if (sliceStart[i] != start) {
      slices[i].clear();
      sliceStart[i] = start;
    }
    return slices[i];
  }

  /** Counters allocated across all slices (never more than buckets × counters). */
  synchronized int counters() {
    int n = 0;
    for (SpaceSaving<K> s : slices) {
      n += s.size();
    }
    return n;
  }

  /** The total weight in the window at {@code nowMillis}. */
  synchronized long total(long nowMillis) {
    long t = 0;
    for (SpaceSaving<K> s : live(nowMillis)) {
      t += s.total();
    }
    return t;
  }

  /** The {@code k} largest merged counts in the window at {@code nowMillis}, largest first. */
  synchronized List<Estimate<K>> top(int k, long nowMillis) {
    List<SpaceSaving<K>> live = live(nowMillis);
    Map<K, long[]> merged = new HashMap<>();
    for (SpaceSaving<K> s : live) {
      for (SpaceSaving.Entry<K> e : s.entries()) {
        merged.computeIfAbsent(e.key(), x -> new long[2]);
      }
    }
    for (var m : merged.entrySet()) {
      long[] ce = m.getValue();
      for (SpaceSaving<K> s : live) {
        SpaceSaving.Entry<K> e = s.get(m.getKey());
        if (e != null) {
          ce[0] += e.count();
          ce[1] += e.error();
        } else {
          ce[0] += s.floor();
          ce[1] += s.floor();
        }
      }
    }
    List<Estimate<K>> out = new ArrayList<>(merged.size());
    merged.forEach((key, ce) -> out.add(new Estimate<>(key, ce[0], ce[1])));
    out.sort(
        Comparator.<Estimate<K>>comparingLong(e -> -e.count()).thenComparingLong(e -> e.error()));
    return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
  }

  private List<SpaceSaving<K>> live(long nowMillis) {
    long current = Math.floorDiv(nowMillis, sliceMillis) * sliceMillis;
    long oldest = current - (slices.length - 1) * sliceMillis;
    List<SpaceSaving<K>> live = new ArrayList<>(slices.length);
    for (int i = 0; i < slices.length; i++) {
      if (sliceStart[i] >= oldest && sliceStart[i] <= current) {
        live.add(slices[i]);
      }
    }
    return live;
  }
}
