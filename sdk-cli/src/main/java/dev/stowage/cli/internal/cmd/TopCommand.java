package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stowage top}: a live view of a running application's tables and hot keys, read from the
 * usage snapshot file its store writes ({@code UsageTracking.snapshotFile}). The command line has
 * no workload of its own, so it watches the process that has.
 */
@Command(
    name = "top",
    mixinStandardHelpOptions = true,
    description =
        "Show request rates, capacity units, throttles and the hottest partition keys of every"
            + " table and index of a running application, refreshed every --interval. The"
            + " application writes them to a usage snapshot file (UsageTracking.snapshotFile);"
            + " give its path with --watch.")
public final class TopCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Option(
      names = "--watch",
      required = true,
      paramLabel = "FILE",
      description = "The usage snapshot file the application's store writes.")
  Path watch;

  @Option(
      names = "--interval",
      defaultValue = "PT2S",
      description = "Time between refreshes (ISO-8601 duration, default PT2S).")
  Duration interval;

  @Option(names = "--once", description = "Print one frame and exit (for scripts).")
  boolean once;

  @Option(
      names = "--frames",
      defaultValue = "0",
      description = "Exit after this many frames (0: run until interrupted).")
  int frames;

  @Option(
      names = "--by",
      defaultValue = "requests",
      description = "Rank hot keys by requests, bytes or throttles (default requests).")
  String by;

  @Option(names = "--limit", defaultValue = "5", description = "Hot keys per table and index.")
  int limit;

  @Option(
      names = "--table",
      paramLabel = "[NAMESPACE/]TABLE",
      description = "Show only this table (and its indexes).")
  String table;

  @Override
  public Integer call() throws InterruptedException {
    if (!List.of("requests", "bytes", "throttles").contains(by)) {
      throw new CliException("--by must be requests, bytes or throttles");
    }
    if (interval.isNegative() || interval.isZero()) {
      throw new CliException("--interval must be positive");
    }
    boolean clear = !once && main.out() == System.out && System.console() != null;
    int shown = 0;
    while (true) {
      UsageSnapshot s = read();
      StringBuilder frame = new StringBuilder();
      if (clear) {
        frame.append("\033[H\033[2J");
      }
      render(s, frame);
      main.out().print(frame);
      main.out().flush();
      shown++;
      if (once || (frames > 0 && shown >= frames)) {
        return 0;
      }
      Thread.sleep(interval.toMillis());
    }
  }

  private UsageSnapshot read() {
    return UsageFiles.snapshot(watch);
  }

  private boolean selected(String namespace, String name) {
    if (table == null) {
      return true;
    }
    String full = namespace.isEmpty() ? name : namespace + "/" + name;
    return table.equals(full) || table.equals("/" + name) && namespace.isEmpty();
  }

  void render(UsageSnapshot s, StringBuilder out) {
    double secs = s.observed().toMillis() / 1000.0;
    out.append(
        String.format(
            Locale.ROOT,
            "stowage top: %s at %s, tracking for %s%n%n",
            s.backend(),
            s.at(),
            human(s.observed())));
    out.append(
        String.format(
            Locale.ROOT,
            "%-28s %9s %10s %10s %10s %10s %9s %11s%n",
            "TABLE",
            "REQ/S",
            "WCU/S",
            "RCU/S",
            "PEAK WCU/S",
            "PEAK RCU/S",
            "THROTTLED",
            "BLOBS PUT/GET"));
    for (TableUsage t : s.tables()) {
      if (!selected(t.namespace(), t.table())) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-28s %9.1f %10.1f %10.1f %10.1f %10.1f %9d %5d/%d%n",
              name(t.namespace(), t.table()),
              t.requests() / secs,
              t.writeUnits() / secs,
              t.readUnits() / secs,
              t.peakWriteUnitsPerSecond(),
              t.peakReadUnitsPerSecond(),
              t.throttled(),
              t.blobPuts(),
              t.blobGets()));
    }
    for (HotKeys h : s.hotKeys()) {
      if (!selected(h.namespace(), h.table())) {
        continue;
      }
      List<HotKey> keys =
          switch (by) {
            case "bytes" -> h.byBytes();
            case "throttles" -> h.byThrottles();
            default -> h.byRequests();
          };
      long total =
          switch (by) {
            case "bytes" -> h.bytes();
            case "throttles" -> h.throttles();
            default -> h.requests();
          };
      out.append(
          String.format(
              Locale.ROOT,
              "%nhot keys of %s%s by %s, last %s: %,d in all (each count over-estimates by at most"
                  + " its ±)%n",
              name(h.namespace(), h.table()),
              h.isTable() ? "" : " index " + h.index(),
              by,
              human(h.window()),
              total));
      if (keys.isEmpty()) {
        out.append("  (none)\n");
      }
      for (int i = 0; i < Math.min(limit, keys.size()); i++) {
        HotKey k = keys.get(i);
        out.append(
            String.format(
                Locale.ROOT,
                "  %2d  %-40s %,12d  ±%,d  %5.1f%%%n",
                i + 1,
                k.key(),
                k.count(),
                k.error(),
                total == 0 ? 0 : 100.0 * k.count() / total));
      }
    }
  }

  private static String name(String namespace, String table) {
    return namespace.isEmpty() ? table : namespace + "/" + table;
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    if (s < 120) {
      return s + "s";
    }
    if (s < 7200) {
      return (s / 60) + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
    }
    return (s / 3600) + "h " + (s % 3600 / 60) + "m";
  }
}
