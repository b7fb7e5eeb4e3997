package dev.stowage.bench;

import static dev.stowage.item.AttributeType.STRING;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.usage.UsageTracking;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What usage tracking (per-table counters, capacity units, Space-Saving hot keys of the table and
 * one index) costs a request: put and get of a small item with an index on the memory driver, with
 * tracking ({@code tracked*}) against the same store without ({@code untracked*}, the anchor). The
 * memory driver makes the store's own work the whole cost, so this is the worst case: against a
 * cloud backend the same absolute overhead is a far smaller share. Keys follow a skewed (Zipf 1.1)
 * distribution over 10,000 keys. Target: tracked time at most 1.15 times untracked.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class UsageTrackingBench {
  private static final TableSpec SPEC =
      TableSpec.builder("events", KeySchema.of("id", STRING))
          .index("byRegion", List.of("region"), List.of())
          .build();

  private Stowage tracked;
  private Stowage untracked;
  private Table trackedTable;
  private Table untrackedTable;
  private Item[] items;
  private Key[] keys;
  private int next;

  /** Two stores, one tracking usage, and a skewed key sequence. */
  @Setup
  public void setUp() {
    tracked =
        Stowage.builder(MemoryDriver.create()).usageTracking(UsageTracking.defaults()).build();
    untracked = Stowage.builder(MemoryDriver.create()).build();
    trackedTable = tracked.ensureTable(SPEC);
    untrackedTable = untracked.ensureTable(SPEC);
    int n = 10_000;
    double[] cdf = new double[n];
    double sum = 0;
    for (int r = 0; r < n; r++) {
      sum += 1 / Math.pow(r + 1, 1.1);
      cdf[r] = sum;
    }
    Random random = new Random(1);
    items = new Item[1 << 16];
    keys = new Key[items.length];
    for (int i = 0; i < items.length; i++) {
      int k = java.util.Arrays.binarySearch(cdf, random.nextDouble() * sum);
      String id = "user-" + (k < 0 ? Math.min(n - 1, -k - 1) : k);
      items[i] = Item.builder().put("id", id).put("region", "r" + (i % 7)).put("n", i).build();
      keys[i] = Key.of(id);
    }
    for (Item item : items) {
      trackedTable.put(item);
      untrackedTable.put(item);
    }
  }

  /** Closes both stores. */
  @TearDown
  public void tearDown() {
    tracked.close();
    untracked.close();
  }

  private int next() {
    next = (next + 1) & (items.length - 1);
    return next;
  }

  /** A put with tracking. */
  @Benchmark
  public void trackedPut() {
    trackedTable.put(items[next()]);
  }

  /** The same put without (anchor). */
  @Benchmark
  public void untrackedPut() {
    untrackedTable.put(items[next()]);
  }

  /** A get with tracking. */
  @Benchmark
  public Object trackedGet() {
    return trackedTable.get(keys[next()]);
  }

  /** The same get without (anchor). */
  @Benchmark
  public Object untrackedGet() {
    return untrackedTable.get(keys[next()]);
  }
}
