package dev.stowage.cli;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.usage.UsageTracking;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stowage top}, {@code stowage cost} and {@code stowage capacity}. */
class InsightCommandsTest {
  @TempDir Path dir;

  /** An application's store that wrote its snapshot file: user "hot" gets most writes. */
  private Path applicationSnapshot() throws Exception {
    Path file = dir.resolve("usage.properties");
    try (Stowage store =
        Stowage.builder(MemoryDriver.create())
            .namespace("prod")
            .usageTracking(
                UsageTracking.builder().snapshotFile(file, Duration.ofMinutes(10)).build())
            .build()) {
      Table t =
          store.ensureTable(
              TableSpec.builder("users", KeySchema.of("id", STRING))
                  .index("byTeam", List.of("team"), List.of())
                  .build());
      for (int i = 0; i < 50; i++) {
        t.put(Item.builder().put("id", "hot").put("team", "red").put("n", i).build());
        t.put(Item.builder().put("id", "u" + i).put("team", i % 2 == 0 ? "red" : "blue").build());
      }
      Thread.sleep(20); // a non-zero tracking time for rates
    }
    return file; // written on close
  }

  @Test
  void topPrintsTablesAndTheirHottestKeysOnce() throws Exception {
    Path file = applicationSnapshot();
    Cli.Result r = Cli.run("top", "--watch", file.toString(), "--once");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("prod/users").contains("memory");
    assertThat(r.out()).contains("hot keys of prod/users by requests");
    assertThat(r.out()).containsPattern("\\s1  hot\\s+50  ±0");
    assertThat(r.out()).contains("hot keys of prod/users index byTeam");
    assertThat(r.out()).containsPattern("\\s1  red\\s+75  ±0");
    assertThat(r.out()).doesNotContain("\033[2J"); // no screen clearing when not on a terminal
  }

  @Test
  void topRefreshesForTheFramesAsked() throws Exception {
    Path file = applicationSnapshot();
    Cli.Result r =
        Cli.run("top", "--watch", file.toString(), "--interval", "PT0.01S", "--frames", "3");
    assertThat(r.code()).isZero();
    assertThat(r.out().split("stowage top:", -1)).hasSize(4);
  }

  @Test
  void topExplainsAMissingSnapshot() {
    Cli.Result r = Cli.run("top", "--watch", dir.resolve("none").toString(), "--once");
    assertThat(r.code()).isEqualTo(ExitCode.USAGE);
    assertThat(r.err()).contains("snapshotFile");
  }

  @Test
  void costAndCapacityExplainAMissingSnapshotOrPriceFileAsTopDoes() throws Exception {
    String none = dir.resolve("none").toString();
    for (Cli.Result r :
        List.of(
            Cli.run("cost", "--usage", none),
            Cli.run("capacity", "advise", "--usage", none, "--table", "users"))) {
      assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE);
      assertThat(r.err())
          .startsWith("stowage: no usage snapshot at " + none + ": build the application's store")
          .contains("snapshotFile");
    }
    Cli.Result prices =
        Cli.run("cost", "--usage", applicationSnapshot().toString(), "--prices", none);
    assertThat(prices.code()).as(prices.err()).isEqualTo(ExitCode.USAGE);
    assertThat(prices.err()).contains("no such file: " + none + " (--prices)");
  }

  @Test
  void costPricesTheSnapshotUnderAChosenModel() throws Exception {
    Path file = applicationSnapshot();
    Cli.Result r = Cli.run("cost", "--usage", file.toString(), "--model", "dynamodb-on-demand");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("dynamodb-on-demand + s3, prices of 2025-01 (USD)");
    assertThat(r.out()).contains("prod/users").contains("total");
    // 100 puts of small items, each also written to the index: 200 write units at $0.625/M.
    assertThat(r.out()).contains("0.000125");
    // The memory driver reports no billable units: the estimate is Stowage's.
    assertThat(r.out()).containsPattern("prod/users .* estimated");
    Cli.Result memory = Cli.run("cost", "--usage", file.toString());
    assertThat(memory.code()).isEqualTo(ExitCode.USAGE);
    assertThat(memory.err()).contains("choose a table pricing model");
  }

  @Test
  void costPricesTheUnitsTheBackendReportedWhereTheSnapshotHasThem() throws Exception {
    Path file = dir.resolve("dynamo-usage.properties");
    java.time.Instant since = java.time.Instant.parse("2025-01-01T00:00:00Z");
    // One hour on DynamoDB: Stowage estimated 1,000 write units; DynamoDB reported 3,000 plus 400
    // for deletes, and 1,000 read units.
    new dev.stowage.usage.UsageSnapshot(
            "dynamodb",
            since,
            since.plusSeconds(3600),
            List.of(
                new dev.stowage.usage.TableUsage(
                    "prod", "orders", 1_000, 1_200, 0, 0, 0, 1_000, 1_000, 200, 0, 0, 500, 1_000, 0,
                    0, 0, 0, 0, 0, 0, 0, 1_000, 3_000, 400)),
            List.of())
        .writeTo(file);
    Cli.Result r = Cli.run("cost", "--usage", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    // 3,400 write units at $0.625/M plus 1,000 read units at $0.125/M: 0.002250.
    assertThat(r.out()).containsPattern("prod/orders\\s+0\\.002250 .* reported units");
    Cli.Result azure = Cli.run("cost", "--usage", file.toString(), "--model", "azure-tables");
    assertThat(azure.out()).containsPattern("prod/orders .* estimated");
  }

  @Test
  void costOverflowPrintsTheThreshold() {
    Cli.Result r =
        Cli.run(
            "cost",
            "overflow",
            "--model",
            "dynamodb-on-demand",
            "--reads-per-write",
            "0",
            "--months",
            "0");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("moving is cheaper above 9216 bytes");
  }

  @Test
  void costHonoursAPriceOverrideFile() throws Exception {
    Path file = applicationSnapshot();
    Path prices = dir.resolve("prices.properties");
    Files.writeString(prices, "date=2030-01\ndynamodb.on-demand.write-request-unit=0.001\n");
    Cli.Result r =
        Cli.run(
            "cost",
            "--usage",
            file.toString(),
            "--model",
            "dynamodb-on-demand",
            "--prices",
            prices.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("prices of 2030-01").contains("0.200000");
  }

  @Test
  void capacitySimulatePrintsTheExperimentTable() {
    Cli.Result r = Cli.run("capacity", "simulate");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("| top heavy | 80% |").contains("requests, 1 min: success");
    assertThat(
            r.out()
                .lines()
                .filter(l -> l.startsWith("| bell curve") || l.startsWith("| top heavy")))
        .hasSize(12);
    // The default model: 73.9% for the control, 96.5% on request counts at 80% top heavy.
    assertThat(r.out()).contains("| top heavy | 80% | 73.9% |").contains("| 96.5% |");
    Cli.Result slow = Cli.run("capacity", "simulate", "--update-minutes", "2");
    assertThat(slow.code()).as(slow.err()).isZero();
    assertThat(slow.out()).contains("| top heavy | 80% | 66.1% |");
    Cli.Result bad = Cli.run("capacity", "simulate", "--update-minutes", "-1");
    assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("update minutes");
  }

  @Test
  void capacityAdviseRecommendsFromPeakDemand() throws Exception {
    Path file = applicationSnapshot();
    Cli.Result r =
        Cli.run(
            "capacity",
            "advise",
            "--usage",
            file.toString(),
            "--table",
            "prod/users",
            "--highest-wcu",
            "5");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("prod/users: peak demand").contains("partitions 1 -> 1");
  }
}
