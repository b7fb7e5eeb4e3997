package dev.stowage.dynamodb.internal;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the driver learned about the native indexes of each physical table when it opened the table:
 * whether each is a local secondary index (LSIs can be read strongly consistently, GSIs cannot) and
 * whether it projects every attribute (otherwise queries read whole items by key). Thread-safe.
 */
public final class NativeIndexes {
  /**
   * One native index as the table describes it.
   *
   * @param local true for a local secondary index, false for a global one
   * @param projectsAll true if the index projects ALL attributes
   */
  public record Info(boolean local, boolean projectsAll) {}

  private final Map<String, Map<String, Info>> byTable = new ConcurrentHashMap<>();

  /** Records the native indexes (by Stowage index name) of a table just verified. */
  void record(String physical, Map<String, Info> indexes) {
    byTable.put(physical, Map.copyOf(indexes));
  }

  /** What is known about index {@code index} of table {@code physical}. */
  public Optional<Info> info(String physical, String index) {
    Map<String, Info> t = byTable.get(physical);
    return t == null ? Optional.empty() : Optional.ofNullable(t.get(index));
  }

  /** Forgets a dropped table. */
  void forget(String physical) {
    byTable.remove(physical);
  }
}
