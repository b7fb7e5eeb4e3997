package dev.stowage.cli.internal;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * A text progress bar. On a terminal it redraws one line with carriage returns; otherwise (pipes,
 * tests) it prints a line at every quarter of the way and at the end, so logs stay short. Not
 * thread-safe: callers report from one thread or synchronize.
 */
public final class ProgressBar {
  private static final int WIDTH = 30;
  private final PrintStream out;
  private final String label;
  private final boolean interactive;
  private final long startNanos = System.nanoTime();
  private long total;
  private int lastQuarter = -1;
  private boolean finished;

  /**
   * @param total the expected count, or 0 if unknown (the bar then shows a count only)
   * @param interactive redraw in place (a terminal) rather than print lines
   */
  public ProgressBar(PrintStream out, String label, long total, boolean interactive) {
    this.out = out;
    this.label = label;
    this.total = total;
    this.interactive = interactive;
  }

  /** True if standard output looks like a terminal. */
  public static boolean terminal() {
    return System.console() != null;
  }

  /** Updates the expected total. */
  public void total(long newTotal) {
    this.total = newTotal;
  }

  /** Reports {@code done} units so far, with an optional suffix such as "12 blobs". */
  public void update(long done, String suffix) {
    if (finished) {
      return;
    }
    if (interactive) {
      out.print("\r" + line(done, suffix));
      out.flush();
      return;
    }
    int quarter = total > 0 ? (int) Math.min(4, done * 4 / total) : -1;
    if (quarter > lastQuarter && quarter < 4) {
      lastQuarter = quarter;
      out.println(line(done, suffix));
    }
  }

  /** Prints the final state and ends the line. */
  public void finish(long done, String suffix) {
    if (finished) {
      return;
    }
    finished = true;
    if (total > 0 && done > total) {
      total = done;
    }
    out.println((interactive ? "\r" : "") + line(done, suffix));
  }

  String line(long done, String suffix) {
    double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
    double rate = done / seconds;
    StringBuilder sb = new StringBuilder("   ").append(label).append(' ');
    if (total > 0) {
      int filled = (int) Math.min(WIDTH, done * WIDTH / total);
      sb.append('[')
          .append("#".repeat(filled))
          .append(".".repeat(WIDTH - filled))
          .append("] ")
          .append(done)
          .append('/')
          .append(total);
    } else {
      sb.append(done);
    }
    sb.append(String.format(Locale.ROOT, "  %.0f/s", rate));
    if (suffix != null && !suffix.isEmpty()) {
      sb.append("  ").append(suffix);
    }
    return sb.toString();
  }

  /** Human-readable elapsed time. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  /** Human-readable byte count. */
  public static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    if (n < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
  }
}
