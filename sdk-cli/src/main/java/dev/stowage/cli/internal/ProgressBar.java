package dev.stowage.cli.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The progress line of long jobs (migrate, delete-where, repair-indexes, reencrypt, sweep), on
 * standard error. On a terminal it redraws one line in place; otherwise (pipes, files, CI logs) it
 * prints a line at every quarter of the way and at the end, so logs stay short. Not thread-safe:
 * callers report from one thread or synchronize.
 *
 * <p>Why not a kept progress-bar library ({@code me.tongfei:progressbar} 0.10, the usual choice on
 * the JVM): it redraws from a scheduler thread of its own every interval (1 s by default), so a
 * failure's one-line {@code stowage:} message can be followed, on the same line, by one more
 * redraw; by default it writes to file descriptor 2 directly, past the error stream the command
 * line is given (its tests capture that stream); it judges interactivity with JLine from the
 * process's terminal rather than from the stream it writes to, and on a non-interactive stream it
 * still writes a carriage-return update per interval, which a log file keeps as one endless line;
 * and it adds JLine's terminal library to the command-line jar. The jobs report after each page on
 * their own thread, so this synchronous bar draws exactly when there is news, knows when its line
 * is open (see {@link #endOpenLine}) and needs no thread to stop.
 */
public final class ProgressBar {
  private static final int WIDTH = 30;

  /** The interactive bar whose line is drawn but not ended, per stream. */
  private static final Map<PrintStream, ProgressBar> OPEN = new WeakHashMap<>();

  private final PrintStream out;
  private final String label;
  private final boolean interactive;
  private final long startNanos = System.nanoTime();
  private long total;
  private int lastQuarter = -1;
  private int drawnLength;
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

  /**
   * True if standard error, where the bar goes, is a terminal that can redraw a line: not when
   * {@code TERM} is {@code dumb}; on Linux, when file descriptor 2 is a terminal device, whatever
   * standard output is (so {@code stowage scan > items.json} still shows the bar); elsewhere when
   * the JVM has a console (standard input and output are a terminal).
   */
  public static boolean terminal() {
    if ("dumb".equals(System.getenv("TERM"))) {
      return false;
    }
    Boolean linux = stderrIsTerminalDevice(Path.of("/proc/self/fd/2"));
    return linux != null ? linux : System.console() != null;
  }

  /** Whether the link names a terminal device; null if it cannot be read (not Linux). */
  static Boolean stderrIsTerminalDevice(Path fdLink) {
    try {
      String target = Files.readSymbolicLink(fdLink).toString();
      return target.startsWith("/dev/pts/")
          || target.startsWith("/dev/tty")
          || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return null;
    }
  }

  /**
   * Ends the line of a bar drawn in place on {@code stream} and not finished, so that what comes
   * next (a {@code stowage:} error, a resume hint) starts a line of its own. Does nothing if no bar
   * is open there.
   */
  public static void endOpenLine(PrintStream stream) {
    ProgressBar open;
    synchronized (OPEN) {
      open = OPEN.remove(stream);
    }
    if (open != null) {
      open.endLine();
    }
  }

  /**
   * Ends the line if this bar drew one in place and has not finished: call before printing to the
   * same stream while the job is not done.
   */
  public void endLine() {
    if (interactive && drawnLength > 0) {
      out.println();
      out.flush();
      drawnLength = 0;
    }
    synchronized (OPEN) {
      OPEN.remove(out, this);
    }
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
      String line = line(done, suffix);
      // Blanks over the rest of a longer earlier line.
      out.print("\r" + line + " ".repeat(Math.max(0, drawnLength - line.length())));
      out.flush();
      drawnLength = Math.max(line.length(), 1);
      synchronized (OPEN) {
        OPEN.put(out, this);
      }
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
    String line = line(done, suffix);
    if (interactive) {
      out.println("\r" + line + " ".repeat(Math.max(0, drawnLength - line.length())));
      drawnLength = 0;
      synchronized (OPEN) {
        OPEN.remove(out, this);
      }
    } else {
      out.println(line);
    }
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
