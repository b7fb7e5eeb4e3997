package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Batch;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.Item;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes: unconditional ones as plain mutations (an unconditional put returns the previous item as
 * it read it for its template), conditional ones (and deletes returning the previous item) as
 * read-check-write inside one Datastore transaction that is committed or rolled back, never retried
 * here. Thread-safe.
 */
public final class Writes {
  private final Datastore datastore;
  private final Entities entities;
  private final KeyLocks locks = new KeyLocks();
  private final Billing billing;

  /** Writes through this client, reporting billable operations to {@code billing}. */
  public Writes(Datastore datastore, Entities entities, Billing billing) {
    this.datastore = datastore;
    this.entities = entities;
    this.billing = billing;
  }

  /** Stores an item if the expectation holds. */
  public WriteResult put(TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
    String token = Entities.newToken();
    dev.stowage.item.Key itemKey = table.keySchema().keyOf(item);
    Key key = entities.key(table, itemKey);
    if (expect instanceof Expectation.Any) {
      try {
        // The stored entity is only the template of native value types (see Values): the one this
        // driver last read or wrote; on an adopted kind, which other applications write, one it
        // does not remember is read (outside a transaction: a write racing in between changes no
        // outcome). On Stowage's own kinds an entity it does not remember is written in Stowage's
        // own form, as a blind overwrite. A caller that needs the previous item (a blob store is
        // configured) gets the entity this driver last wrote under the key, and only when it
        // remembers none is the entity read first: a version another client wrote since is
        // replaced unseen (see StorageDriver#put and docs/FORMAT.md). Reads do not count here: one
        // that raced an earlier write of this driver may have returned an older version.
        int reads = 0;
        Entity template = entities.template(key);
        Entity previous = returnPrevious ? entities.lastWritten(key) : null;
        if ((returnPrevious && previous == null) || (template == null && table.adopted())) {
          template = datastore.get(key);
          reads++;
          if (returnPrevious) {
            previous = template;
          }
        }
        Entity written = entities.toEntity(table, item, itemKey, key, token, template);
        datastore.put(written);
        billing.ops(table.ref(), reads, 1, 0);
        entities.written(written);
        return new WriteResult(previous(table, previous, returnPrevious), token);
      } catch (DatastoreException e) {
        throw Errors.translate(writing(table, itemKey), e);
      }
    }
    String what = writing(table, itemKey);
    return locks.withLocks(
        List.of(key),
        () -> {
          Transaction tx = datastore.newTransaction();
          try {
            Entity previous = tx.get(key);
            check(expect, previous, what);
            Entity written = entities.toEntity(table, item, itemKey, key, token, previous);
            tx.put(written);
            tx.commit();
            billing.ops(table.ref(), 1, 1, 0);
            entities.written(written);
            return new WriteResult(previous(table, previous, returnPrevious), token);
          } catch (DatastoreException e) {
            throw Errors.translate(what, e);
          } finally {
            Transactions.rollbackQuietly(tx);
          }
        });
  }

  /** Deletes an item if the expectation holds. */
  public WriteResult delete(
      TableLayout table, dev.stowage.item.Key key, Expectation expect, boolean returnPrevious) {
    Key dsKey = entities.key(table, key);
    String what = "deleting " + Entities.describe(table) + " " + key;
    if (expect instanceof Expectation.Any && !returnPrevious) {
      try {
        entities.deleted(dsKey);
        datastore.delete(dsKey);
        billing.ops(table.ref(), 0, 0, 1);
        return new WriteResult(Optional.empty(), null);
      } catch (DatastoreException e) {
        throw Errors.translate(what, e);
      }
    }
    return locks.withLocks(
        List.of(dsKey),
        () -> {
          Transaction tx = datastore.newTransaction();
          try {
            Entity previous = tx.get(dsKey);
            check(expect, previous, what);
            if (previous != null) {
              tx.delete(dsKey);
            }
            tx.commit();
            billing.ops(table.ref(), 1, 0, previous != null ? 1 : 0);
            entities.deleted(dsKey);
            return new WriteResult(previous(table, previous, returnPrevious), null);
          } catch (DatastoreException e) {
            throw Errors.translate(what, e);
          } finally {
            Transactions.rollbackQuietly(tx);
          }
        });
  }

