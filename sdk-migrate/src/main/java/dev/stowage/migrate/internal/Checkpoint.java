package dev.stowage.migrate.internal;

import dev.stowage.spi.TableRef;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The append-only checkpoint of a migration. Lines (tab-separated):
 *
 * <ul>
 *   <li>{@code stowage-migrate 2 <source> <target>} — the header, where each side is {@code
 *       <backend> <location> <namespace> <table>} (the driver's name and {@link
 *       dev.stowage.spi.StorageDriver#location() location}, with {@code \}, tab, CR and LF escaped
 *       as {@code \\}, {@code \t}, {@code \r} and {@code \n}); checked on resume. When a side is an
 *       adopted table ({@link dev.stowage.TableSpec#adoptedName()}), the header is {@code
 *       stowage-migrate 3 <source> <target>} and each side {@code <backend> <location> <namespace>
 *       <table> <adopted name>} (escaped the same way; empty for a side Stowage lays out itself);
 *   <li>{@code writes <page start> <from> <to>} — writes {@code from} (inclusive) to {@code to}
 *       (exclusive) of a page, counted in the page's order (the items the target can take, in the
 *       order the source returned them), written; one call of the target's batch write, whose size
 *       is the target driver's to choose ({@link
 *       dev.stowage.spi.StorageDriver#maxBatchWriteCopies}), so the record names its writes rather
 *       than a position in a sequence of calls of one size;
 *   <li>{@code chunk <page start> <chunk index>} — written by versions before {@code writes}
 *       records: one batch write of a page completed, chunk {@code i} being writes {@code [i × m,
 *       (i + 1) × m)} where {@code m} is the target driver's {@link
 *       dev.stowage.spi.DriverLimits#maxBatchWrite()}, the size of every call then. Still read, so
 *       a run resumed from such a file skips those writes; never written any more (an earlier
 *       version reading a {@code writes} record ignores it, as any line it does not know, and
 *       writes those items again, as they were);
 *   <li>{@code page <page start> <last key> <items>} — a whole page completed.
 *   <li>{@code plan <total> <bounds 0> … <bounds total-1>} — the segments ({@link
 *       dev.stowage.spi.ScanSegment#bounds()}) of a segmented scan of the source, written once
 *       before their pages. Pages of segment {@code n} are named {@code <n>@<segment checkpoint>}
 *       ({@code <n>@^} for its first page), and the "last key" of a page is the next page's name,
 *       {@code <n>@$} after the segment's last page; each segment is one chain of pages.
 * </ul>
 *
 * A page is named by the key its scan started after ({@link KeyText#START} for the first). Scans
 * resumed from the same key return the same page while the source is not written, so a resumed run
 * skips completed pages and the written calls of a half-done page. A torn last line (a crash in the
 * middle of a write: the file does not end with a line break) is cut off, whatever it reads as.
 * Files of format 1 (whose header named the backends but not where they were) are refused; format 2
 * reads as format 3 with no adopted side. Thread-safe.
 */
public final class Checkpoint implements AutoCloseable {
  private final BufferedWriter writer;
  private final Map<String, String> pageEnds = new HashMap<>();
  private final Map<String, Long> pageCounts = new HashMap<>();
  private final Map<String, Set<Integer>> chunks = new HashMap<>();
  private final Map<String, List<int[]>> written = new HashMap<>();
  private List<String> plan;

  /**
   * One side of a migration: a table of a store.
   *
   * @param backend the driver's {@link dev.stowage.spi.StorageDriver#name() name}
   * @param location where the driver points ({@link dev.stowage.spi.StorageDriver#location()})
   * @param table the namespace and (logical) table
   * @param adoptedName the physical name of an adopted table ({@link
   *     dev.stowage.TableSpec#adoptedName()}), or null for a table Stowage lays out itself
   */
  public record Side(String backend, String location, TableRef table, String adoptedName) {
    public Side {
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(table, "table");
      if (adoptedName != null && adoptedName.isEmpty()) {
        throw new IllegalArgumentException("an adopted name must not be empty");
      }
    }

    /** A side Stowage lays out itself. */
    public Side(String backend, String location, TableRef table) {
      this(backend, location, table, null);
    }

    /**
     * For messages: {@code dynamodb region eu-west-1 namespace 'prod' table orders}, with {@code
     * (adopted 'Prod-Orders')} after an adopted table.
     */
    public String describe() {
      return backend
          + (location.equals(backend) ? "" : " " + location)
          + " namespace '"
          + table.namespace()
          + "' table "
          + table.table()
          + (adoptedName == null ? "" : " (adopted '" + adoptedName + "')");
    }
  }

  private Checkpoint(BufferedWriter writer) {
    this.writer = writer;
  }

  /**
   * Opens (creating, or loading and appending to) a checkpoint file.
   *
   * @param source the table copied from
   * @param target the table copied to
   * @throws IllegalArgumentException if the file belongs to another migration (naming both pairs
   *     and what differs), was written in format 1 (which did not record where the stores are), or
   *     is not a checkpoint
   */
  public static Checkpoint open(Path file, Side source, Side target) {
    try {
      String expected = CheckpointHeader.of(source, target);
      byte[] all = Files.exists(file) ? Files.readAllBytes(file) : new byte[0];
      Checkpoint cp;
      if (all.length > 0 && !CheckpointHeader.torn(all, expected)) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        CheckpointHeader.check(file, lines.get(0), source, target);
        if (all[all.length - 1] != '\n') {
          // A crash tore the last line: it is cut off, not read (cut short, it may still parse,
          // a range end or a chunk index with its last digits missing naming other writes than
          // were written), and the next record starts on a line of its own.
          int complete = 0;
          for (int i = all.length - 1; i >= 0; i--) {
            if (all[i] == '\n') {
              complete = i + 1;
              break;
            }
          }
          try (java.nio.channels.FileChannel ch =
              java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(complete);
          }
          lines = lines.subList(0, lines.size() - 1);
        }
        cp =
            new Checkpoint(
                Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND));
        for (String line : lines.subList(1, lines.size())) {
          cp.load(line);
        }
      } else {
        if (file.toAbsolutePath().getParent() != null) {
          Files.createDirectories(file.toAbsolutePath().getParent());
        }
        cp = new Checkpoint(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        cp.append(expected);
      }
      return cp;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open checkpoint " + file, e);
    }
  }

  private void load(String line) {
    String[] f = line.split("\t", -1);
    if (f.length >= 3 && f[0].equals("plan") && plan == null) {
      try {
        int total = Integer.parseInt(f[1]);
        if (f.length == total + 2) {
          plan = List.of(f).subList(2, f.length);
        }
      } catch (NumberFormatException e) {
        // a torn plan line: ignored like any torn line, and the plan is made again
      }
    } else if (f.length == 3 && f[0].equals("chunk")) {
      Integer index = number(f[2]);
      if (index != null) {
        chunks.computeIfAbsent(f[1], k -> new HashSet<>()).add(index);
      }
    } else if (f.length == 4 && f[0].equals("writes")) {
      Integer from = number(f[2]);
      Integer to = number(f[3]);
      if (from != null && to != null && from < to) {
        written.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new int[] {from, to});
      }
    } else if (f.length == 4 && f[0].equals("page")) {
      try {
        pageCounts.put(f[1], Long.parseLong(f[3]));
        pageEnds.put(f[1], f[2]);
      } catch (NumberFormatException e) {
        // a line an earlier version tore and ended (it did not cut torn lines off): not read
      }
    }
  }

  /**
   * A record's non-negative count, or null for one that is not (a line an earlier version tore and
   * ended rather than cut off): such a line is not read.
   */
  private static Integer number(String s) {
    try {
      int n = Integer.parseInt(s);
      return n < 0 ? null : n;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The bounds of each segment of the segmented scan this migration reads the source with, in
   * segment order, if a run recorded them; a resumed run reads the same segments.
   */
  public synchronized java.util.Optional<List<String>> plan() {
    return java.util.Optional.ofNullable(plan);
  }

  /** Records the segments' bounds ({@code plan <total> <bounds>…}), before any of their pages. */
  public synchronized void plan(List<String> bounds) {
    for (String b : bounds) {
      if (b.indexOf('\t') >= 0 || b.indexOf('\n') >= 0 || b.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("segment bounds must not hold tabs or line breaks");
      }
    }
    plan = List.copyOf(bounds);
    append("plan\t" + bounds.size() + "\t" + String.join("\t", bounds));
  }

  /** True if a run recorded pages of one sequential scan (a checkpoint without a plan). */
  public synchronized boolean sequential() {
    return plan == null && !pageEnds.isEmpty();
  }

  /** The page start to resume scanning from: the end of the chain of completed pages. */
  public synchronized String resumeFrom() {
    return resumeFrom(KeyText.START);
  }

  /**
   * The page start to resume from in the chain of pages beginning with {@code first}: a segment's
   * chain begins with its own start token.
   */
  public synchronized String resumeFrom(String first) {
    String start = first;
    Set<String> seen = new HashSet<>();
    while (pageEnds.containsKey(start) && seen.add(start)) {
      start = pageEnds.get(start);
    }
    return start;
  }

  /** Items of the completed pages before {@link #resumeFrom()}. */
  public synchronized long itemsBeforeResume() {
    return itemsBeforeResume(KeyText.START);
  }

  /** Items of the completed pages before {@link #resumeFrom(String)} of the same chain. */
  public synchronized long itemsBeforeResume(String first) {
    long n = 0;
    String start = first;
    Set<String> seen = new HashSet<>();
    while (pageEnds.containsKey(start) && seen.add(start)) {
      n += pageCounts.get(start);
      start = pageEnds.get(start);
    }
    return n;
  }

  /** True if the page starting after {@code start} was completed. */
  public synchronized boolean pageDone(String start) {
    return pageEnds.containsKey(start);
  }

  /** True if any write of the page starting after {@code start} is recorded as written. */
  public synchronized boolean anyWritten(String start) {
    return written.containsKey(start) || chunks.containsKey(start);
  }

  /**
   * Which of the {@code writes} writes of the page starting after {@code start} were written
   * (counted in the page's order): those of its {@code writes} records, and those of the {@code
   * chunk} records of earlier versions, chunk {@code i} being writes {@code [i × chunk, (i + 1) ×
   * chunk)}.
   *
   * @param chunk the size of an earlier version's chunks: the target's {@link
   *     dev.stowage.spi.DriverLimits#maxBatchWrite()}
   */
  public synchronized java.util.BitSet written(String start, int writes, int chunk) {
    java.util.BitSet done = new java.util.BitSet(writes);
    for (int index : chunks.getOrDefault(start, Set.of())) {
      long from = (long) index * chunk;
      if (from < writes) {
        done.set((int) from, (int) Math.min(writes, from + chunk));
      }
    }
    for (int[] range : written.getOrDefault(start, List.of())) {
      if (range[0] < writes) {
        done.set(range[0], Math.min(writes, range[1]));
      }
    }
    return done;
  }

  /**
   * Records writes {@code from} (inclusive) to {@code to} (exclusive) of the page starting after
   * {@code start} as written.
   */
  public synchronized void wrote(String start, int from, int to) {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("no writes from " + from + " to " + to);
    }
    written.computeIfAbsent(start, k -> new ArrayList<>()).add(new int[] {from, to});
    append("writes\t" + start + "\t" + from + "\t" + to);
  }

  /** Records a completed page. */
  public synchronized void page(String start, String last, long items) {
    pageEnds.put(start, last);
    pageCounts.put(start, items);
    append("page\t" + start + "\t" + last + "\t" + items);
  }

  private void append(String line) {
    try {
      writer.write(line);
      writer.write('\n');
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close checkpoint", e);
    }
  }
}
