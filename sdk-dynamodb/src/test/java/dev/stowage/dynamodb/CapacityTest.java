package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacityTest extends DriverTestBase {
  @Test
  void consumedCapacityAccumulatesPerTable() {
    DynamoDbDriver own =
        DynamoDbDriver.builder()
            .client(Emulators.shared().dynamoDb().client())
            .countConsumedCapacity(true)
            .build();
    TableLayout t = Fixtures.layout("", Fixtures.uniqueName("cap"), null);
    own.ensureTable(t);
    assertThat(own.consumedCapacity(t.ref())).isEqualTo(CapacityUsage.NONE);
    own.put(t, Fixtures.item("k", Map.of("v", AttributeValue.of("x"))), Expectation.ANY, false);
    CapacityUsage afterWrite = own.consumedCapacity(t.ref());
    assertThat(afterWrite.writeUnits()).isGreaterThan(0);
    own.get(t, Key.of("k"), true);
    own.query(
        t, new DriverQuery(null, AttributeValue.of("k"), KeyRange.ALL, false, 5, null, false));
    CapacityUsage after = own.consumedCapacity(t.ref());
    assertThat(after.readUnits()).isGreaterThan(0);
    assertThat(after.totalUnits()).isEqualTo(after.readUnits() + after.writeUnits());
    assertThat(own.consumedCapacity()).containsKey(t.ref().table());
  }
}
