package dev.stowage.bench;

import dev.stowage.item.Item;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 4: put and then get of an item whose binary body is 1 MB or 10 MB (far over the in-memory
 * driver's DynamoDB-like 400 KB limit) through Stowage ({@code stowage}: the body spills to the
 * blob store with its SHA-256 digest and a pointer in the item, and comes back verified) against
 * the same bytes written by hand ({@code byHand}, see {@link OverflowSides#byHand}) on the same
 * kind of stores ({@link dev.stowage.memory.MemoryDriver}, {@link
 * dev.stowage.overflow.MemoryBlobStore}). Target: Stowage at most 1.2 times the hand-written cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class OverflowBench {
  @Param({"1048576", "10485760"})
  public int size;

  private OverflowSides.Side stowage;
  private OverflowSides.Side byHand;
  private OverflowSides.Side byHandSha256;
  private Item item;

  /** Creates both sides' stores and the item, and checks both round trips. */
  @Setup
  public void setUp() {
    stowage = OverflowSides.stowage();
    byHand = OverflowSides.byHand();
    byHandSha256 = OverflowSides.byHand(true);
    item = OverflowSides.document("doc-1", Payloads.filled(size));
    if (!stowage().equals(item) || !byHand().equals(item) || !byHandSha256().equals(item)) {
      throw new IllegalStateException("round trip changed the item");
    }
    if (stowage.blobCount() != 1 || byHand.blobCount() != 1) {
      throw new IllegalStateException("the body did not go to the blob store on both sides");
    }
  }

  @Benchmark
  public Item stowage() {
    stowage.put(item);
    return stowage.get("doc-1");
  }

  @Benchmark
  public Item byHand() {
    byHand.put(item);
    return byHand.get("doc-1");
  }

  @Benchmark
  public Item byHandSha256() {
    byHandSha256.put(item);
    return byHandSha256.get("doc-1");
  }
}
