package dev.stowage.internal;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Condition;
import dev.stowage.query.WriteOptions;
import org.junit.jupiter.api.Test;

/** Conditions in failure messages read as a user would write them. */
class ConditionTextTest {
  @Test
  void everyKindOfConditionReadsAsWritten() {
    Condition c =
        Condition.eq("status", "open")
            .and(Condition.gt("total", AttributeValue.of(10)))
            .and(
                Condition.or(
                    Condition.notExists("shipped"),
                    Condition.not(Condition.beginsWith("code", AttributeValue.of("x")))));
    assertThat(ConditionText.of(c))
        .isEqualTo(
            "(status = \"open\" and total > 10) and (shipped does not exist or not (code begins"
                + " with \"x\"))");
    assertThat(
            ConditionText.of(
                Condition.between("n", AttributeValue.of(1), AttributeValue.of(5))
                    .or(Condition.ne("flag", AttributeValue.of(true)))))
        .isEqualTo("n between 1 and 5 or flag <> true");
    assertThat(ConditionText.of(Condition.contains("tags", AttributeValue.of("a"))))
        .isEqualTo("tags contains \"a\"");
  }

  @Test
  void aFailedConditionalPutNamesItsCondition() {
    try (Stowage store = Stowage.builder(MemoryDriver.create()).build()) {
      Table t = store.ensureTable(TableSpec.builder("orders", KeySchema.of("id", STRING)).build());
      Item paid = Item.builder().put("id", "o1").put("status", "paid").build();
      t.put(paid);
      assertThatThrownBy(() -> t.put(paid, WriteOptions.when(Condition.eq("status", "open"))))
          .isInstanceOf(ConditionFailedException.class)
          .hasMessage("condition failed for Key(\"o1\") in table 'orders': status = \"open\"");
    }
  }
}
