package dev.stowage.dynamodb.internal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/** Accumulates the capacity units DynamoDB reports per physical table. Thread-safe. */
public final class CapacityMeter {
  private final Map<String, DoubleAdder[]> perTable = new ConcurrentHashMap<>();

  /** Records what a read ({@code write=false}) or write call consumed. */
  public void record(ConsumedCapacity c, boolean write) {
    if (c == null || c.tableName() == null || c.capacityUnits() == null) {
      return;
    }
    DoubleAdder[] a =
        perTable.computeIfAbsent(
            c.tableName(), t -> new DoubleAdder[] {new DoubleAdder(), new DoubleAdder()});
    a[write ? 1 : 0].add(c.capacityUnits());
  }

  /** Records several entries (batch and transaction calls report one per table). */
  public void recordAll(List<ConsumedCapacity> cs, boolean write) {
    if (cs != null) {
      cs.forEach(c -> record(c, write));
    }
  }

  /** Read and write units consumed so far on a physical table: {@code [read, write]}. */
  public double[] of(String table) {
    DoubleAdder[] a = perTable.get(table);
    return a == null ? new double[2] : new double[] {a[0].sum(), a[1].sum()};
  }

  /** All tables seen so far, by physical name. */
  public Map<String, double[]> all() {
    Map<String, double[]> out = new TreeMap<>();
    perTable.forEach((t, a) -> out.put(t, new double[] {a[0].sum(), a[1].sum()}));
    return out;
  }
}
