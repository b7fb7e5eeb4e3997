package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.Stowage;
import dev.stowage.memory.MemoryDriver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A class that cannot be mapped fails when its table is opened, naming the class and field. */
class MappingErrorsTest {
  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();

  record NoKey(String name) {}

  record ObjectField(@PartitionKey String id, Object anything) {}

  record RawList(@PartitionKey String id, @SuppressWarnings("rawtypes") List items) {}

  record EncryptedKey(@PartitionKey @Encrypted String id) {}

  record CompressedSort(@PartitionKey String id, @SortKey @Compressed String at) {}

  record ListKey(@PartitionKey List<String> id) {}

  record EncryptedIndex(@PartitionKey String id, @Indexed(name = "byX") @Encrypted String x) {}

  record MapIndex(@PartitionKey String id, @Indexed(name = "byX") Map<String, String> x) {}

  record TwoKeys(@PartitionKey String a, @PartitionKey String b) {}

  record TextVersion(@PartitionKey String id, @Version String version) {}

  record Clash(@PartitionKey String id, @Attribute("id") String other) {}

  record IntMapKeys(@PartitionKey String id, Map<Integer, String> m) {}

  record Nested(@PartitionKey String id, Inner inner) {}

  record Inner(Object bad) {}

  @StowageTable("Bad Name")
  record BadName(@PartitionKey String id) {}

  @Test
  void everyUnmappableClassNamesItsClassAndField() {
    expect(NoKey.class, "no field is marked @PartitionKey");
    expect(ObjectField.class, "field 'anything'", "unsupported type java.lang.Object");
    expect(RawList.class, "field 'items'", "needs type arguments");
    expect(EncryptedKey.class, "field 'id'", "cannot be @Encrypted");
    expect(CompressedSort.class, "field 'at'", "cannot be @Compressed");
    expect(ListKey.class, "field 'id'", "string, number or binary");
    expect(EncryptedIndex.class, "field 'x'", "compressed or encrypted");
    expect(MapIndex.class, "field 'x'", "index 'byX'");
    expect(TwoKeys.class, "field 'b'", "a second @PartitionKey");
    expect(TextVersion.class, "field 'version'", "@Version must be");
    expect(Clash.class, "field 'other'", "attribute 'id'");
    expect(IntMapKeys.class, "field 'm'", "map keys must be strings");
    expect(Nested.class, "field 'bad'", "Inner", "unsupported type java.lang.Object");
    expect(BadName.class, "Bad Name");
  }

  private void expect(Class<?> type, String... parts) {
    assertThatThrownBy(() -> store.ensureTable(type))
        .as(type.getSimpleName())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(type.getName().contains("Inner") ? "" : type.getSimpleName())
        .satisfies(e -> assertThat(e.getMessage()).contains(parts));
  }
}
