package dev.stowage.beam;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.beam.internal.SpecSnapshot;
import java.util.List;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.jupiter.api.Test;

/** Table specs travel with a pipeline to its workers unchanged. */
class SpecSnapshotTest {
  @Test
  void everySpecPropertySurvivesSerialisation() {
    TableSpec adopted =
        TableSpec.builder("orders", KeySchema.of("pk", STRING, "sk", NUMBER))
            .index("byDay", List.of("day", "shop"), List.of("at"))
            .index(
                new IndexSpec(
                    "keysOnly", List.of("kind"), List.of(), IndexSpec.Projection.KEYS_ONLY))
            .nativeIndex("gsi", "GSI_1", KeySchema.of("g", STRING, "h", NUMBER))
            .compressed("memo")
            .encrypted("card")
            .compressed("card")
            .versionAttribute("v")
            .idempotencyWindow(7)
            .adopt("Orders-Legacy")
            .descendingQueries()
            .overflowAbove(64 * 1024)
            .build();
    for (TableSpec spec : List.of(adopted, Ledger.SPEC)) {
      SpecSnapshot copy = SerializableUtils.clone(SpecSnapshot.of(spec));
      assertThat(copy.spec()).isEqualTo(spec);
    }
  }
}
