package dev.stowage.spi;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import org.junit.jupiter.api.Test;

/** A table reference refuses what a spec refuses, with the same words. */
class TableRefTest {
  @Test
  void anInvalidTableNameSaysTheRuleAsTheSpecDoes() {
    String rule =
        "must be 3 to 40 characters: a lowercase letter, then lowercase letters, digits, '_' or '-'";
    assertThatThrownBy(() -> new TableRef("", "o2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table name 'o2' " + rule);
    assertThatThrownBy(() -> TableSpec.builder("o2", KeySchema.of("id", STRING)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("table name 'o2' " + rule);
  }

  @Test
  void anInvalidNamespaceSaysTheRule() {
    assertThatThrownBy(() -> new TableRef("Prod", "orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace 'Prod' must be empty or 1 to 16 characters");
  }
}
