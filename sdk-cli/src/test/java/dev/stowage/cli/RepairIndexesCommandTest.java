package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.cli.internal.Backends;
import dev.stowage.cli.internal.StoreLocation;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stowage repair-indexes}: stale values another tool left, and missing ones. */
class RepairIndexesCommandTest {
  private static final String STORE = "memory://orders?store=repair";
  private static final TableLayout LAYOUT =
      new TableLayout(
          new TableRef("", "orders"),
          KeySchema.of("id", AttributeType.STRING),
          List.of(IndexLayout.of(IndexSpec.of("byStatus", List.of("status"), List.of("at")))));
  @TempDir Path dir;

  @BeforeEach
  void fresh() {
    Backends.resetMemory();
    System.setProperty("stowage.home", dir.resolve("home").toString());
  }

  private static Cli.Result run(String command, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                command, "--store", STORE, "--pk", "id:S", "--spec-index", "byStatus=status/at"));
    all.addAll(List.of(args));
    return Cli.run(all.toArray(String[]::new));
  }

  private static void put(int i, String status) {
    Cli.Result r =
        run(
            "put",
            "--create-table",
            "--item",
            "{\"id\":\"o" + i + "\",\"status\":\"" + status + "\",\"at\":" + i + "}");
    assertThat(r.code()).as(r.err()).isZero();
  }

  /** What a native update of {@code status} leaves: Stowage's index values unchanged. */
  private static void foreignSetStatus(int i, String status) {
    try (StorageDriver driver = Backends.driver(StoreLocation.parse(STORE))) {
      StoredItem s = driver.get(LAYOUT, Key.of("o" + i), true).orElseThrow();
      Map<String, AttributeValue> attrs = new LinkedHashMap<>(s.item().attributes());
      attrs.put("status", AttributeValue.of(status));
      driver.put(LAYOUT, StoredItems.of(attrs), Expectation.token(s.token()), false);
    }
  }

  private static String query(String status) {
    Cli.Result r = run("query", "--index", "byStatus", "--partition", status, "--all");
    assertThat(r.code()).as(r.err()).isZero();
    return r.out();
  }

  @Test
  void findsAndRewritesStaleAndMissingIndexValues() {
    for (int i = 0; i < 5; i++) {
      put(i, "PAID");
    }
    foreignSetStatus(3, "SHIPPED");
    Cli.Result plain =
        Cli.run(
            "put",
            "--store",
            STORE,
            "--pk",
            "id:S",
            "--item",
            "{\"id\":\"o9\",\"status\":\"SHIPPED\",\"at\":9}");
    assertThat(plain.code()).as("written without the index").isZero();
    assertThat(query("PAID")).doesNotContain("\"o3\"").contains("\"o4\"");
    assertThat(query("SHIPPED")).doesNotContain("\"o");

    Cli.Result dry = run("repair-indexes", "--dry-run", "--page-size", "2");
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains(
            "dry run: 6 item(s) scanned: 1 with stale, 1 with missing index values; 2 would be"
                + " rewritten");
    assertThat(query("SHIPPED")).doesNotContain("\"o");

    Cli.Result fixed = run("repair-indexes", "--rate", "1000");
    assertThat(fixed.code()).as(fixed.err()).isZero();
    assertThat(fixed.out())
        .contains("6 item(s) scanned: 1 with stale, 1 with missing index values; 2 rewritten");
    assertThat(query("SHIPPED")).contains("\"o3\"").contains("\"o9\"");
    assertThat(query("PAID")).doesNotContain("\"o3\"");
    assertThat(run("repair-indexes").out())
        .contains("6 item(s) scanned: 0 with stale, 0 with missing index values; 0 rewritten");
  }

  @Test
  void needsIndexesAndAValidToken() {
    put(0, "PAID");
    Cli.Result noIndexes = Cli.run("repair-indexes", "--store", STORE, "--pk", "id:S");
    assertThat(noIndexes.code()).isEqualTo(ExitCode.USAGE);
    assertThat(noIndexes.err()).contains("has no secondary indexes");
    Cli.Result badToken = run("repair-indexes", "--resume", "not-a-token");
    assertThat(badToken.code()).isEqualTo(ExitCode.USAGE);
    Cli.Result badPage = run("repair-indexes", "--page-size", "0");
    assertThat(badPage.code()).isEqualTo(ExitCode.USAGE);
    Cli.Result help = Cli.run("repair-indexes", "--help");
    assertThat(help.out()).contains("Usage: stowage repair-indexes").contains("--dry-run");
  }
}
