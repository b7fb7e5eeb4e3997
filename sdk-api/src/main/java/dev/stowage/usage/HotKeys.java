package dev.stowage.usage;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The hottest partition keys of one table or index over a sliding window, by requests, by bytes and
 * by throttled requests. Immutable.
 *
 * <p>Counted per key a request touched: a batch of 10 keys counts 10 requests, one per key; a query
 * counts one request on its partition; a write of an item that carries an index's attributes counts
 * on the index's partition too (the index is written with it). Bytes are the items' sizes as the
 * backend's size model counts them. Scans count for no key.
 *
 * <p>Memory is bounded: {@code slices × counters} counters per ranking whatever the key space, so
 * rankings are estimates with an error bound ({@link HotKey}); a key whose weight exceeds the
 * ranking's total divided by {@code counters} is always present.
 *
 * @param namespace the namespace ({@code ""} for the root)
 * @param table the table
 * @param index the index, or {@code ""} for the table's primary key
 * @param window the window's length: it covers the last {@code slices - 1} slices in full and the
 *     current slice so far
 * @param slices the time slices the window is cut into
 * @param counters the counters per slice and ranking
 * @param requests total requests in the window
 * @param bytes total bytes in the window
 * @param throttles total throttled requests in the window
 * @param byRequests the top keys by requests, largest first
 * @param byBytes the top keys by bytes, largest first
 * @param byThrottles the top keys by throttled requests, largest first
 */
public record HotKeys(
    String namespace,
    String table,
    String index,
    Duration window,
    int slices,
    int counters,
    long requests,
    long bytes,
    long throttles,
    List<HotKey> byRequests,
    List<HotKey> byBytes,
    List<HotKey> byThrottles) {

  /** Checks the names and copies the lists. */
  public HotKeys {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(window, "window");
    byRequests = List.copyOf(byRequests);
    byBytes = List.copyOf(byBytes);
    byThrottles = List.copyOf(byThrottles);
  }

  /** True for the primary key's ranking, false for an index's. */
  public boolean isTable() {
    return index.isEmpty();
  }
}
