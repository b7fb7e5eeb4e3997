package dev.stowage;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.WriteOptions;
import org.junit.jupiter.api.Test;

/** The string and number shorthands of keys, conditions and queries mean their long forms. */
class ValueShorthandsTest {
  @Test
  void shorthandsBuildTheSameValues() {
    assertThat(Key.of(7)).isEqualTo(Key.of(AttributeValue.of(7)));
    assertThat(Key.of(7, 8)).isEqualTo(Key.of(AttributeValue.of(7), AttributeValue.of(8)));
    assertThat(Key.of(7, "a")).isEqualTo(Key.of(AttributeValue.of(7), AttributeValue.of("a")));
    assertThat(Condition.ne("s", "x")).isEqualTo(Condition.ne("s", AttributeValue.of("x")));
    assertThat(Condition.ne("n", 3)).isEqualTo(Condition.ne("n", AttributeValue.of(3)));
    assertThat(Condition.lt("n", 3)).isEqualTo(Condition.lt("n", AttributeValue.of(3)));
    assertThat(Condition.le("s", "b")).isEqualTo(Condition.le("s", AttributeValue.of("b")));
    assertThat(Condition.gt("n", 3)).isEqualTo(Condition.gt("n", AttributeValue.of(3)));
    assertThat(Condition.ge("s", "b")).isEqualTo(Condition.ge("s", AttributeValue.of("b")));
    assertThat(Query.index("byKind").partition("t", "click").build().partitionValues())
        .containsExactly(AttributeValue.of("t"), AttributeValue.of("click"));
    assertThat(Query.partition(42).build().partitionValues())
        .containsExactly(AttributeValue.of(42));
  }

  @Test
  void aNumberKeyedTableReadsAndWritesThroughThem() {
    try (Stowage store = Stowage.builder(MemoryDriver.create()).build()) {
      Table t =
          store.ensureTable(
              TableSpec.builder("counters", KeySchema.of("shard", NUMBER, "name", STRING)).build());
      t.put(Item.builder().put("shard", 3).put("name", "a").put("n", 1).build());
      t.put(
          Item.builder().put("shard", 3).put("name", "a").put("n", 2).build(),
          WriteOptions.when(Condition.lt("n", 2)));
      assertThat(t.get(Key.of(3, "a")).orElseThrow().getLong("n")).isEqualTo(2);
      assertThatThrownBy(
              () ->
                  t.put(
                      Item.builder().put("shard", 3).put("name", "a").put("n", 3).build(),
                      WriteOptions.when(Condition.ne("n", 2))))
          .isInstanceOf(ConditionFailedException.class);
      assertThat(t.query(Query.partition(3).build()).items()).hasSize(1);
    }
  }
}
