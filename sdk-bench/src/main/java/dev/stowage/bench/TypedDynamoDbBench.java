package dev.stowage.bench;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.Item;
import dev.stowage.typed.TypedTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 18: a typed get and put ({@link TypedTable} of the record {@link TypedUserRecord}) against
 * the untyped ones ({@link Table} of {@link Item}s, the anchor) on one DynamoDB Local instance over
 * HTTP in this JVM, one table, one store. Target: typed latency at most 1.05 times untyped. Each
 * side builds what it writes from plain values on every call, as an application would: the untyped
 * side an {@link Item}, the typed side a record.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Djmh.shutdownTimeout=1", "-Djmh.shutdownTimeout.step=1"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class TypedDynamoDbBench {
  static final int PARTITIONS = 20;
  static final int PER_PARTITION = 10;

  private DynamoLocal local;
  private Stowage stowage;
  private TypedTable<TypedUserRecord> typed;
  private Table table;
  private int next;

  /** Starts DynamoDB Local, creates the table from the record and loads it. */
  @Setup(Level.Trial)
  public void start() {
    local = DynamoLocal.start();
    stowage = Stowage.builder(DynamoDbDriver.create(local.client())).build();
    typed = stowage.ensureTable(TypedUserRecord.class);
    table = typed.table();
    List<Item> items = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (int s = 0; s < PER_PARTITION; s++) {
        items.add(SmallItems.stowage(SmallItems.partition("u", p), s));
      }
    }
    table.batchPut(items);
    String pk = SmallItems.partition("u", 7);
    if (!typed.get(typed.key(pk, 3L)).orElseThrow().equals(TypedUserRecord.of(pk, 3))
        || !table
            .get(dev.stowage.item.Key.of(pk, 3))
            .orElseThrow()
            .equals(SmallItems.stowage(pk, 3))) {
      throw new IllegalStateException("the typed and untyped sides read different items");
    }
  }

  /** Stops DynamoDB Local. */
  @TearDown(Level.Trial)
  public void stop() {
    local.close();
  }

  private int rotate() {
    return next++ & 0x7fffffff;
  }

  @Benchmark
  public Optional<Item> untypedGet() {
    int i = rotate();
    return table.get(
        dev.stowage.item.Key.of(SmallItems.partition("u", i % PARTITIONS), i % PER_PARTITION));
  }

  @Benchmark
  public Optional<TypedUserRecord> typedGet() {
    int i = rotate();
    return typed.get(
        typed.key(SmallItems.partition("u", i % PARTITIONS), (long) (i % PER_PARTITION)));
  }

  @Benchmark
  public void untypedPut() {
    int i = rotate();
    table.put(SmallItems.stowage(SmallItems.partition("unt", i % PARTITIONS), i % PER_PARTITION));
  }

  @Benchmark
  public void typedPut() {
    int i = rotate();
    long sk = i % PER_PARTITION;
    String pk = SmallItems.partition("typ", i % PARTITIONS);
    typed.put(TypedUserRecord.direct(pk, sk));
  }
}
