package dev.stowage.local.internal;

import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.CanonicalEncoding;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * Reads and writes the rows of one item: its row in {@code stowage_items} and its entries in {@code
 * stowage_index_entries}, kept in step inside the caller's transaction. Stateless.
 */
final class ItemRows {
  private ItemRows() {}

  /** An item's row: its token and encoded attributes. */
  record Row(long token, byte[] bytes) {
    StoredItem stored() {
      return decode(token, bytes);
    }
  }

  /** Where an item sits in one index: partition and sort bytes. */
  record Placement(byte[] partition, byte[] sort) {
    boolean same(Placement o) {
      return o != null && Arrays.equals(partition, o.partition) && Arrays.equals(sort, o.sort);
    }
  }

  static StoredItem decode(long token, byte[] bytes) {
    AttributeValue.MapValue m = (AttributeValue.MapValue) CanonicalEncoding.decode(bytes);
    return new StoredItem(StoredItems.of(m.values()), Long.toString(token));
  }

  static Row read(Connection c, long table, Key key) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT token, item FROM stowage_items WHERE tbl = ? AND pk = ? AND sk = ?")) {
      s.setLong(1, table);
      s.setBytes(2, KeyBytes.of(key.partition()));
      s.setBytes(3, KeyBytes.of(key.sortOrNull()));
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? new Row(r.getLong(1), r.getBytes(2)) : null;
      }
    }
  }

  /** Takes {@code n} fresh tokens from the file's counter and returns the first. */
  static long tokens(Connection c, int n) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "UPDATE stowage_meta SET value = value + ? WHERE name = 'version' RETURNING value")) {
      s.setLong(1, n);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getLong(1) - n + 1;
      }
    }
  }

  /**
   * Stores {@code item} under {@code key} with {@code token}, replacing {@code old} (the current
   * row, or null), and moves its index entries. Checks the item against the limits first, as the
   * memory driver does.
   */
  static void write(
      Connection c,
      long table,
      TableLayout layout,
      DriverLimits limits,
      Key key,
      Item item,
      Row old,
      long token)
      throws SQLException {
    long size = limits.sizeModel().itemBytes(item);
    if (size > limits.maxItemBytes() || item.size() > limits.maxAttributes()) {
      throw new ItemTooLargeException(
          "item "
              + key
              + " of "
              + size
              + " bytes and "
              + item.size()
              + " attributes exceeds the local store's limits");
    }
    byte[] pk = KeyBytes.of(key.partition());
    byte[] sk = KeyBytes.of(key.sortOrNull());
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO stowage_items(tbl, pk, sk, token, item) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT(tbl, pk, sk) DO UPDATE SET token = excluded.token,"
                + " item = excluded.item")) {
      s.setLong(1, table);
      s.setBytes(2, pk);
      s.setBytes(3, sk);
      s.setLong(4, token);
      s.setBytes(5, CanonicalEncoding.encode(item));
      s.executeUpdate();
    }
    if (layout.indexes().isEmpty()) {
      return;
    }
    Item previous = old == null ? null : old.stored().item();
    for (IndexLayout i : layout.indexes()) {
      Placement was = previous == null ? null : placement(i, previous);
      Placement now = placement(i, item);
      if (now != null && now.same(was)) {
        continue;
      }
      if (was != null) {
        removeEntry(c, table, i, was, pk, sk);
      }
      if (now != null) {
        addEntry(c, table, i, now, pk, sk);
      }
    }
  }

  /** Deletes the item's row and index entries; {@code old} is its current row (not null). */
  static void remove(Connection c, long table, TableLayout layout, Key key, Row old)
      throws SQLException {
    byte[] pk = KeyBytes.of(key.partition());
    byte[] sk = KeyBytes.of(key.sortOrNull());
    try (PreparedStatement s =
        c.prepareStatement("DELETE FROM stowage_items WHERE tbl = ? AND pk = ? AND sk = ?")) {
      s.setLong(1, table);
      s.setBytes(2, pk);
      s.setBytes(3, sk);
      s.executeUpdate();
    }
    if (layout.indexes().isEmpty()) {
      return;
    }
    Item previous = old.stored().item();
    for (IndexLayout i : layout.indexes()) {
      Placement was = placement(i, previous);
      if (was != null) {
        removeEntry(c, table, i, was, pk, sk);
      }
    }
  }

  static void addEntry(Connection c, long table, IndexLayout i, Placement at, byte[] pk, byte[] sk)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT OR REPLACE INTO stowage_index_entries(tbl, ix, ipk, isk, pk, sk)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      s.setLong(1, table);
      s.setString(2, i.name());
      s.setBytes(3, at.partition());
      s.setBytes(4, at.sort());
      s.setBytes(5, pk);
      s.setBytes(6, sk);
      s.executeUpdate();
    }
  }

  private static void removeEntry(
      Connection c, long table, IndexLayout i, Placement at, byte[] pk, byte[] sk)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "DELETE FROM stowage_index_entries WHERE tbl = ? AND ix = ? AND ipk = ? AND isk = ?"
                + " AND pk = ? AND sk = ?")) {
      s.setLong(1, table);
      s.setString(2, i.name());
      s.setBytes(3, at.partition());
      s.setBytes(4, at.sort());
      s.setBytes(5, pk);
      s.setBytes(6, sk);
      s.executeUpdate();
    }
  }

  /**
   * Where an item sits in an index, or null if it is not in it: it lacks an index attribute, or
   * holds a value of another type there (as a backend indexes only values of its declared types).
   */
  static Placement placement(IndexLayout i, Item item) {
    KeyValue p = typed(item, i.partitionAttribute(), i.partitionType());
    if (p == null) {
      return null;
    }
    if (i.sortAttribute() == null) {
      return new Placement(KeyBytes.of(p), KeyBytes.NONE);
    }
    KeyValue s = typed(item, i.sortAttribute(), i.sortType());
    return s == null ? null : new Placement(KeyBytes.of(p), KeyBytes.of(s));
  }

  private static KeyValue typed(Item item, String name, AttributeType type) {
    return item.find(name).orElse(null) instanceof KeyValue k && k.type() == type ? k : null;
  }
}
