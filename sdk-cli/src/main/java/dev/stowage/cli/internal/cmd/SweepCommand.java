package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.cli.internal.ProgressBar;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage sweep}. */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    description =
        "Delete the table's overflow blobs that no item references (left by crashed writers or"
            + " failed deletes) and that are older than the grace period.")
public final class SweepCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;

  @Option(
      names = "--grace",
      defaultValue = "PT1H",
      description =
          "Keep blobs younger than this (ISO-8601 duration, default PT1H): they may belong to"
              + " writes in flight.")
  Duration grace;

  @Option(names = "--dry-run", description = "Count the orphans; delete nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    if (grace.isNegative()) {
      throw new CliException("--grace must not be negative");
    }
    try (OpenedStore store = table.open()) {
      if (store.blobs() == null) {
        throw new CliException("no blob store: give --blobs URI");
      }
      store.table();
      ProgressBar bar = new ProgressBar(main.err(), "blobs listed", 0, ProgressBar.terminal());
      OverflowSweeper.Report r =
          OverflowSweeper.builder(store.blobs(), store.layout().ref())
              .liveItems(() -> storedItems(store))
              .gracePeriod(grace)
              .dryRun(dryRun)
              .progress(p -> bar.update(p.listed(), p.orphaned() + " orphaned"))
              .build()
              .run();
      bar.finish(r.listed(), r.orphaned() + " orphaned");
      main.out()
          .println(
              (dryRun ? "dry run: " : "")
                  + r.listed()
                  + " blob(s) under "
                  + r.prefix()
                  + ": "
                  + r.referenced()
                  + " referenced, "
                  + r.tooYoung()
                  + " too young to judge, "
                  + r.orphaned()
                  + " orphaned"
                  + (dryRun
                      ? ""
                      : ", "
                          + r.deleted()
                          + " deleted ("
                          + ProgressBar.bytes(r.bytesDeleted())
                          + ")"));
      return 0;
    }
  }

  /** Every stored item of the table, read raw page by page. */
  private static Stream<Item> storedItems(OpenedStore store) {
    List<Item> all = new ArrayList<>();
    Key start = null;
    while (true) {
      QueryResult page = store.driver().scan(store.layout(), new DriverScan(500, start, true));
      for (StoredItem s : page.items()) {
        all.add(s.item());
      }
      if (!page.more() || page.items().isEmpty()) {
        return all.stream();
      }
      start = store.spec().keySchema().keyOf(page.items().get(page.items().size() - 1).item());
    }
  }
}
