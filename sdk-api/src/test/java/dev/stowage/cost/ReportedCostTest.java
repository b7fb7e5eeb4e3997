package dev.stowage.cost;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import dev.stowage.usage.UsageTracking;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Costs from the units the backend reported, against Stowage's estimate. */
class ReportedCostTest {
  private final PriceTable prices = PriceTable.defaults();

  /**
   * One hour of 1,000 reads and 1,000 writes (estimated 500 read and 1,000 write units), 200 items
   * deleted, with the given reported units.
   */
  private static TableUsage usage(double read, double write, double delete) {
    return new TableUsage(
        "", "t", 1_000, 1_200, 0, 0, 0, 1_000, 1_000, 200, 0, 0, 500, 1_200, 0, 0, 0, 0, 0, 0, 0, 0,
        read, write, delete);
  }

  private static UsageSnapshot hourOn(String backend, TableUsage u) {
    Instant since = Instant.parse("2025-01-01T00:00:00Z");
    return new UsageSnapshot(backend, since, since.plusSeconds(3600), List.of(u), List.of());
  }

  @Test
  void dynamoDbPricesTheReportedUnitsWithDeletesAtTheWritePrice() {
    // DynamoDB reported 3 write units a put (3 KB items), 2 a delete, 1 read unit a read.
    TableUsage u = usage(1_000, 3_000, 400);
    var e =
        new CostEstimator(prices, TablePricing.DYNAMODB_ON_DEMAND).estimate(hourOn("dynamodb", u));
    CostEstimate.TableCost t = e.tables().get(0);
    assertThat(t.basis()).isEqualTo(CostEstimate.Basis.REPORTED);
    assertThat(t.requests()).isCloseTo(3_400 * 0.625e-6 + 1_000 * 0.125e-6, within(1e-12));
    var provisioned =
        new CostEstimator(prices, TablePricing.DYNAMODB_PROVISIONED)
            .estimate(hourOn("dynamodb", u));
    assertThat(provisioned.tables().get(0).requests())
        .isCloseTo(
            3_400 / 3600.0 / 0.7 * prices.price("dynamodb.provisioned.wcu-hour")
                + 1_000 / 3600.0 / 0.7 * prices.price("dynamodb.provisioned.rcu-hour"),
            within(1e-12));
  }

  @Test
  void datastorePricesReportedDeletesAsDeletes() {
    TableUsage u = usage(1_100, 1_000, 200);
    var e = new CostEstimator(prices, TablePricing.DATASTORE).estimate(hourOn("datastore", u));
    CostEstimate.TableCost t = e.tables().get(0);
    assertThat(t.basis()).isEqualTo(CostEstimate.Basis.REPORTED);
    assertThat(t.requests())
        .isCloseTo(
            1_100 * prices.price("datastore.entity-read")
                + 1_000 * prices.price("datastore.entity-write")
                + 200 * prices.price("datastore.entity-delete"),
            within(1e-12));
    assertThat(prices.price("datastore.entity-delete"))
        .isNotEqualTo(prices.price("datastore.entity-write"));
  }

  @Test
  void azurePricesEveryReportedTransaction() {
    TableUsage u = usage(1_000, 1_000, 200);
    var e = new CostEstimator(prices, TablePricing.AZURE_TABLES).estimate(hourOn("azure", u));
    assertThat(e.tables().get(0).basis()).isEqualTo(CostEstimate.Basis.REPORTED);
    assertThat(e.tables().get(0).requests())
        .isCloseTo(2_200 * prices.price("azure-tables.transaction"), within(1e-12));
  }

  @Test
  void anotherCloudsModelOrNoReportedUnitsIsEstimated() {
    TableUsage reported = usage(1_000, 3_000, 400);
    // DynamoDB's units mean nothing to Azure's bill: the estimate prices the requests.
    var azure =
        new CostEstimator(prices, TablePricing.AZURE_TABLES).estimate(hourOn("dynamodb", reported));
    assertThat(azure.tables().get(0).basis()).isEqualTo(CostEstimate.Basis.ESTIMATED);
    assertThat(azure.tables().get(0).requests())
        .isCloseTo(2_200 * prices.price("azure-tables.transaction"), within(1e-12));
    TableUsage none = usage(0, 0, 0);
    assertThat(none.hasReportedUnits()).isFalse();
    var onDemand =
        new CostEstimator(prices, TablePricing.DYNAMODB_ON_DEMAND)
            .estimate(hourOn("dynamodb", none));
    assertThat(onDemand.tables().get(0).basis()).isEqualTo(CostEstimate.Basis.ESTIMATED);
    assertThat(onDemand.tables().get(0).requests())
        .isCloseTo(1_200 * 0.625e-6 + 500 * 0.125e-6, within(1e-12));
  }

  @Test
  void theMemoryDriverReportsNoUnitsSoItsCostIsEstimated() {
    try (Stowage store =
        Stowage.builder(MemoryDriver.create()).usageTracking(UsageTracking.defaults()).build()) {
      Table t = store.ensureTable(TableSpec.builder("notes", KeySchema.of("id", STRING)).build());
      t.put(Item.builder().put("id", "a").put("v", "x").build());
      t.get(Key.of("a"));
      t.delete(Key.of("a"));
      UsageSnapshot s = store.usage();
      TableUsage u = s.table("", "notes").orElseThrow();
      assertThat(u.hasReportedUnits()).isFalse();
      var e = new CostEstimator(prices, TablePricing.DYNAMODB_ON_DEMAND).estimate(s);
      assertThat(e.tables().get(0).basis()).isEqualTo(CostEstimate.Basis.ESTIMATED);
      assertThat(e.tables().get(0).requests()).isPositive();
    }
  }

  @Test
  void reportedUnitsSurviveTheSnapshotFile(@TempDir Path dir) throws Exception {
    UsageSnapshot s = hourOn("datastore", usage(1_100, 1_000, 200));
    Path f = dir.resolve("usage.properties");
    s.writeTo(f);
    UsageSnapshot back = UsageSnapshot.readFrom(f);
    assertThat(back.tables()).containsExactlyElementsOf(s.tables());
    assertThat(back.tables().get(0).reportedDeleteUnits()).isEqualTo(200);
  }
}
