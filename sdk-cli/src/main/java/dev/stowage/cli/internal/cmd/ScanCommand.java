package dev.stowage.cli.internal.cmd;

import dev.stowage.Table;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Scan;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage scan}. */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    description = "Print every item of the table as JSON lines, in the backend's scan order.")
public final class ScanCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;

  @Option(names = "--limit", description = "Stop after this many items (default: all).")
  long max = Long.MAX_VALUE;

  @Option(names = "--raw", description = "Show stored forms, read through the driver's scan.")
  boolean raw;

  @Override
  public Integer call() {
    if (max < 0) {
      throw new CliException("--limit must be 0 or more, was " + max);
    }
    try (OpenedStore store = table.open()) {
      long n = 0;
      UndeclaredEncryption hint = new UndeclaredEncryption(store.spec());
      if (raw) {
        store.table();
        Key start = null;
        while (n < max) {
          QueryResult r = store.driver().scan(store.layout(), new DriverScan(500, start, true));
          for (StoredItem s : r.items()) {
            if (n++ >= max) {
              break;
            }
            main.out().println(output.render(s.item()));
          }
          if (!r.more() || r.items().isEmpty()) {
            break;
          }
          start = store.spec().keySchema().keyOf(r.items().get(r.items().size() - 1).item());
        }
      } else {
        Table t = store.table();
        Page page = t.scan(Scan.all().withLimit(500));
        while (true) {
          for (Item i : page.items()) {
            if (n++ >= max) {
              break;
            }
            main.out().println(output.render(i));
            hint.look(i);
          }
          if (n >= max || !page.hasAfter() || page.after().isEmpty()) {
            break;
          }
          page = t.page(page.after().get());
        }
      }
      main.err().println("scanned " + Math.min(n, max) + " item(s)");
      hint.report(main.err());
      return 0;
    }
  }
}
