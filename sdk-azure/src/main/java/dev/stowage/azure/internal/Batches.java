package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * Batch writes and single-partition transactions.
 *
 * <p>Batch writes are grouped by partition into entity-group transactions of at most 100 actions
 * and under 4 MiB (each item with a mirror row takes two actions), partitions in parallel. A delete
 * of a missing item fails a whole Azure transaction with 404, so that action is dropped and the
 * rest resubmitted. On tables with indexes the batch keeps {@link ItemWriter}'s index write order,
 * step by step for the whole batch, and a batch of puts reads the versions it replaces only where
 * Azure refused to create an item because it exists ({@link #batchWriteIndexed}).
 */
public final class Batches {
  /** Azure's limit of actions per entity-group transaction. */
  public static final int MAX_ACTIONS = 100;

  /**
   * Most writes a call of {@code batchWriteCopies} takes ({@link
   * dev.stowage.spi.StorageDriver#maxBatchWriteCopies}): a call's rows are grouped by partition, so
   * a migrator page's copies handed over whole fill their transactions (item rows per data
   * partition, index rows per index partition), where calls of 100 items spanning a few partitions
   * each send transactions of a few dozen rows. 2,000 is 20 full transactions of item rows, enough
   * for the pages migrations read (the Datastore emulator wants pages of 2,000), while a call that
   * fails, which the migrator retries whole, rewrites no more than that.
   */
  public static final int MAX_COPY_WRITES = 2000;

  /** Stay below Azure's 4 MiB transaction body. */
  static final long MAX_BODY_BYTES = 3L * 1024 * 1024;

  private final Tables tables;
  private final ItemStore store;
  private final IndexEntries index;
  private final BatchReads reads;
  private final WriteStep.Hook hook;
  private final ExecutorService executor;
  private final AzureSizeModel sizes = new AzureSizeModel();

  /**
   * Data tables (by Azure name) whose last batch of puts met items that existed: their batches read
   * the replaced versions before writing, until a batch finds none of its items. Only a guess of
   * which path costs fewer requests; both keep the index exact.
   */
  private final Map<String, Boolean> readFirst = new ConcurrentHashMap<>();

  public Batches(
      Tables tables,
      ItemStore store,
      IndexEntries index,
      BatchReads reads,
      WriteStep.Hook hook,
      ExecutorService executor) {
    this.tables = tables;
    this.store = store;
    this.index = index;
    this.reads = reads;
    this.hook = hook;
    this.executor = executor;
  }

  /** See {@link dev.stowage.spi.StorageDriver#batchWrite}. */
  public BatchWriteResult batchWrite(TableLayout layout, List<WriteOp> writes) {
    if (!layout.indexes().isEmpty()) {
      return batchWriteIndexed(layout, writes);
    }
    // The templates of the properties' EDM types, as for single puts (ItemWriter): remembered ones,
    // and on adopted tables the entities read for the others.
    Map<Key, Map<String, Object>> templates = new HashMap<>();
    List<Key> unknown = new ArrayList<>();
    for (WriteOp w : writes) {
      if (w instanceof WriteOp.Put) {
        Map<String, Object> t = store.template(layout, w.key());
        if (t != null) {
          templates.put(w.key(), t);
        } else if (layout.adopted()) {
          unknown.add(w.key());
        }
      }
    }
    if (!unknown.isEmpty()) {
      reads.rows(layout, unknown).forEach((k, r) -> templates.put(k, r.properties()));
    }
    Map<String, List<ItemActions>> byPartition = new LinkedHashMap<>();
    for (WriteOp w : writes) {
      Key key = w.key();
      byPartition
          .computeIfAbsent(AzureKeys.partitionKey(layout, key.partition()), k -> new ArrayList<>())
          .add(
              w instanceof WriteOp.Put p
                  ? putActions(layout, key, p.item(), null, templates.get(key))
                  : deleteActions(layout, key));
    }
    submitByPartition(layout, byPartition);
    return BatchWriteResult.DONE;
  }

  /**
   * A batch on a table with indexes, in the write order of {@link ItemWriter} applied to the whole
   * batch: (1) every new entry is written, (2) the items, (3) the replaced versions' entries are
   * deleted — each step as entity-group transactions per partition, in parallel. A crash between
   * steps leaves only entries that read repair skips and deletes. Items are written
   * unconditionally, as batch writes are; a version written concurrently between the read and the
   * write loses its entries to read repair instead of to step (3).
   *
   * <p>Step (3) needs the replaced versions. A batch of puts first assumes there are none ({@link
   * #batchCreateIndexed}): its items are created, which Azure refuses atomically, per transaction,
   * when one of them exists; only a refused transaction's items are read and replaced. A table
   * whose last batch of puts met existing items is read first instead ({@link #readFirst}), and so
   * are batches with deletes (range reads per partition), as long as batches keep meeting existing
   * items.
   */
  private BatchWriteResult batchWriteIndexed(TableLayout layout, List<WriteOp> writes) {
    boolean putsOnly = writes.stream().allMatch(w -> w instanceof WriteOp.Put);
    String table = Tables.dataName(layout);
    if (putsOnly && !readFirst.containsKey(table)) {
      return batchCreateIndexed(layout, writes);
    }
    Map<Key, Row> previous = reads.rows(layout, writes.stream().map(WriteOp::key).toList());
    if (putsOnly && previous.isEmpty()) {
      readFirst.remove(table);
    }
    List<IndexEntries.Entry> fresh = new ArrayList<>();
    List<IndexEntries.Entry> stale = new ArrayList<>();
    Map<String, List<ItemActions>> byPartition = new LinkedHashMap<>();
    for (WriteOp w : writes) {
      Key key = w.key();
      Row replaced = previous.get(key);
      if (replaced != null) {
        stale.addAll(ItemWriter.staleEntries(layout, key, replaced));
      }
      ItemActions actions;
      if (w instanceof WriteOp.Put p) {
        String nonce = IndexEntries.newNonce();
        fresh.addAll(IndexEntries.entries(layout, key, p.item(), nonce, replaced));
        actions =
            putActions(
                layout, key, p.item(), nonce, replaced == null ? null : replaced.properties());
      } else if (replaced != null) {
        actions = deleteActions(layout, key);
      } else {
        continue;
      }
      byPartition
          .computeIfAbsent(AzureKeys.partitionKey(layout, key.partition()), k -> new ArrayList<>())
          .add(actions);
    }
    index.writeAll(layout, fresh, executor);
    hook.after(WriteStep.NEW_ENTRIES_WRITTEN);
    submitByPartition(layout, byPartition);
    hook.after(WriteStep.ITEM_WRITTEN);
    index.deleteAllQuietly(layout, stale, executor);
    hook.after(WriteStep.STALE_ENTRIES_DELETED);
    return BatchWriteResult.DONE;
  }

  /**
   * A batch of puts on a table with indexes, written as if none of its items existed, which Azure
   * checks: each item is written with a create action, so a transaction holding an item that exists
   * is refused as a whole (409, {@code EntityAlreadyExists}) and writes nothing. The transactions
   * that went in replaced nothing, so they leave no stale entries. The items of refused ones are
   * then read (the replaced versions) and written as {@link #batchWriteIndexed} writes them, under
   * new entries naming the versions they replace (see {@link IndexEntries#isGarbage}), and the
   * replaced versions' entries and those step (1) wrote for them deleted. A batch retried after it
   * landed meets its own items and takes that second path, so retries stay idempotent and leave no
   * entries of the versions they replace.
   */
  private BatchWriteResult batchCreateIndexed(TableLayout layout, List<WriteOp> writes) {
    List<IndexEntries.Entry> fresh = new ArrayList<>();
    Map<String, List<NewItem>> byPartition = new LinkedHashMap<>();
    for (WriteOp w : writes) {
      WriteOp.Put p = (WriteOp.Put) w;
      String nonce = IndexEntries.newNonce();
      fresh.addAll(IndexEntries.entries(layout, p.key(), p.item(), nonce, null));
      byPartition
          .computeIfAbsent(
              AzureKeys.partitionKey(layout, p.key().partition()), k -> new ArrayList<>())
          .add(new NewItem(p.key(), p.item(), nonce, createActions(layout, p, nonce)));
    }
    index.writeAll(layout, fresh, executor);
    hook.after(WriteStep.NEW_ENTRIES_WRITTEN);
    List<List<NewItem>> groups = new ArrayList<>();
    for (List<NewItem> partition : byPartition.values()) {
      groups.addAll(chunk(partition, NewItem::create));
    }
    TableClient client = tables.data(layout);
    List<NewItem> refused = java.util.Collections.synchronizedList(new ArrayList<>());
    Parallel.run(
        executor,
        groups,
        group -> {
          List<TableTransactionAction> actions = new ArrayList<>();
          for (NewItem n : group) {
            actions.addAll(n.create().actions());
          }
          try {
            client.submitTransaction(actions);
          } catch (RuntimeException e) {
            if (AzureErrors.code(e).equals("EntityAlreadyExists")) {
              refused.addAll(group);
              return;
            }
            throw AzureErrors.translate(e, "batch write to " + layout.ref());
          }
          store.applied(layout, actions);
        });
    List<IndexEntries.Entry> stale = new ArrayList<>();
    if (!refused.isEmpty()) {
      readFirst.put(Tables.dataName(layout), Boolean.TRUE);
      // Read on this thread: the range reads run on the executor, whose threads must not wait for
      // tasks queued behind them.
      Map<Key, Row> previous = reads.rows(layout, refused.stream().map(NewItem::key).toList());
      Map<String, List<ItemActions>> again = new LinkedHashMap<>();
      // The entries step (1) wrote say the items were created; the items are replacing the
      // versions read now, so they go under new entries that say so (a query meeting the first
      // ones before the items land takes them for garbage, rightly: they are, from now on).
      List<IndexEntries.Entry> replacing = new ArrayList<>();
      for (NewItem n : refused) {
        Row replaced = previous.get(n.key());
        if (replaced != null) {
          stale.addAll(ItemWriter.staleEntries(layout, n.key(), replaced));
        }
        stale.addAll(IndexEntries.entries(layout, n.key(), n.item(), n.nonce()));
        String nonce = IndexEntries.newNonce();
        replacing.addAll(IndexEntries.entries(layout, n.key(), n.item(), nonce, replaced));
        again
            .computeIfAbsent(
                AzureKeys.partitionKey(layout, n.key().partition()), k -> new ArrayList<>())
            .add(
                putActions(
                    layout,
                    n.key(),
                    n.item(),
                    nonce,
                    replaced == null ? null : replaced.properties()));
      }
      index.writeAll(layout, replacing, executor);
      submitByPartition(layout, again);
    }
    hook.after(WriteStep.ITEM_WRITTEN);
    index.deleteAllQuietly(layout, stale, executor);
    hook.after(WriteStep.STALE_ENTRIES_DELETED);
    return BatchWriteResult.DONE;
  }

  /**
   * A put of {@link #batchCreateIndexed}: the item, the nonce its new entries carry, and the
   * actions creating it.
   */
  private record NewItem(Key key, Item item, String nonce, ItemActions create) {}

  /** An item created (and its mirror row upserted) under the nonce of its entries. */
  private ItemActions createActions(TableLayout layout, WriteOp.Put put, String nonce) {
    return itemActions(
        layout, put.key(), put.item(), nonce, null, TableTransactionActionType.CREATE);
  }

  /** Submits each partition's actions as transactions; partitions in parallel. */
  private void submitByPartition(TableLayout layout, Map<String, List<ItemActions>> byPartition) {
    TableClient client = tables.data(layout);
    List<List<TableTransactionAction>> transactions = new ArrayList<>();
    for (List<ItemActions> perItem : byPartition.values()) {
      transactions.addAll(chunk(perItem));
    }
    Parallel.run(
        executor,
        transactions,
        actions -> {
          submitDroppingMissingDeletes(client, actions, layout.ref());
          store.applied(layout, actions);
        });
  }

  /**
   * Groups one partition's per-item actions (an item and its mirror stay together) into
   * transactions within Azure's action and body limits.
   */
  private static List<List<TableTransactionAction>> chunk(List<ItemActions> perItem) {
    List<List<TableTransactionAction>> chunks = new ArrayList<>();
    for (List<ItemActions> group : chunk(perItem, a -> a)) {
      List<TableTransactionAction> actions = new ArrayList<>();
      for (ItemActions a : group) {
        actions.addAll(a.actions());
      }
      chunks.add(actions);
    }
    return chunks;
  }

  /**
   * Groups one partition's items into transactions within Azure's action and body limits, given
   * each item's actions.
   */
  private static <T> List<List<T>> chunk(List<T> items, Function<T, ItemActions> actionsOf) {
    List<List<T>> chunks = new ArrayList<>();
    List<T> current = new ArrayList<>();
    int actions = 0;
    long bytes = 0;
    for (T item : items) {
      ItemActions a = actionsOf.apply(item);
      if (!current.isEmpty()
          && (actions + a.actions().size() > MAX_ACTIONS || bytes + a.bytes() > MAX_BODY_BYTES)) {
        chunks.add(current);
        current = new ArrayList<>();
        actions = 0;
        bytes = 0;
      }
      current.add(item);
      actions += a.actions().size();
      bytes += a.bytes();
    }
    if (!current.isEmpty()) {
      chunks.add(current);
    }
    return chunks;
  }

  /** The actions writing or deleting one item (and its mirror row), with their body size. */
  private record ItemActions(List<TableTransactionAction> actions, long bytes) {}

  private ItemActions putActions(
      TableLayout layout, Key key, Item item, String nonce, Map<String, Object> template) {
    return itemActions(
        layout, key, item, nonce, template, TableTransactionActionType.UPSERT_REPLACE);
  }

  /**
   * The item row as {@code type} (a create fails the transaction if the row exists) and, for a
   * table with descending order, its mirror row, always replaced.
   */
  private ItemActions itemActions(
      TableLayout layout,
      Key key,
      Item item,
      String nonce,
      Map<String, Object> template,
      TableTransactionActionType type) {
    TableEntity e = ItemStore.entity(layout, key, item, nonce, template);
    TableTransactionAction row = new TableTransactionAction(type, e);
    long bytes = sizes.itemBytes(item);
    if (!tables.mirrored(layout)) {
      return new ItemActions(List.of(row), bytes);
    }
    return new ItemActions(
        List.of(
            row,
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE, ItemStore.mirror(e, key))),
        bytes);
  }

  private ItemActions deleteActions(TableLayout layout, Key key) {
    String pk = AzureKeys.partitionKey(layout, key.partition());
    TableTransactionAction delete =
        new TableTransactionAction(
            TableTransactionActionType.DELETE, new TableEntity(pk, AzureKeys.rowKey(layout, key)));
    if (!tables.mirrored(layout)) {
      return new ItemActions(List.of(delete), 1024);
    }
    return new ItemActions(
        List.of(
            delete,
            new TableTransactionAction(
                TableTransactionActionType.DELETE,
                new TableEntity(pk, AzureKeys.mirrorRowKey(key.sortOrNull())))),
        1024);
  }

  private static void submitDroppingMissingDeletes(
      TableClient client, List<TableTransactionAction> actions, TableRef ref) {
    List<TableTransactionAction> remaining = new ArrayList<>(actions);
    while (!remaining.isEmpty()) {
      try {
        client.submitTransaction(remaining);
        return;
      } catch (TableTransactionFailedException e) {
        Integer failed = e.getFailedTransactionActionIndex();
        if (AzureErrors.status(e) == 404
            && !AzureErrors.code(e).equals("TableNotFound")
            && failed != null
            && remaining.get(failed).getActionType() == TableTransactionActionType.DELETE) {
          remaining.remove((int) failed);
          continue;
        }
        throw AzureErrors.translate(e, "batch write to " + ref);
      } catch (RuntimeException e) {
        throw AzureErrors.translate(e, "batch write to " + ref);
      }
    }
  }

  /** See {@link dev.stowage.spi.StorageDriver#transactWrite}. */
  public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
    if (ops.isEmpty()) {
      return;
    }
    TableRef ref = ops.get(0).table();
    KeyPartition first = new KeyPartition(ref, ops.get(0).key());
    for (TxOp op : ops) {
      if (!op.table().equals(ref)) {
        throw new UnsupportedCapabilityException(
            "CROSS_PARTITION_TRANSACTIONS",
            "Azure Table Storage transactions cover one partition of one table; this one spans"
                + " tables "
                + ref
                + " and "
                + op.table());
      }
      if (!new KeyPartition(ref, op.key()).equals(first)) {
        throw new UnsupportedCapabilityException(
            "CROSS_PARTITION_TRANSACTIONS",
            "Azure Table Storage transactions cover one partition of one table; this one spans"
                + " several partitions of "
                + ref);
      }
    }
    TableLayout layout =
        layouts.stream()
            .filter(l -> l.ref().equals(ref))
            .findFirst()
            .orElseThrow(() -> new InvalidRequestException("no layout given for table " + ref));
    new Transaction(tables, store, index, layout).run(ops);
  }

  private record KeyPartition(TableRef table, Object partition) {
    KeyPartition(TableRef table, Key key) {
      this(table, (Object) key.partition());
    }
  }
}
