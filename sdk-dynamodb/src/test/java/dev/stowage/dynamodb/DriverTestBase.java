package dev.stowage.dynamodb;

import dev.stowage.item.AttributeType;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import org.junit.jupiter.api.BeforeAll;

/** Shares one driver on the JVM's DynamoDB Local across a test class. */
abstract class DriverTestBase {
  static DynamoDbDriver driver;

  @BeforeAll
  static void startDriver() {
    driver = DynamoDbDriver.create(Emulators.shared().dynamoDb().client());
  }

  /** Creates a fresh table in the root namespace. */
  static TableLayout newTable(AttributeType sortType, IndexLayout... indexes) {
    TableLayout l = Fixtures.layout("", Fixtures.uniqueName("t"), sortType, indexes);
    driver.ensureTable(l);
    return l;
  }
}
