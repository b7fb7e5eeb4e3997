package dev.stowage.usage;

import dev.stowage.internal.usage.SnapshotFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A store's usage since tracking started and its hot keys now ({@code Stowage.usage()}), shared by
 * all namespace views of the store. Immutable.
 *
 * <p>{@link #writeTo} and {@link #readFrom} keep it in a small text file (Java properties, format
 * {@code stowage-usage-1}) that {@code stowage top} and {@code stowage cost} read, so another
 * process can watch a running application.
 *
 * @param backend the driver's name, for example {@code dynamodb}
 * @param since when tracking started
 * @param at when the snapshot was taken
 * @param tables usage per table, ordered by namespace and name
 * @param hotKeys rankings per table and index, ordered by namespace, table and index (the table's
 *     own first)
 */
public record UsageSnapshot(
    String backend, Instant since, Instant at, List<TableUsage> tables, List<HotKeys> hotKeys) {

  /** Checks the arguments, copies and orders the lists. */
  public UsageSnapshot {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(at, "at");
    tables =
        tables.stream()
            .sorted(Comparator.comparing(TableUsage::namespace).thenComparing(TableUsage::table))
            .toList();
    hotKeys =
        hotKeys.stream()
            .sorted(
                Comparator.comparing(HotKeys::namespace)
                    .thenComparing(HotKeys::table)
                    .thenComparing(HotKeys::index))
            .toList();
  }

  /** How long usage has been tracked, at least 1 ms (rates divide by it). */
  public Duration observed() {
    Duration d = Duration.between(since, at);
    return d.toMillis() < 1 ? Duration.ofMillis(1) : d;
  }

  /** The usage of one table, if it was used. */
  public Optional<TableUsage> table(String namespace, String table) {
    return tables.stream()
        .filter(t -> t.namespace().equals(namespace) && t.table().equals(table))
        .findFirst();
  }

  /** The hot keys of a table's primary key, if it was used. */
  public Optional<HotKeys> hotKeys(String namespace, String table) {
    return hotKeys(namespace, table, "");
  }

  /** The hot keys of one index of a table ({@code ""}: the primary key), if it was used. */
  public Optional<HotKeys> hotKeys(String namespace, String table, String index) {
    return hotKeys.stream()
        .filter(
            h ->
                h.namespace().equals(namespace)
                    && h.table().equals(table)
                    && h.index().equals(index))
        .findFirst();
  }

  /**
   * Writes this snapshot to {@code file}, replacing it atomically (a reader never sees half a
   * file).
   *
   * @throws IOException if it cannot be written
   */
  public void writeTo(Path file) throws IOException {
    SnapshotFiles.write(this, file);
  }

  /**
   * Reads a snapshot {@link #writeTo} wrote.
   *
   * @throws IOException if it cannot be read or is not a usage snapshot
   */
  public static UsageSnapshot readFrom(Path file) throws IOException {
    return SnapshotFiles.read(file);
  }
}
