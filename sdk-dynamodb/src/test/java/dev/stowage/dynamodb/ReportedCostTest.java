package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.cost.CostEstimate;
import dev.stowage.cost.CostEstimator;
import dev.stowage.cost.PriceTable;
import dev.stowage.cost.TablePricing;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.Emulators;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import dev.stowage.usage.UsageTracking;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cost of a table on DynamoDB Local from the consumed capacity DynamoDB itself returned. */
class ReportedCostTest {
  @Test
  void theCostPricesDynamoDbsConsumedCapacity() {
    try (Stowage store =
        Stowage.builder(DynamoDbDriver.create(Emulators.shared().dynamoDb().client()))
            .namespace(Emulators.shared().newNamespace())
            .usageTracking(UsageTracking.defaults())
            .build()) {
      Table t =
          store.ensureTable(
              TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
                  .index("byStatus", List.of("status"), List.of())
                  .build());
      String body = "x".repeat(3000);
      for (int i = 0; i < 4; i++) {
        t.put(Item.builder().put("id", "o" + i).put("status", "new").put("body", body).build());
      }
      t.get(Key.of("o0"));
      t.delete(Key.of("o3"));

      UsageSnapshot s = store.usage();
      TableUsage u = s.table(store.namespace(), "orders").orElseThrow();
      assertThat(u.hasReportedUnits()).isTrue();
      // Four 3 KB puts, each also written to the index: at least 3 + 3 units apiece, as DynamoDB
      // counted them; the delete's units are kept apart (billed at the write price).
      assertThat(u.reportedWriteUnits()).isGreaterThanOrEqualTo(4 * 6);
      assertThat(u.reportedDeleteUnits()).isGreaterThanOrEqualTo(1);
      assertThat(u.reportedReadUnits()).isGreaterThan(0);
      // Only the table-as-a-whole units count: the index breakdown is part of them, not added.
      StowageMetrics.CapacityMetrics whole =
          store.metrics().table(store.namespace(), "orders").orElseThrow().totalCapacity();
      assertThat(u.reportedWriteUnits() + u.reportedDeleteUnits())
          .isCloseTo(whole.writeUnits() + whole.deleteUnits(), within(1e-9));
      assertThat(u.reportedReadUnits()).isCloseTo(whole.readUnits(), within(1e-9));

      PriceTable prices = PriceTable.defaults();
      CostEstimate e = new CostEstimator(prices, TablePricing.DYNAMODB_ON_DEMAND).estimate(s);
      CostEstimate.TableCost c =
          e.tables().stream().filter(x -> x.table().equals("orders")).findFirst().orElseThrow();
      assertThat(c.basis()).isEqualTo(CostEstimate.Basis.REPORTED);
      assertThat(c.requests())
          .isCloseTo(
              (u.reportedWriteUnits() + u.reportedDeleteUnits())
                      * prices.price("dynamodb.on-demand.write-request-unit")
                  + u.reportedReadUnits() * prices.price("dynamodb.on-demand.read-request-unit"),
              within(1e-15));
      // Priced as Datastore, DynamoDB's units do not apply: Stowage's estimate does.
      CostEstimate datastore = new CostEstimator(prices, TablePricing.DATASTORE).estimate(s);
      assertThat(datastore.tables().get(0).basis()).isEqualTo(CostEstimate.Basis.ESTIMATED);
    }
  }
}
