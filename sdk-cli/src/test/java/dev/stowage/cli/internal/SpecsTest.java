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
}
