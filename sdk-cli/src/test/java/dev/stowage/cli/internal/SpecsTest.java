package dev.stowage.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.TableSpec;
import dev.stowage.console.internal.json.Json;
import org.junit.jupiter.api.Test;

class SpecsTest {
  private static TableSpec spec(String json) {
    return Specs.fromJson(Json.parse(json), null);
  }

  @Test
  void descendingQueriesIsReadFromTheSpecFileAndKeptByDerive() {
    TableSpec declared =
        spec("{\"name\":\"feed\",\"key\":\"p:S\",\"sort\":\"n:N\",\"descendingQueries\":true}");
    assertThat(declared.descendingQueries()).isTrue();
    assertThat(Specs.derive(declared, "copy", null).descendingQueries()).isTrue();
    assertThat(spec("{\"name\":\"feed\",\"key\":\"p:S\",\"sort\":\"n:N\"}").descendingQueries())
        .isFalse();
    assertThat(
            spec("{\"name\":\"feed\",\"key\":\"p:S\",\"descendingQueries\":false}")
                .descendingQueries())
        .isFalse();
    assertThatThrownBy(() -> spec("{\"name\":\"feed\",\"key\":\"p:S\",\"descendingQueries\":1}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("descendingQueries");
  }

  @Test
  void overflowAboveIsReadFromTheSpecFileAndKeptByDerive() {
    TableSpec declared =
        spec(
            "{\"name\":\"docs\",\"key\":\"id:S\",\"compressed\":[\"body\"],"
                + "\"overflowAbove\":65536}");
    TableSpec expected =
        TableSpec.builder(
                "docs", dev.stowage.KeySchema.of("id", dev.stowage.item.AttributeType.STRING))
            .compressed("body")
            .overflowAbove(65536)
            .build();
    assertThat(declared).isEqualTo(expected);
    assertThat(declared.overflowThreshold()).hasValue(65536);
    TableSpec derived = Specs.derive(declared, "docs-copy", null);
    assertThat(derived.overflowThreshold()).hasValue(65536);
    assertThat(Specs.derive(derived, "docs", null)).isEqualTo(expected);
    assertThat(spec("{\"name\":\"docs\",\"key\":\"id:S\"}").overflowThreshold()).isEmpty();
    assertThatThrownBy(() -> spec("{\"name\":\"docs\",\"key\":\"id:S\",\"overflowAbove\":\"64k\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overflowAbove");
    assertThatThrownBy(() -> spec("{\"name\":\"docs\",\"key\":\"id:S\",\"overflowAbove\":100}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1024");
  }
}
