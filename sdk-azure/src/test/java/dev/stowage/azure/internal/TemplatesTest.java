package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplatesTest {
  static final KeySchema SCHEMA =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);
  static final OffsetDateTime WHEN = OffsetDateTime.of(2026, 11, 24, 8, 0, 0, 0, ZoneOffset.UTC);

  @Test
  void anEntityStowageWroteHasNoTemplateThoughEveryEntityReadHasATimestamp() {
    Map<String, Object> read =
        Map.of(
            "PartitionKey", "kx",
            "RowKey", "k1",
            "Timestamp", WHEN,
            "odata.etag", "W/\"1\"",
            "memo", "text",
            "count", 42L);
    assertThat(Templates.template(SCHEMA, read)).isNull();
  }

  @Test
  void nativeTypesAndKeyCopiesAreKeptWithoutTheTimestamp() {
    Map<String, Object> read =
        Map.of(
            "Timestamp",
            WHEN,
            "small",
            7,
            "ratio",
            0.5,
            "when",
            WHEN,
            "pk",
            "copy of the key",
            "memo",
            "text");
    assertThat(Templates.template(SCHEMA, read))
        .containsOnlyKeys("small", "ratio", "when", "pk")
        .containsEntry("when", WHEN);
  }
}
