package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.cli.internal.ProgressBar;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  @Option(
      names = "--parallelism",
      defaultValue = "4",
      description =
          "Segments of the table read concurrently while collecting the blobs items reference"
              + " (1 to 256; backends without segmented scans are read by one thread).")
  int parallelism;

  @Override
  public Integer call() {
    if (parallelism < 1 || parallelism > 256) {
      throw new CliException("--parallelism must be 1 to 256");
    }
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
              .liveItems(() -> storedItems(store, parallelism))
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

  /**
   * Every stored item of the table, read raw: in {@code parallelism} segments read concurrently
   * where the driver scans in segments, else page by page.
   */
  private static Stream<Item> storedItems(OpenedStore store, int parallelism) {
    StorageDriver driver = store.driver();
    if (parallelism > 1 && driver.capabilities().contains(Capability.SEGMENTED_SCANS)) {
      List<ScanSegment> plan = driver.segments(store.layout(), null, parallelism);
      List<Item> all = java.util.Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(parallelism);
      try {
        List<Future<?>> reads = new ArrayList<>();
        for (ScanSegment segment : plan) {
          reads.add(
              pool.submit(
                  () -> {
                    String checkpoint = null;
                    while (true) {
                      SegmentPage page =
                          driver.scanSegment(
                              store.layout(), new SegmentScan(segment, 500, checkpoint, true));
                      page.items().forEach(s -> all.add(s.item()));
                      if (page.done()) {
                        return;
                      }
                      checkpoint = page.checkpoint();
                    }
                  }));
        }
        for (Future<?> f : reads) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException("interrupted while reading the table");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw new IllegalStateException(e.getCause());
      } finally {
        pool.shutdownNow();
      }
      return all.stream();
    }
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
