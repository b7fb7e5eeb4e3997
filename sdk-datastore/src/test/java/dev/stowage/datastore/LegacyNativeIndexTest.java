package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import dev.stowage.test.DatastoreEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The native index contract on the legacy Datastore emulator started with {@code --require_indexes}
 * and the index.yaml {@link DatastoreIndexes} generates for the table: every query a native index
 * needs is in the file.
 */
class LegacyNativeIndexTest extends NativeIndexContract {
  private final Path yaml;
  private final DatastoreEmulator emulator;

  LegacyNativeIndexTest() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "legacy-native-emulator"));
    yaml = dir.resolve("index.yaml");
    DatastoreIndexes.write(yaml, List.of(layout("")));
    emulator = DatastoreEmulator.startRequiringIndexes(yaml);
  }

  @Override
  Datastore client() {
    return emulator.client();
  }

  @Override
  String namespace() {
    return "";
  }

  @Override
  void stop() {
    emulator.close();
  }

  @Test
  void theFileListsTheNativeIndexesOverTheirOwnProperties() throws Exception {
    String text = Files.readString(yaml);
    assertThat(text)
        .contains(
            "- kind: \"nativeorders\"\n  properties:\n  - name: \"status\"\n  - name: \"created\"\n")
        .contains(
            "  - name: \"status\"\n  - name: \"created\"\n    direction: desc\n"
                + "  - name: \"__key__\"\n    direction: desc\n")
        .contains("  - name: \"tag\"\n  - name: \"__key__\"\n    direction: desc\n")
        .doesNotContain("stowage:ix:byStatus");
  }
}
