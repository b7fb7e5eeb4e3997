package dev.stowage.cost;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import dev.stowage.usage.UsageTracking;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostTest {
  private final PriceTable prices = PriceTable.defaults();

  private static TableUsage usage(
      long reads, long writes, long itemsRead, long itemsWritten, double rcu, long wcu) {
    return new TableUsage(
        "",
        "t",
        reads,
        writes,
        0,
        0,
        0,
        itemsRead,
        itemsWritten,
        0,
        0,
        0,
        rcu,
        wcu,
        0,
        10,
        0,
        20,
        0,
        0,
        0,
        0);
  }

  private static UsageSnapshot hourOf(TableUsage u) {
    Instant since = Instant.parse("2025-01-01T00:00:00Z");
    return new UsageSnapshot("dynamodb", since, since.plusSeconds(3600), List.of(u), List.of());
  }

  @Test
  void theShippedTableIsDatedAndHasEveryModelsPrices() {
    assertThat(prices.date()).isEqualTo("2025-01");
    assertThat(prices.currency()).isEqualTo("USD");
    assertThat(prices.price("dynamodb.on-demand.write-request-unit")).isEqualTo(0.625e-6);
    for (BlobPricing b : BlobPricing.values()) {
      assertThat(prices.price(b.id() + ".put")).isPositive();
      assertThat(prices.price(b.id() + ".storage-gb-month")).isPositive();
    }
    assertThatThrownBy(() -> prices.price("nope")).hasMessageContaining("nope");
  }

  @Test
  void anOverrideFileReplacesOnlyItsKeys(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("p.properties");
    Files.writeString(f, "date=2026-02\ns3.put=0.00001\n");
    PriceTable p = PriceTable.load(f);
    assertThat(p.date()).isEqualTo("2026-02");
    assertThat(p.price("s3.put")).isEqualTo(0.00001);
    assertThat(p.price("s3.get")).isEqualTo(prices.price("s3.get"));
    Files.writeString(f, "s3.put=-1\n");
    assertThatThrownBy(() -> PriceTable.load(f)).hasMessageContaining("s3.put");
  }

  @Test
  void eachModelPricesTheSameUsageByItsOwnRules() {
    // One hour: 1M reads (1M items, 500k RCU eventual), 1M writes of 3 KB items (3M WCU).
    TableUsage u = usage(1_000_000, 1_000_000, 1_000_000, 1_000_000, 500_000, 3_000_000);
    var onDemand = new CostEstimator(prices, TablePricing.DYNAMODB_ON_DEMAND).estimate(hourOf(u));
    // 3M × $0.625/M + 0.5M × $0.125/M, plus 10 S3 puts and 20 gets.
    double blobs = 10 * 0.000005 + 20 * 0.0000004;
    assertThat(onDemand.perHour()).isCloseTo(1.875 + 0.0625 + blobs, within(1e-9));
    assertThat(onDemand.perMonth()).isCloseTo(onDemand.perHour() * 730, within(1e-9));

    // Provisioned at 70%: 3M WCU in an hour is 833.3/s, so 1190.5 WCU provisioned.
    var provisioned =
        new CostEstimator(prices, TablePricing.DYNAMODB_PROVISIONED).estimate(hourOf(u));
    double wcu = 3_000_000 / 3600.0 / 0.7;
    double rcu = 500_000 / 3600.0 / 0.7;
    assertThat(provisioned.perHour())
        .isCloseTo(wcu * 0.00065 + rcu * 0.00013 + blobs, within(1e-9));
    assertThat(provisioned.perHour()).isLessThan(onDemand.perHour());

    // Datastore bills entities whatever their size; Azure every request.
    var datastore = new CostEstimator(prices, TablePricing.DATASTORE).estimate(hourOf(u));
    assertThat(datastore.perHour())
        .isCloseTo(0.6 + 1.8 + 10 * 0.000005 + 20 * 0.0000004, within(1e-9));
    var azure = new CostEstimator(prices, TablePricing.AZURE_TABLES).estimate(hourOf(u));
    assertThat(azure.perHour())
        .isCloseTo(2_000_000 * 0.000000036 + 10 * 0.0000065 + 20 * 0.0000005, within(1e-9));
  }

  @Test
  void storageIsAddedWhereKnown() {
    TableUsage u = usage(0, 0, 0, 0, 0, 0);
    var e =
        new CostEstimator(
                prices,
                TablePricing.DYNAMODB_ON_DEMAND,
                BlobPricing.S3,
                0.7,
                Map.of("/t", new CostEstimator.Storage(100_000_000_000L, 1_000_000_000_000L)))
            .estimate(hourOf(u));
    // 100 GB in DynamoDB at $0.25 and 1 TB in S3 at $0.023.
    assertThat(e.tables().get(0).storagePerMonth()).isCloseTo(25 + 23, within(1e-9));
  }

  @Test
  void aLargeDynamoDbItemIsCheaperAsABlobAndAPointer() {
    var e =
        new OverflowEconomics(prices, TablePricing.DYNAMODB_ON_DEMAND, BlobPricing.S3, 0, 0, 300);
    // 400 KB inline: 400 write units. Moved: one S3 PUT plus a 1-unit pointer.
    assertThat(e.inlineCost(400 * 1024)).isCloseTo(400 * 0.625e-6, within(1e-12));
    assertThat(e.movedCost(400 * 1024)).isCloseTo(0.000005 + 0.625e-6, within(1e-12));
    // Write-only: moving pays above 9 KB (10 units × $0.625/M > $5/M + 1 unit × $0.625/M; at 9
    // units the two are equal).
    assertThat(e.threshold(400 * 1024)).hasValue(9 * 1024);
    // Read often: an S3 GET per read costs more than half a read unit of 4 KB, so the threshold
    // rises.
    var readHeavy =
        new OverflowEconomics(prices, TablePricing.DYNAMODB_ON_DEMAND, BlobPricing.S3, 20, 0, 300);
    assertThat(readHeavy.threshold(400 * 1024).getAsLong()).isGreaterThan(9 * 1024);
    // Datastore bills a write per entity whatever its size: without storage, moving never pays.
    var datastore =
        new OverflowEconomics(prices, TablePricing.DATASTORE, BlobPricing.GCS, 1, 0, 300);
    assertThat(datastore.threshold(1 << 20)).isEmpty();
    // Kept for years, storage decides: $0.18 vs $0.02 per GB-month.
    var kept = new OverflowEconomics(prices, TablePricing.DATASTORE, BlobPricing.GCS, 1, 36, 300);
    assertThat(kept.threshold(1 << 20)).isPresent();
  }

  @Test
  void overflowAboveMovesItemsWhenCheaperAndReadsThemBackExactly() {
    var economics =
        new OverflowEconomics(prices, TablePricing.DYNAMODB_ON_DEMAND, BlobPricing.S3, 1, 1, 300);
    long threshold = economics.threshold(400 * 1024).orElseThrow();
    TableSpec spec =
        TableSpec.builder("docs", KeySchema.of("id", STRING)).overflowAbove(threshold).build();
    MemoryBlobStore blobs = new MemoryBlobStore();
    try (Stowage store =
        Stowage.builder(MemoryDriver.builder().limits(MemoryLimits.dynamoDb()).build())
            .blobStore(blobs)
            .usageTracking(UsageTracking.defaults())
            .build()) {
      Table docs = store.ensureTable(spec);
      Bytes big = random(100_000);
      Bytes small = random(threshold / 2);
      docs.put(Item.builder().put("id", "big").put("data", big).build());
      docs.put(Item.builder().put("id", "small").put("data", small).build());
      // Only the 100 KB item moved, though DynamoDB would take it.
      assertThat(blobs.list("").count()).isEqualTo(1);
      assertThat(docs.get(Key.of("big")).orElseThrow().getBinary("data")).isEqualTo(big);
      assertThat(docs.get(Key.of("small")).orElseThrow().getBinary("data")).isEqualTo(small);
      TableUsage u = store.usage().table("", "docs").orElseThrow();
      // 1 unit for the big item's pointer, ceil(small / 1 KB) for the small one: not 98 + that.
      assertThat(u.writeUnits()).isEqualTo(1 + (threshold / 2 + 100) / 1024 + 1);
      assertThat(u.blobPuts()).isEqualTo(1);
    }
  }

  @Test
  void overflowAboveWithoutABlobStoreKeepsItemsTheBackendTakes() {
    TableSpec spec =
        TableSpec.builder("docs", KeySchema.of("id", STRING)).overflowAbove(2048).build();
    try (Stowage store =
        Stowage.builder(MemoryDriver.builder().limits(MemoryLimits.dynamoDb()).build()).build()) {
      Table docs = store.ensureTable(spec);
      Bytes data = random(50_000);
      docs.put(Item.builder().put("id", "a").put("data", data).build());
      assertThat(docs.get(Key.of("a")).orElseThrow().getBinary("data")).isEqualTo(data);
    }
    assertThatThrownBy(
            () -> TableSpec.builder("docs", KeySchema.of("id", STRING)).overflowAbove(10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Bytes random(long n) {
    byte[] b = new byte[(int) n];
    new Random(n).nextBytes(b);
    return Bytes.wrap(b);
  }
}
