package dev.stowage.bench;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.Stowage;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.internal.Segments;
import dev.stowage.azure.internal.Tables;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What an Azure segment plan costs on Azurite: the plan by count (one listing of the table's
 * PartitionKeys, the driver's way for tables of up to {@value Segments#PLAN_ROWS} rows) next to the
 * plan by probing (one-row queries, the way for larger tables), alternating which goes first, on
 * one table of {@code CrossBackendCeilings}' ledger items. Prints each side's median and range in
 * milliseconds and how many items each plan's segments hold.
 *
 * <pre>
 * java -Dstowage.azurite=node_modules/azurite \
 *   -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.AzureSegmentPlans [rounds] [items] [segments]
 * </pre>
 */
public final class AzureSegmentPlans {
  private AzureSegmentPlans() {}

  /** Runs the rounds and prints the figures. */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int total = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    String connection = Emulators.shared().azurite().connectionString();
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(connection).buildClient();
    AzureTablesDriver driver = AzureTablesDriver.of(service);
    Stowage.builder(driver)
        .namespace("plans")
        .build()
        .ensureTable(CrossBackendCeilings.SPEC)
        .batchPut(LedgerItems.items(n));
    TableLayout layout =
        new TableLayout(
            new TableRef("plans", CrossBackendCeilings.SPEC.name()),
            CrossBackendCeilings.SPEC.keySchema(),
            CrossBackendCeilings.SPEC.indexes().stream().map(IndexLayout::of).toList());
    Tables tables = new Tables(service);
    Segments counted = new Segments(tables);
    Segments probed = new Segments(tables, 0);
    double[] count = new double[rounds];
    double[] probe = new double[rounds];
    for (int r = -1; r < rounds; r++) {
      boolean countFirst = (r & 1) == 0;
      for (int side = 0; side < 2; side++) {
        Segments s = (side == 0) == countFirst ? counted : probed;
        long t = System.nanoTime();
        List<ScanSegment> plan = s.plan(layout, null, total);
        double ms = (System.nanoTime() - t) / 1e6;
        if (r >= 0) {
          (s == counted ? count : probe)[r] = ms;
        } else {
          System.out.printf(
              Locale.ROOT,
              "%s: items per segment %s%n",
              s == counted ? "by count" : "by probing",
              Arrays.toString(sizes(driver, layout, plan)));
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "plan of %d segments of %,d items, %d rounds alternating: by count %s ms, by probing %s"
            + " ms (medians, ranges)%n",
        total,
        n,
        rounds,
        summary(count),
        summary(probe));
    System.exit(0); // the emulator's client leaves non-daemon threads behind
  }

  private static int[] sizes(AzureTablesDriver driver, TableLayout layout, List<ScanSegment> plan) {
    int[] out = new int[plan.size()];
    for (int i = 0; i < out.length; i++) {
      String checkpoint = null;
      while (true) {
        var page =
            driver.scanSegment(
                layout, new dev.stowage.spi.SegmentScan(plan.get(i), 1000, checkpoint, true));
        out[i] += page.items().size();
        if (page.done()) {
          break;
        }
        checkpoint = page.checkpoint();
      }
    }
    return out;
  }

  private static String summary(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", s[s.length / 2], s[0], s[s.length - 1]);
  }
}
