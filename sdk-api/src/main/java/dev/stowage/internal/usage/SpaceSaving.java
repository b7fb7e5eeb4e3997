package dev.stowage.internal.usage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The Space-Saving heavy-hitters summary (Metwally, Agrawal, El Abbadi, 2005), weighted: a fixed
 * number of counters, each monitoring one key. A monitored key's counter grows by each weight; an
 * unmonitored key replaces the smallest counter and inherits its count as its error.
 *
 * <p>Guarantees, for a stream of total weight {@code N} over {@code m} counters: every counter
 * over-estimates its key's true weight by at most its {@code error}, and {@code error <= N / m};
 * every key whose true weight exceeds {@code N / m} is monitored. Memory: at most {@code m}
 * counters, whatever the stream. Not thread-safe.
 *
 * @param <K> the key type (equals and hashCode must identify keys)
 */
final class SpaceSaving<K> {
  /** One counter: an over-estimate of its key's weight and the most it over-estimates by. */
  record Entry<K>(K key, long count, long error) {}

  private static final class Counter<K> {
    final K key;
    long count;
    long error;
    long seq;

    Counter(K key) {
      this.key = key;
    }
  }

  private static final Comparator<Counter<?>> ORDER =
      Comparator.<Counter<?>>comparingLong(c -> c.count).thenComparingLong(c -> c.seq);

  private final int capacity;
  private final Map<K, Counter<K>> byKey;
  private final TreeSet<Counter<K>> byCount = new TreeSet<>(ORDER);
  private long total;
  private long seq;

  SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.capacity = capacity;
    this.byKey = new HashMap<>(capacity * 2);
  }

  /** Adds {@code weight} (at least 1) to {@code key}. */
  void offer(K key, long weight) {
    if (weight <= 0) {
      return;
    }
    total += weight;
    Counter<K> c = byKey.get(key);
    if (c != null) {
      byCount.remove(c);
    } else if (byKey.size() < capacity) {
      c = new Counter<>(key);
      byKey.put(key, c);
    } else {
      Counter<K> min = byCount.pollFirst();
      byKey.remove(min.key);
      c = new Counter<>(key);
      c.count = min.count;
      c.error = min.count;
      byKey.put(key, c);
    }
    c.count += weight;
    c.seq = seq++;
    byCount.add(c);
  }

  /** The total weight offered. */
  long total() {
    return total;
  }

  /** Counters in use, at most the capacity. */
  int size() {
    return byKey.size();
  }

  int capacity() {
    return capacity;
  }

  /**
   * The smallest count, which bounds the true weight of every unmonitored key; 0 while a counter is
   * free (then every key seen is monitored exactly).
   */
  long floor() {
    return byKey.size() < capacity || byCount.isEmpty() ? 0 : byCount.first().count;
  }

  /** The count of {@code key}, or null if it is not monitored. */
  Entry<K> get(K key) {
    Counter<K> c = byKey.get(key);
    return c == null ? null : new Entry<>(c.key, c.count, c.error);
  }

  /** Every counter, largest count first. */
  List<Entry<K>> entries() {
    List<Entry<K>> out = new ArrayList<>(byKey.size());
    for (Counter<K> c : byCount.descendingSet()) {
      out.add(new Entry<>(c.key, c.count, c.error));
    }
    return out;
  }

  /** Forgets everything. */
  void clear() {
    byKey.clear();
    byCount.clear();
    total = 0;
  }
}