  /**
   * Applies unconditional writes in one non-transactional commit.
   *
   * @param remember whether the written entities are kept as the templates of later writes (else
   *     what was kept under their keys is forgotten: copies are written once)
   */
  public BatchWriteResult batch(TableLayout table, List<WriteOp> writes, boolean remember) {
    try {
      // Each write's Datastore key is computed once (its name encodes the item key; a put's is
      // the key of the item it stores), and the puts' tokens come from one draw of the random
      // source.
      int n = writes.size();
      dev.stowage.item.Key[] itemKeys = new dev.stowage.item.Key[n];
      Key[] keys = new Key[n];
      int puts = 0;
      for (int i = 0; i < n; i++) {
        WriteOp w = writes.get(i);
        if (w instanceof WriteOp.Put p) {
          itemKeys[i] = table.keySchema().keyOf(p.item());
          puts++;
        } else {
          itemKeys[i] = w.key();
        }
        keys[i] = entities.key(table, itemKeys[i]);
      }
      // The replaced entities are the templates of native value types (see Values), as for
      // single puts: the remembered ones, and on an adopted kind the others read.
      Map<Key, Entity> previous = new HashMap<>();
      List<Key> unknown = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (writes.get(i) instanceof WriteOp.Put) {
          Entity t = entities.template(keys[i]);
          if (t != null) {
            previous.put(keys[i], t);
          } else if (table.adopted()) {
            unknown.add(keys[i]);
          }
        }
      }
      if (!unknown.isEmpty()) {
        datastore
            .get(unknown.toArray(new Key[0]))
            .forEachRemaining(e -> previous.put(e.getKey(), e));
      }
      String[] tokens = Entities.newTokens(puts);
      Batch batch = datastore.newBatch();
      List<Entity> written = new ArrayList<>(puts);
      List<Key> deleted = new ArrayList<>(n - puts);
      for (int i = 0; i < n; i++) {
        WriteOp w = writes.get(i);
        Key key = keys[i];
        if (w instanceof WriteOp.Put p) {
          Entity e =
              entities.toEntity(
                  table, p.item(), itemKeys[i], key, tokens[written.size()], previous.get(key));
          batch.put(e);
          written.add(e);
        } else {
          batch.delete(key);
          deleted.add(key);
        }
      }
      deleted.forEach(entities::deleted);
      batch.submit();
      billing.ops(table.ref(), unknown.size(), written.size(), deleted.size());
      if (remember) {
        written.forEach(entities::written);
      } else {
        written.forEach(e -> entities.deleted(e.getKey()));
      }
      return BatchWriteResult.DONE;
    } catch (DatastoreException e) {
      throw Errors.translate("batch write to " + Entities.describe(table), e);
    }
  }

  /** Applies the operations in one transaction, checking every expectation first. */
  public void transact(List<TableLayout> layouts, List<TxOp> ops) {
    Map<TableRef, TableLayout> byRef = new HashMap<>();
    layouts.forEach(l -> byRef.put(l.ref(), l));
    List<Key> keys = new ArrayList<>();
    for (TxOp op : ops) {
      if (!byRef.containsKey(op.table())) {
        throw new InvalidRequestException("no layout given for table " + op.table());
      }
      keys.add(entities.key(byRef.get(op.table()), op.key()));
    }
    locks.withLocks(keys, () -> transactLocked(byRef, keys, ops));
  }

  private Void transactLocked(Map<TableRef, TableLayout> byRef, List<Key> keys, List<TxOp> ops) {
    Transaction tx = datastore.newTransaction();
    try {
      Map<Key, Entity> current = new HashMap<>();
      List<Entity> written = new ArrayList<>();
      Iterator<Entity> found = tx.get(keys.toArray(new Key[0]));
      found.forEachRemaining(e -> current.put(e.getKey(), e));
      for (int i = 0; i < ops.size(); i++) {
        TxOp op = ops.get(i);
        String what = "transaction on " + op.table() + " " + op.key();
        check(op.expect(), current.get(keys.get(i)), what);
        if (op instanceof TxOp.Put p) {
          Entity e =
              entities.toEntity(
                  byRef.get(p.table()), p.item(), Entities.newToken(), current.get(keys.get(i)));
          tx.put(e);
          written.add(e);
        } else if (op instanceof TxOp.Delete) {
          tx.delete(keys.get(i));
          entities.deleted(keys.get(i));
        }
        // A Check was verified above; the transaction keeps it true until commit.
      }
      tx.commit();
      for (int i = 0; i < ops.size(); i++) {
        TxOp op = ops.get(i);
        billing.ops(
            op.table(), 1, op instanceof TxOp.Put ? 1 : 0, op instanceof TxOp.Delete ? 1 : 0);
      }
      written.forEach(entities::written);
      return null;
    } catch (DatastoreException e) {
      throw Errors.translate("transaction of " + ops.size() + " operations", e);
    } finally {
      Transactions.rollbackQuietly(tx);
    }
  }

  private static String writing(TableLayout table, dev.stowage.item.Key key) {
    return "writing " + Entities.describe(table) + " " + key;
  }

  private Optional<StoredItem> previous(TableLayout table, Entity previous, boolean wanted) {
    return wanted && previous != null
        ? Optional.of(entities.replaced(table, previous))
        : Optional.empty();
  }

  private static void check(Expectation expect, Entity current, String what) {
    if (expect instanceof Expectation.Absent && current != null) {
      throw new ConditionFailedException(what + ": the item already exists");
    }
    if (expect instanceof Expectation.Token t) {
      if (current == null) {
        throw new ConditionFailedException(what + ": the item does not exist");
      }
      String stored = current.contains(Entities.TOKEN) ? current.getString(Entities.TOKEN) : "";
      if (!stored.equals(t.token())) {
        throw new ConditionFailedException(what + ": the item changed (token mismatch)");
      }
    }
  }
}
