package dev.stowage.bench;

import dev.stowage.dynamodb.internal.AttributeMapper;
import dev.stowage.item.Item;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Issue 5: the CPU cost of item translation alone, in-process: Stowage's item to and from
 * DynamoDB's attribute map (the mapping the DynamoDB driver applies on every request) against the
 * Enhanced Client's bean {@link TableSchema} ({@code itemToMap} / {@code mapToItem}), on the same
 * small item ({@link SmallItems}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ItemTranslationBench {
  private static final String TOKEN_ATTRIBUTE = "stowage:tok";

  private final TableSchema<BenchUser> schema = TableSchema.fromBean(BenchUser.class);
  private Item item;
  private BenchUser bean;
  private Map<String, AttributeValue> stored;

  /** Builds the item in each representation. */
  @Setup
  public void setUp() {
    String pk = SmallItems.partition("u", 42);
    item = SmallItems.stowage(pk, 7);
    bean = SmallItems.bean(pk, 7);
    stored = SmallItems.raw(pk, 7);
    if (!AttributeMapper.toNative(item.attributes()).equals(schema.itemToMap(bean, true))
        || !AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE).equals(item)) {
      throw new IllegalStateException("the two translations disagree on the item");
    }
  }

  @Benchmark
  public Map<String, AttributeValue> stowageToNative() {
    return AttributeMapper.toNative(item.attributes());
  }

  @Benchmark
  public Map<String, AttributeValue> enhancedToNative() {
    return schema.itemToMap(bean, true);
  }

  @Benchmark
  public Item stowageFromNative() {
    return AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE);
  }

  @Benchmark
  public BenchUser enhancedFromNative() {
    return schema.mapToItem(stored);
  }
}
