package dev.stowage.local.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Queries and scans as SQL over the ordered key bytes: the same order, ranges and resume positions
 * as the memory driver's ordered maps. Reads stop at the limit plus one row, which tells whether
 * more follow. Stateless.
 */
final class Reads {
  private Reads() {}

  static QueryResult query(Connection c, long table, TableLayout layout, DriverQuery q)
      throws SQLException {
    return q.index() == null ? primary(c, table, layout, q) : index(c, table, layout, q);
  }

  private static QueryResult primary(Connection c, long table, TableLayout layout, DriverQuery q)
      throws SQLException {
    StringBuilder sql =
        new StringBuilder("SELECT token, item FROM stowage_items WHERE tbl = ? AND pk = ?");
    List<byte[]> args = new ArrayList<>();
    args.add(KeyBytes.of(q.partition()));
    KeyRange r = q.range();
    if (layout.keySchema().hasSort()) {
      bounds(sql, args, "sk", r);
    }
    String dir = q.descending() ? " DESC" : "";
    if (q.exclusiveStart() != null) {
      sql.append(q.descending() ? " AND sk < ?" : " AND sk > ?");
      args.add(KeyBytes.of(q.exclusiveStart().key().sortOrNull()));
    }
    sql.append(" ORDER BY sk").append(dir).append(" LIMIT ?");
    try (PreparedStatement s = c.prepareStatement(sql.toString())) {
      int n = bind(s, table, args);
      s.setInt(n, q.limit() + 1);
      return take(s, q.limit(), null);
    }
  }

  private static QueryResult index(Connection c, long table, TableLayout layout, DriverQuery q)
      throws SQLException {
    IndexLayout il = layout.index(q.index()).orElseThrow();
    StringBuilder sql =
        new StringBuilder(
            "SELECT i.token, i.item, e.isk FROM stowage_index_entries e JOIN stowage_items i"
                + " ON i.tbl = e.tbl AND i.pk = e.pk AND i.sk = e.sk"
                + " WHERE e.tbl = ? AND e.ix = ? AND e.ipk = ?");
    List<byte[]> args = new ArrayList<>();
    KeyRange r = q.range();
    byte[] prefix = null;
    if (il.sortAttribute() != null) {
      bounds(sql, args, "e.isk", r);
      prefix = prefixBytes(r.prefix());
    }
    String dir = q.descending() ? " DESC" : "";
    if (q.exclusiveStart() != null) {
      sql.append(
          q.descending()
              ? " AND (e.isk, e.pk, e.sk) < (?, ?, ?)"
              : " AND (e.isk, e.pk, e.sk) > (?, ?, ?)");
      KeyValue sort = il.sortAttribute() == null ? null : q.exclusiveStart().indexSort();
      args.add(KeyBytes.of(sort));
      args.add(KeyBytes.of(q.exclusiveStart().key().partition()));
      args.add(KeyBytes.of(q.exclusiveStart().key().sortOrNull()));
    }
    sql.append(" ORDER BY e.isk")
        .append(dir)
        .append(", e.pk")
        .append(dir)
        .append(", e.sk")
        .append(dir);
    try (PreparedStatement s = c.prepareStatement(sql.toString())) {
      s.setLong(1, table);
      s.setString(2, il.name());
      s.setBytes(3, KeyBytes.of(q.partition()));
      for (int k = 0; k < args.size(); k++) {
        s.setBytes(4 + k, args.get(k));
      }
      return take(s, q.limit(), prefix);
    }
  }

  static QueryResult scan(Connection c, long table, DriverScan scan) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT token, item FROM stowage_items WHERE tbl = ?");
    List<byte[]> args = new ArrayList<>();
    if (scan.exclusiveStart() != null) {
      sql.append(" AND (pk, sk) > (?, ?)");
      args.add(KeyBytes.of(scan.exclusiveStart().partition()));
      args.add(KeyBytes.of(scan.exclusiveStart().sortOrNull()));
    }
    sql.append(" ORDER BY pk, sk LIMIT ?");
    try (PreparedStatement s = c.prepareStatement(sql.toString())) {
      s.setLong(1, table);
      for (int k = 0; k < args.size(); k++) {
        s.setBytes(2 + k, args.get(k));
      }
      s.setInt(2 + args.size(), scan.limit() + 1);
      return take(s, scan.limit(), null);
    }
  }

  private static void bounds(StringBuilder sql, List<byte[]> args, String column, KeyRange r) {
    if (r.lower() != null) {
      sql.append(" AND ").append(column).append(r.lowerInclusive() ? " >= ?" : " > ?");
      args.add(KeyBytes.of(r.lower()));
    }
    if (r.upper() != null) {
      sql.append(" AND ").append(column).append(r.upperInclusive() ? " <= ?" : " < ?");
      args.add(KeyBytes.of(r.upper()));
    }
  }

  private static int bind(PreparedStatement s, long table, List<byte[]> args) throws SQLException {
    s.setLong(1, table);
    int n = 2;
    for (byte[] a : args) {
      s.setBytes(n++, a);
    }
    return n;
  }

  /** A string or binary prefix as the bytes its values start with, or null. */
  private static byte[] prefixBytes(KeyValue prefix) {
    return prefix instanceof AttributeValue.StringValue
            || prefix instanceof AttributeValue.BinaryValue
        ? KeyBytes.of(prefix)
        : null;
  }

  /**
   * Reads up to {@code limit} items (skipping index entries outside {@code prefix}, whose range
   * bounds are exact anyway) and whether another follows.
   */
  private static QueryResult take(PreparedStatement s, int limit, byte[] prefix)
      throws SQLException {
    List<StoredItem> out = new ArrayList<>();
    try (ResultSet r = s.executeQuery()) {
      while (r.next()) {
        if (prefix != null && !startsWith(r.getBytes(3), prefix)) {
          continue;
        }
        if (out.size() == limit) {
          return new QueryResult(out, true);
        }
        out.add(ItemRows.decode(r.getLong(1), r.getBytes(2)));
      }
    }
    return new QueryResult(out, false);
  }

  private static boolean startsWith(byte[] value, byte[] prefix) {
    if (value.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (value[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
