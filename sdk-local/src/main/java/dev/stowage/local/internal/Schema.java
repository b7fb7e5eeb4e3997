package dev.stowage.local.internal;

import dev.stowage.InvalidRequestException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The file's tables (see docs/local.md, "The file"):
 *
 * <ul>
 *   <li>{@code stowage_meta}: the format version and the counter that gives every write its token;
 *   <li>{@code stowage_tables}: one row per logical table of a namespace, with its recorded layout
 *       (ids are never reused, so a dropped table's rows can never reappear in a new one);
 *   <li>{@code stowage_items}: every item as its canonical encoding, keyed by table id and the
 *       order-preserving bytes of its partition and sort values ({@link KeyBytes});
 *   <li>{@code stowage_index_entries}: one row per item in each index, ordered by index partition,
 *       index sort value and primary key, as index queries return them.
 * </ul>
 */
final class Schema {
  static final int FORMAT = 1;

  private Schema() {}

  static Void create(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS stowage_meta("
              + "name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
      s.execute(
          "INSERT OR IGNORE INTO stowage_meta(name, value) VALUES ('format', " + FORMAT + ")");
      s.execute("INSERT OR IGNORE INTO stowage_meta(name, value) VALUES ('version', 0)");
      s.execute(
          "CREATE TABLE IF NOT EXISTS stowage_tables("
              + "id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL,"
              + " name TEXT NOT NULL, layout BLOB NOT NULL, UNIQUE(namespace, name))");
      s.execute(
          "CREATE TABLE IF NOT EXISTS stowage_items("
              + "id INTEGER PRIMARY KEY, tbl INTEGER NOT NULL, pk BLOB NOT NULL,"
              + " sk BLOB NOT NULL, token INTEGER NOT NULL, item BLOB NOT NULL)");
      s.execute(
          "CREATE UNIQUE INDEX IF NOT EXISTS stowage_items_key ON stowage_items(tbl, pk, sk)");
      s.execute(
          "CREATE TABLE IF NOT EXISTS stowage_index_entries("
              + "tbl INTEGER NOT NULL, ix TEXT NOT NULL, ipk BLOB NOT NULL, isk BLOB NOT NULL,"
              + " pk BLOB NOT NULL, sk BLOB NOT NULL, PRIMARY KEY(tbl, ix, ipk, isk, pk, sk))"
              + " WITHOUT ROWID");
      try (ResultSet r = s.executeQuery("SELECT value FROM stowage_meta WHERE name = 'format'")) {
        r.next();
        if (r.getInt(1) != FORMAT) {
          throw new InvalidRequestException(
              "the local store file has format "
                  + r.getInt(1)
                  + "; this version of Stowage reads format "
                  + FORMAT);
        }
      }
    }
    return null;
  }
}
