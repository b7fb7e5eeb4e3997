package dev.stowage.local.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The catalogue of tables in the file: each logical table's id and recorded layout, read inside the
 * caller's transaction so that every process sees tables created, changed and dropped by the
 * others. Decoded layouts are cached by their recorded bytes. Thread-safe.
 */
public final class Tables {
  /** A table as recorded: its id and layout. */
  public record Stored(long id, TableLayout layout) {}

  private record Cached(byte[] bytes, TableLayout layout) {}

  private final Map<Long, Cached> layouts = new ConcurrentHashMap<>();

  /** The table, or null if it does not exist. */
  public Stored find(Connection c, TableRef ref) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT id, layout FROM stowage_tables WHERE namespace = ? AND name = ?")) {
      s.setString(1, ref.namespace());
      s.setString(2, ref.table());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        long id = r.getLong(1);
        byte[] bytes = r.getBytes(2);
        Cached cached = layouts.get(id);
        if (cached == null || !Arrays.equals(cached.bytes(), bytes)) {
          cached = new Cached(bytes, LayoutCodec.decode(ref, bytes));
          layouts.put(id, cached);
        }
        return new Stored(id, cached.layout());
      }
    }
  }

  /** The table. @throws NotFoundException if it does not exist */
  public Stored require(Connection c, TableRef ref) throws SQLException {
    Stored t = find(c, ref);
    if (t == null) {
      throw new NotFoundException("table '" + ref + "' does not exist");
    }
    return t;
  }

  /**
   * Creates the table, or adds the layout's indexes it lacks and rebuilds native indexes whose
   * attributes changed, filling them from the items already stored (online backfill, in this one
   * transaction). Indexes the table has and the layout does not name are kept and maintained: a
   * process with an older spec must not drop an index another one relies on.
   */
  public void ensure(Connection c, TableLayout layout) throws SQLException {
    Stored existing = find(c, layout.ref());
    if (existing == null) {
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO stowage_tables(namespace, name, layout) VALUES (?, ?, ?)")) {
        s.setString(1, layout.ref().namespace());
        s.setString(2, layout.ref().table());
        s.setBytes(3, LayoutCodec.encode(layout));
        s.executeUpdate();
      }
      return;
    }
    TableLayout old = existing.layout();
    if (!old.keySchema().equals(layout.keySchema())) {
      throw new InvalidRequestException(
          "table '"
              + layout.ref()
              + "' exists with key schema "
              + old.keySchema()
              + ", not "
              + layout.keySchema());
    }
    List<IndexLayout> merged = new ArrayList<>(layout.indexes());
    List<IndexLayout> rebuild = new ArrayList<>();
    for (IndexLayout i : layout.indexes()) {
      IndexLayout was = old.index(i.name()).orElse(null);
      if (was == null || !was.sameKeys(i)) {
        rebuild.add(i);
      }
    }
    for (IndexLayout i : old.indexes()) {
      if (layout.index(i.name()).isEmpty()) {
        merged.add(i);
      }
    }
    TableLayout next =
        new TableLayout(
            layout.ref(),
            layout.keySchema(),
            merged,
            layout.adoptedName(),
            layout.descendingQueries());
    for (IndexLayout i : rebuild) {
      backfill(c, existing.id(), i);
    }
    try (PreparedStatement s =
        c.prepareStatement("UPDATE stowage_tables SET layout = ? WHERE id = ?")) {
      s.setBytes(1, LayoutCodec.encode(next));
      s.setLong(2, existing.id());
      s.executeUpdate();
    }
  }

  private static void backfill(Connection c, long table, IndexLayout index) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("DELETE FROM stowage_index_entries WHERE tbl = ? AND ix = ?")) {
      s.setLong(1, table);
      s.setString(2, index.name());
      s.executeUpdate();
    }
    try (PreparedStatement s =
        c.prepareStatement("SELECT pk, sk, token, item FROM stowage_items WHERE tbl = ?")) {
      s.setLong(1, table);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          var item = ItemRows.decode(r.getLong(3), r.getBytes(4)).item();
          ItemRows.Placement at = ItemRows.placement(index, item);
          if (at != null) {
            ItemRows.addEntry(c, table, index, at, r.getBytes(1), r.getBytes(2));
          }
        }
      }
    }
  }

  /**
   * Checks that the table exists and agrees with {@code layout}, as the memory driver checks.
   *
   * @throws NotFoundException if it does not exist
   * @throws InvalidRequestException listing every difference
   */
  public void open(Connection c, TableLayout layout) throws SQLException {
    Stored existing = find(c, layout.ref());
    if (existing == null) {
      throw new NotFoundException(
          "table '"
              + layout.ref()
              + "' does not exist; create it with Stowage.ensureTable (opening never creates)");
    }
    TableLayout live = existing.layout();
    List<String> problems = layout.differencesFrom(live);
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "table '" + layout.ref() + "' disagrees with its spec: " + String.join("; ", problems));
    }
  }

  /** Deletes the table's items, index entries and record; nothing if it does not exist. */
  public void drop(Connection c, TableRef ref) throws SQLException {
    Stored t = find(c, ref);
    if (t == null) {
      return;
    }
    for (String sql :
        List.of(
            "DELETE FROM stowage_index_entries WHERE tbl = ?",
            "DELETE FROM stowage_items WHERE tbl = ?",
            "DELETE FROM stowage_tables WHERE id = ?")) {
      try (PreparedStatement s = c.prepareStatement(sql)) {
        s.setLong(1, t.id());
        s.executeUpdate();
      }
    }
    layouts.remove(t.id());
  }
}
