package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.query.ReadOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Opening a table never creates it: {@code Stowage.table} checks that the table exists and agrees
 * with its spec, {@code Stowage.ensureTable} creates it. A spec that disagrees with the existing
 * table fails with the difference spelled out.
 */
abstract class TableLifecycleContracts extends Contract {

  private static TableSpec spec(String name) {
    return TableSpec.builder(
            name, KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .build();
  }

  @Test
  void openingAMissingTableFailsAndCreatesNothing() {
    Stowage fresh = otherStore();
    Throwable e = catchThrowable(() -> fresh.table(spec("typo")));
    assertThat(e).isInstanceOf(NotFoundException.class).hasMessageContaining("typo");
    assertThat(e.getMessage()).contains("ensureTable");
    Throwable again = catchThrowable(() -> fresh.table(spec("typo")));
    assertThat(again)
        .as("the failed open created nothing, so a second open fails the same way")
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void ensureTableCreatesAndOpenThenFindsIt() {
    Stowage s = otherStore();
    Table created = table(s, spec("made"));
    created.put(item("a", 1, "v", "x"));
    Stowage sameNamespace = kit().storeBuilder(s.namespace()).build();
    Table opened = sameNamespace.table(spec("made"));
    assertThat(opened.get(key("a", 1), ReadOptions.CONSISTENT)).contains(item("a", 1, "v", "x"));
  }

  @Test
  void aSpecThatDisagreesWithTheTableSaysHow() {
    Stowage s = otherStore();
    table(s, spec("shape"));
    Stowage reopened = kit().storeBuilder(s.namespace()).build();
    TableSpec otherKeys =
        TableSpec.builder(
                "shape", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.STRING))
            .build();
    Throwable e = catchThrowable(() -> reopened.table(otherKeys));
    assertThat(e).isInstanceOf(InvalidRequestException.class).hasMessageContaining("shape");
    assertThat(e.getMessage()).containsIgnoringCase("s");

    TableSpec withIndex =
        TableSpec.builder(
                "shape", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
            .index("byColour", List.of("colour"), List.of())
            .build();
    Throwable missingIndex = catchThrowable(() -> reopened.table(withIndex));
    assertThat(missingIndex)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("byColour");
  }
}
