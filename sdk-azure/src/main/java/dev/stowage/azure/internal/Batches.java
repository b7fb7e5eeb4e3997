package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * Batch writes and single-partition transactions.
 *
 * <p>Batch writes on tables without indexes are grouped by partition into entity-group transactions
 * of at most 100 actions and under 4 MiB (each item with a sort key takes two actions: item and
 * mirror). A delete of a missing item fails a whole Azure transaction with 404, so that action is
 * dropped and the rest resubmitted. Tables with indexes write item by item through {@link
 * ItemWriter}, keeping the index write order.
 */
public final class Batches {
  /** Azure's limit of actions per entity-group transaction. */
  public static final int MAX_ACTIONS = 100;

  /** Stay below Azure's 4 MiB transaction body. */
  static final long MAX_BODY_BYTES = 3L * 1024 * 1024;

  private final Tables tables;
  private final ItemStore store;
  private final ItemWriter writer;
  private final IndexEntries index;
  private final ExecutorService executor;
  private final AzureSizeModel sizes = new AzureSizeModel();

  public Batches(
      Tables tables,
      ItemStore store,
      ItemWriter writer,
      IndexEntries index,
      ExecutorService executor) {
    this.tables = tables;
    this.store = store;
    this.writer = writer;
    this.index = index;
    this.executor = executor;
  }

  /** See {@link dev.stowage.spi.StorageDriver#batchWrite}. */
  public BatchWriteResult batchWrite(TableLayout layout, List<WriteOp> writes) {
    if (!layout.indexes().isEmpty()) {
      // Keys are distinct, so the per-item writes (each keeping the index write order) run in
      // parallel.
      List<CompletableFuture<Void>> futures = new ArrayList<>(writes.size());
      for (WriteOp w : writes) {
        futures.add(
            CompletableFuture.runAsync(
                () -> {
                  if (w instanceof WriteOp.Put p) {
                    writer.put(layout, p.item(), Expectation.ANY, false);
                  } else {
                    writer.delete(layout, w.key(), Expectation.ANY, false);
                  }
                },
                executor));
      }
      RuntimeException first = null;
      for (CompletableFuture<Void> f : futures) {
        try {
          f.join();
        } catch (CompletionException e) {
          if (first == null) {
            first =
                e.getCause() instanceof RuntimeException re
                    ? re
                    : new UnavailableException("batch write failed", e.getCause());
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return BatchWriteResult.DONE;
    }
    Map<String, List<WriteOp>> byPartition = new LinkedHashMap<>();
    for (WriteOp w : writes) {
      byPartition
          .computeIfAbsent(AzureKeys.partitionKey(w.key().partition()), k -> new ArrayList<>())
          .add(w);
    }
    TableClient client = tables.data(layout.ref());
    for (List<WriteOp> group : byPartition.values()) {
      List<List<TableTransactionAction>> chunks = chunk(layout, group);
      for (List<TableTransactionAction> chunk : chunks) {
        submitDroppingMissingDeletes(client, chunk, layout.ref());
      }
    }
    return BatchWriteResult.DONE;
  }

  private List<List<TableTransactionAction>> chunk(TableLayout layout, List<WriteOp> group) {
    List<List<TableTransactionAction>> chunks = new ArrayList<>();
    List<TableTransactionAction> current = new ArrayList<>();
    long bytes = 0;
    for (WriteOp w : group) {
      List<TableTransactionAction> actions = actions(layout, w);
      long size = w instanceof WriteOp.Put p ? sizes.itemBytes(p.item()) : 1024;
      if (!current.isEmpty()
          && (current.size() + actions.size() > MAX_ACTIONS || bytes + size > MAX_BODY_BYTES)) {
        chunks.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.addAll(actions);
      bytes += size;
    }
    if (!current.isEmpty()) {
      chunks.add(current);
    }
    return chunks;
  }

  private static List<TableTransactionAction> actions(TableLayout layout, WriteOp w) {
    Key key = w.key();
    String pk = AzureKeys.partitionKey(key.partition());
    List<TableTransactionAction> out = new ArrayList<>(2);
    if (w instanceof WriteOp.Put p) {
      TableEntity e = ItemStore.entity(layout, key, p.item(), null);
      out.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
      if (key.sortOrNull() != null) {
        out.add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE, ItemStore.mirror(e, key)));
      }
    } else {
      out.add(
          new TableTransactionAction(
              TableTransactionActionType.DELETE, new TableEntity(pk, AzureKeys.rowKey(key))));
      if (key.sortOrNull() != null) {
        out.add(
            new TableTransactionAction(
                TableTransactionActionType.DELETE,
                new TableEntity(pk, AzureKeys.mirrorRowKey(key.sortOrNull()))));
      }
    }
    return out;
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
