package dev.stowage.datastore;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Shares one Firestore emulator (Datastore mode) per JVM and one driver per test class. */
abstract class DriverTestBase {
  private static final AtomicInteger TABLES = new AtomicInteger();
  static DatastoreDriver driver;

  @BeforeAll
  static void startDriver() {
    driver = DatastoreDriver.of(Emulators.shared().datastore().client());
  }

  @AfterAll
  static void closeDriver() {
    driver.close();
  }

  /** A fresh table with a string partition key, the given sort key type, and the given indexes. */
  static TableLayout table(String namespace, AttributeType sortType, String... indexNames) {
    KeySchema schema =
        sortType == null
            ? KeySchema.of("pk", AttributeType.STRING)
            : KeySchema.of("pk", AttributeType.STRING, "sk", sortType);
    List<IndexLayout> indexes =
        java.util.Arrays.stream(indexNames)
            .map(n -> IndexLayout.of(IndexSpec.of(n, List.of("g"), List.of("v"))))
            .toList();
    TableLayout layout =
        new TableLayout(
            new TableRef(namespace, "t" + TABLES.incrementAndGet() + "-x"), schema, indexes);
    driver.ensureTable(layout);
    return layout;
  }
}
