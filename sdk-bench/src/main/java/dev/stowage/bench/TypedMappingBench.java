package dev.stowage.bench;

import dev.stowage.dynamodb.internal.AttributeMapper;
import dev.stowage.item.Item;
import dev.stowage.typed.TypedSchema;
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
 * Issue 18: the CPU cost of typed mapping alone, in-process, on the small item ({@link
 * SmallItems}). Against the Enhanced Client's {@code TableSchema.fromImmutableClass} on the very
 * same immutable class ({@link TypedUser}): Stowage's typed mapping plus the DynamoDB driver's item
 * translation, to and from DynamoDB's attribute map. Against hand-written mapping between a record
 * and an {@link Item} ({@link TypedUserRecord}): the typed schema's own cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class TypedMappingBench {
  private static final String TOKEN_ATTRIBUTE = "stowage:tok";

  private final TableSchema<TypedUser> enhanced = TableSchema.fromImmutableClass(TypedUser.class);
  private final TypedSchema<TypedUser> typedImmutable = TypedSchema.of(TypedUser.class);
  private final TypedSchema<TypedUserRecord> typedRecord = TypedSchema.of(TypedUserRecord.class);
  private TypedUser immutable;
  private TypedUserRecord record;
  private Item item;
  private Map<String, AttributeValue> stored;

  /** Builds the item in each representation and checks that every side maps it alike. */
  @Setup
  public void setUp() {
    String pk = SmallItems.partition("u", 42);
    item = SmallItems.stowage(pk, 7);
    record = TypedUserRecord.of(pk, 7);
    immutable = TypedUser.of(record);
    stored = SmallItems.raw(pk, 7);
    if (!typedRecord.toItem(record).equals(item)
        || !typedImmutable.toItem(immutable).equals(item)
        || !record.toItem().equals(item)
        || !typedRecord.fromItem(item).equals(record)
        || !AttributeMapper.toNative(typedImmutable.toItem(immutable).attributes())
            .equals(enhanced.itemToMap(immutable, true))
        || !typedImmutable
            .fromItem(AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE))
            .getEmail()
            .equals(enhanced.mapToItem(stored).getEmail())) {
      throw new IllegalStateException("the mappings disagree on the item");
    }
  }

  // ---- against the Enhanced Client, same immutable class, to and from DynamoDB's map ----

  @Benchmark
  public Map<String, AttributeValue> typedImmutableToNative() {
    return AttributeMapper.toNative(typedImmutable.toItem(immutable).attributes());
  }

  @Benchmark
  public Map<String, AttributeValue> typedRecordToNative() {
    return AttributeMapper.toNative(typedRecord.toItem(record).attributes());
  }

  @Benchmark
  public Map<String, AttributeValue> enhancedImmutableToNative() {
    return enhanced.itemToMap(immutable, true);
  }

  @Benchmark
  public TypedUser typedImmutableFromNative() {
    return typedImmutable.fromItem(AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE));
  }

  @Benchmark
  public TypedUserRecord typedRecordFromNative() {
    return typedRecord.fromItem(AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE));
  }

  @Benchmark
  public TypedUser enhancedImmutableFromNative() {
    return enhanced.mapToItem(stored);
  }

  // ---- against hand-written mapping between a record and an Item ----

  @Benchmark
  public Item typedToItem() {
    return typedRecord.toItem(record);
  }

  @Benchmark
  public Item handToItem() {
    return record.toItem();
  }

  @Benchmark
  public TypedUserRecord typedFromItem() {
    return typedRecord.fromItem(item);
  }

  @Benchmark
  public TypedUserRecord handFromItem() {
    return TypedUserRecord.fromItem(item);
  }
}
