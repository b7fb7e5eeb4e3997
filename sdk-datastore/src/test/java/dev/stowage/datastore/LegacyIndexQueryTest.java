package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.StowageException;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.KeyRange;
import dev.stowage.test.DatastoreEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The query contract on the legacy Datastore emulator started with {@code --require_indexes} and
 * the file {@link DatastoreIndexes#yaml} generates: any query shape the file misses fails here.
 */
class LegacyIndexQueryTest extends IndexQueryContract {
  private final DatastoreEmulator emulator;
  private final DatastoreDriver driver;

  LegacyIndexQueryTest() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "legacy-emulator"));
    Path yaml = dir.resolve("index.yaml");
    DatastoreIndexes.write(yaml, layouts(""));
    emulator = DatastoreEmulator.startRequiringIndexes(yaml);
    driver = DatastoreDriver.of(emulator.client());
  }

  @Override
  DatastoreDriver driver() {
    return driver;
  }

  @AfterAll
  void stopEmulator() {
    driver.close();
    emulator.close();
  }

  @Test
  void anUndeclaredIndexIsRefused() {
    // Proves the emulator enforces index definitions: a table left out of the file fails.
    var undeclared =
        new dev.stowage.spi.TableLayout(
            new dev.stowage.spi.TableRef("", "undeclared"),
            layouts("").get(0).keySchema(),
            List.of(BY_GROUP));
    driver.ensureTable(undeclared);
    assertThatThrownBy(
            () ->
                driver.query(
                    undeclared,
                    new DriverQuery(
                        BY_GROUP.name(), (KeyValue) bin(1), KeyRange.ALL, true, 5, null, true)))
        .isInstanceOf(StowageException.class)
        .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase("index"));
  }
}
