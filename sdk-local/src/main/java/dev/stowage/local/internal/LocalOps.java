package dev.stowage.local.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The driver's operations on the file, each one transaction: writes read the current row, check the
 * expectation and write inside one write transaction; reads run in one read transaction. Index
 * entries are maintained from the table's recorded layout, so every process maintains the same
 * indexes. Thread-safe.
 */
public final class LocalOps {
  private final Database db;
  private final DriverLimits limits;
  private final Tables tables = new Tables();

  /** Operations on {@code db} under {@code limits}. */
  public LocalOps(Database db, DriverLimits limits) {
    this.db = db;
    this.limits = limits;
  }

  public void ensureTable(TableLayout layout) {
    db.write(
        c -> {
          tables.ensure(c, layout);
          return null;
        });
  }

  public void openTable(TableLayout layout) {
    db.read(
        c -> {
          tables.open(c, layout);
          return null;
        });
  }

  public void dropTable(TableRef ref) {
    db.write(
        c -> {
          tables.drop(c, ref);
          return null;
        });
  }

  public Optional<StoredItem> get(TableLayout table, Key key) {
    return db.read(
        c -> {
          ItemRows.Row row = ItemRows.read(c, tables.require(c, table.ref()).id(), key);
          return row == null ? Optional.empty() : Optional.of(row.stored());
        });
  }

  public List<StoredItem> batchGet(TableLayout table, List<Key> keys) {
    return db.read(
        c -> {
          long id = tables.require(c, table.ref()).id();
          List<StoredItem> found = new ArrayList<>();
          for (Key k : keys) {
            ItemRows.Row row = ItemRows.read(c, id, k);
            if (row != null) {
              found.add(row.stored());
            }
          }
          return found;
        });
  }

  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    Key key = table.keySchema().keyOf(item);
    return db.write(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          ItemRows.Row old = ItemRows.read(c, t.id(), key);
          check(key, old, expect);
          long token = ItemRows.tokens(c, 1);
          ItemRows.write(c, t.id(), t.layout(), limits, key, item, old, token);
          return new WriteResult(previous(old, returnPrevious), Long.toString(token));
        });
  }

  public WriteResult delete(
      TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
    return db.write(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          ItemRows.Row old = ItemRows.read(c, t.id(), key);
          check(key, old, expect);
          if (old != null) {
            ItemRows.remove(c, t.id(), t.layout(), key, old);
          }
          return new WriteResult(previous(old, returnPrevious), null);
        });
  }

  public void batchWrite(TableLayout table, List<WriteOp> writes) {
    db.write(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          long token = ItemRows.tokens(c, writes.size());
          for (WriteOp op : writes) {
            ItemRows.Row old = ItemRows.read(c, t.id(), op.key());
            if (op instanceof WriteOp.Put p) {
              ItemRows.write(c, t.id(), t.layout(), limits, p.key(), p.item(), old, token++);
            } else if (old != null) {
              ItemRows.remove(c, t.id(), t.layout(), op.key(), old);
            }
          }
          return null;
        });
  }

  public QueryResult query(TableLayout table, DriverQuery query) {
    return db.read(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          // Index queries name an index of the caller's layout; the recorded one holds it too
          // once the table was ensured with it.
          TableLayout layout = query.index() == null ? table : t.layout();
          if (query.index() != null && layout.index(query.index()).isEmpty()) {
            throw new dev.stowage.InvalidRequestException(
                "table '" + table.ref() + "' has no index '" + query.index() + "'");
          }
          return Reads.query(c, t.id(), layout, query);
        });
  }

  public QueryResult scan(TableLayout table, DriverScan scan) {
    return db.read(c -> Reads.scan(c, tables.require(c, table.ref()).id(), scan));
  }

  /** Plans a segmented scan over the table's recorded layout (one consistent snapshot). */
  public List<dev.stowage.spi.ScanSegment> segments(TableLayout table, String index, int total) {
    return db.read(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          return Segments.plan(c, t.id(), index == null ? table : t.layout(), index, total);
        });
  }

  /** Reads one page of a segment. */
  public dev.stowage.spi.SegmentPage scanSegment(
      TableLayout table, dev.stowage.spi.SegmentScan scan) {
    return db.read(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          return Segments.scan(
              c, t.id(), scan.segment().index() == null ? table : t.layout(), scan);
        });
  }

  /** Splits the unread part of a segment (one consistent snapshot). */
  public java.util.Optional<dev.stowage.spi.SegmentSplit> splitSegment(
      TableLayout table, dev.stowage.spi.ScanSegment segment, String checkpoint, double fraction) {
    return db.read(
        c -> {
          Tables.Stored t = tables.require(c, table.ref());
          return Segments.split(
              c,
              t.id(),
              segment.index() == null ? table : t.layout(),
              segment,
              checkpoint,
              fraction);
        });
  }

  /** Checks every expectation, then applies every write, in one transaction. */
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    db.write(
        c -> {
          Map<TableRef, Tables.Stored> byRef = new HashMap<>();
          for (TableLayout l : layouts) {
            byRef.put(l.ref(), tables.require(c, l.ref()));
          }
          List<ItemRows.Row> current = new ArrayList<>();
          for (TxOp op : ops) {
            Tables.Stored t = byRef.get(op.table());
            if (t == null) {
              t = tables.require(c, op.table());
              byRef.put(op.table(), t);
            }
            ItemRows.Row row = ItemRows.read(c, t.id(), op.key());
            check(op.key(), row, op.expect());
            current.add(row);
          }
          long token = ItemRows.tokens(c, ops.size());
          for (int i = 0; i < ops.size(); i++) {
            TxOp op = ops.get(i);
            Tables.Stored t = byRef.get(op.table());
            // An earlier operation of this transaction may have written the same key.
            ItemRows.Row old = ItemRows.read(c, t.id(), op.key());
            if (op instanceof TxOp.Put p) {
              ItemRows.write(c, t.id(), t.layout(), limits, p.key(), p.item(), old, token + i);
            } else if (op instanceof TxOp.Delete && old != null) {
              ItemRows.remove(c, t.id(), t.layout(), op.key(), old);
            }
          }
          return null;
        });
  }

  private static Optional<StoredItem> previous(ItemRows.Row old, boolean wanted) {
    return wanted && old != null ? Optional.of(old.stored()) : Optional.empty();
  }

  private static void check(Key key, ItemRows.Row current, Expectation expect) {
    if (expect instanceof Expectation.Absent && current != null) {
      throw new ConditionFailedException("item " + key + " exists");
    }
    if (expect instanceof Expectation.Token tok
        && (current == null || !Long.toString(current.token()).equals(tok.token()))) {
      throw new ConditionFailedException("item " + key + " changed or is absent");
    }
  }
}
