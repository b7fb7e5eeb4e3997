package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.internal.CliException;
import dev.stowage.cost.BlobPricing;
import dev.stowage.cost.OverflowEconomics;
import dev.stowage.cost.PriceTable;
import dev.stowage.cost.TablePricing;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage cost overflow}: inline item vs blob plus pointer, and the cheaper threshold. */
@Command(
    name = "overflow",
    mixinStandardHelpOptions = true,
    description =
        "Compare the life cost of items kept inline in the table with the same items moved to the"
            + " blob store behind a pointer item, and print the size above which moving is cheaper"
            + " (for TableSpec.Builder.overflowAbove).")
public final class CostOverflowCommand implements Callable<Integer> {
  @ParentCommand CostCommand cost;

  @Option(
      names = "--model",
      required = true,
      description =
          "Table pricing: dynamodb-on-demand, dynamodb-provisioned, datastore, azure-tables.")
  String model;

  @Option(names = "--blob-model", description = "Blob pricing: s3, gcs or azure-blob.")
  String blobModel;

  @Option(names = "--prices", paramLabel = "FILE", description = "Price overrides.")
  Path prices;

  @Option(names = "--reads-per-write", defaultValue = "1", description = "Reads per write.")
  double readsPerWrite;

  @Option(
      names = "--months",
      defaultValue = "1",
      description = "Months an item version stays stored.")
  double months;

  @Option(names = "--pointer-bytes", defaultValue = "300", description = "The pointer item's size.")
  long pointerBytes;

  @Option(
      names = "--max-bytes",
      defaultValue = "409600",
      description = "Largest item to consider (default DynamoDB's 400 KB).")
  long maxBytes;

  @Override
  public Integer call() {
    OverflowEconomics e;
    try {
      PriceTable p = UsageFiles.prices(prices);
      TablePricing tp = TablePricing.of(model);
      BlobPricing bp = blobModel == null ? BlobPricing.alongside(tp) : BlobPricing.of(blobModel);
      e = new OverflowEconomics(p, tp, bp, readsPerWrite, months, pointerBytes);
    } catch (IllegalArgumentException ex) {
      throw new CliException(ex.getMessage());
    }
    var out = cost.main.out();
    out.printf(
        Locale.ROOT,
        "%s + %s: per item written, %.1f reads, %.1f months stored (USD)%n",
        e.table().id(),
        e.blob().id(),
        readsPerWrite,
        months);
    out.printf(Locale.ROOT, "%10s %14s %14s%n", "ITEM", "INLINE", "MOVED");
    for (long kb : List.of(1L, 4L, 8L, 16L, 64L, 128L, 400L)) {
      long b = kb * 1024;
      if (b > maxBytes) {
        break;
      }
      out.printf(Locale.ROOT, "%8d KB %14.9f %14.9f%n", kb, e.inlineCost(b), e.movedCost(b));
    }
    OptionalLong t = e.threshold(maxBytes);
    if (t.isPresent()) {
      out.printf(
          Locale.ROOT,
          "moving is cheaper above %d bytes: TableSpec.Builder.overflowAbove(%d)%n",
          t.getAsLong(),
          t.getAsLong());
    } else {
      out.println("keeping items inline is cheaper up to " + maxBytes + " bytes");
    }
    return 0;
  }
}
