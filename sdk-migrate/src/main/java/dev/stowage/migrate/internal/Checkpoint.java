package dev.stowage.migrate.internal;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The append-only checkpoint of a migration. Lines (tab-separated):
 *
 * <ul>
 *   <li>{@code stowage-migrate 1 <source> <target>} — the header, checked on resume;
 *   <li>{@code chunk <page start> <chunk index>} — one batch write of a page completed;
 *   <li>{@code page <page start> <last key> <items>} — a whole page completed.
 * </ul>
 *
 * A page is named by the key its scan started after ({@link KeyText#START} for the first). Scans
 * resumed from the same key return the same page while the source is not written, so a resumed run
 * skips completed pages and completed chunks of a half-done page. A torn last line (a crash in the
 * middle of a write) is ignored. Thread-safe.
 */
public final class Checkpoint implements AutoCloseable {
  private static final String MAGIC = "stowage-migrate";
  private final BufferedWriter writer;
  private final Map<String, String> pageEnds = new HashMap<>();
  private final Map<String, Long> pageCounts = new HashMap<>();
  private final Set<String> chunks = new HashSet<>();

  private Checkpoint(BufferedWriter writer) {
    this.writer = writer;
  }

  /**
   * Opens (creating, or loading and appending to) a checkpoint file.
   *
   * @param header identifies the migration; a file with another header is refused
   * @throws IllegalArgumentException if the file belongs to another migration
   */
  public static Checkpoint open(Path file, String header) {
    try {
      String expected = MAGIC + "\t1\t" + header;
      boolean exists = Files.exists(file) && Files.size(file) > 0;
      Checkpoint cp;
      if (exists) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (!lines.get(0).equals(expected)) {
          throw new IllegalArgumentException(
              "checkpoint "
                  + file
                  + " belongs to another migration ("
                  + lines.get(0).replace('\t', ' ')
                  + "); use another file or delete it to start over");
        }
        cp =
            new Checkpoint(
                Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND));
        byte[] all = Files.readAllBytes(file);
        if (all[all.length - 1] != '\n') {
          // a crash tore the last line: end it so the next record starts on its own line
          cp.writer.write('\n');
          cp.writer.flush();
        }
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
    String[] f = line.split("\t");
    if (f.length == 3 && f[0].equals("chunk")) {
      chunks.add(f[1] + "\t" + f[2]);
    } else if (f.length == 4 && f[0].equals("page")) {
      pageEnds.put(f[1], f[2]);
      pageCounts.put(f[1], Long.parseLong(f[3]));
    }
  }

  /** The page start to resume scanning from: the end of the chain of completed pages. */
  public synchronized String resumeFrom() {
    String start = KeyText.START;
    Set<String> seen = new HashSet<>();
    while (pageEnds.containsKey(start) && seen.add(start)) {
      start = pageEnds.get(start);
    }
    return start;
  }

  /** Items of the completed pages before {@link #resumeFrom()}. */
  public synchronized long itemsBeforeResume() {
    long n = 0;
    String start = KeyText.START;
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

  /** True if chunk {@code index} of the page starting after {@code start} was written. */
  public synchronized boolean chunkDone(String start, int index) {
    return chunks.contains(start + "\t" + index);
  }

  /** Records a written chunk. */
  public synchronized void chunk(String start, int index) {
    chunks.add(start + "\t" + index);
    append("chunk\t" + start + "\t" + index);
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
