package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.UnavailableException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One entity-group transaction over items of a single partition.
 *
 * <p>Puts become CREATE (absent), UPDATE_REPLACE with If-Match (token) or UPSERT_REPLACE (any);
 * deletes become DELETE with or without If-Match; a token check becomes an empty UPDATE_MERGE with
 * If-Match, which verifies the ETag atomically but gives the item a new ETag. Each item with a sort
 * key adds its mirror row on tables that keep them ({@link Tables#mirrored}). On tables with
 * indexes the new entries are written before and the replaced versions' entries deleted after the
 * transaction, as for single writes.
 */
final class Transaction {
  private final Tables tables;
  private final ItemStore store;
  private final IndexEntries index;
  private final TableLayout layout;

  Transaction(Tables tables, ItemStore store, IndexEntries index, TableLayout layout) {
    this.tables = tables;
    this.store = store;
    this.index = index;
    this.layout = layout;
  }

  void run(List<TxOp> ops) {
    boolean indexed = !layout.indexes().isEmpty();
    boolean mirrored = tables.mirrored(layout);
    List<TableTransactionAction> actions = new ArrayList<>();
    List<IndexEntries.Entry> fresh = new ArrayList<>();
    List<IndexEntries.Entry> stale = new ArrayList<>();
    for (TxOp op : ops) {
      Key key = layout.keySchema().validate(op.key());
      ItemStore.rejectSuperseded(op.expect(), "transaction on " + layout.ref());
      // A put reads the item it replaces: the template of the properties' EDM types.
      Optional<Row> previous =
          indexed || op.expect() instanceof Expectation.Any || op instanceof TxOp.Put
              ? store.get(layout, key)
              : Optional.empty();
      String pk = AzureKeys.partitionKey(layout, key.partition());
      if (op instanceof TxOp.Put put) {
        previous.ifPresent(r -> stale.addAll(ItemWriter.staleEntries(layout, key, r)));
        String nonce = indexed ? IndexEntries.newNonce() : null;
        fresh.addAll(IndexEntries.entries(layout, key, put.item(), nonce, previous.orElse(null)));
        TableEntity e = ItemStore.entity(layout, key, put.item(), nonce, previous.orElse(null));
        actions.add(ItemStore.putAction(e, op.expect()));
        if (mirrored) {
          actions.add(
              new TableTransactionAction(
                  TableTransactionActionType.UPSERT_REPLACE, ItemStore.mirror(e, key)));
        }
      } else if (op instanceof TxOp.Delete) {
        if (op.expect() instanceof Expectation.Absent) {
          throw unsupportedAbsent();
        }
        if (op.expect() instanceof Expectation.Any && previous.isEmpty()) {
          continue;
        }
        previous.ifPresent(r -> stale.addAll(ItemWriter.staleEntries(layout, key, r)));
        TableEntity target = new TableEntity(pk, AzureKeys.rowKey(layout, key));
        boolean ifUnchanged = op.expect() instanceof Expectation.Token;
        if (ifUnchanged) {
          target.addProperty("odata.etag", ((Expectation.Token) op.expect()).token());
        }
        actions.add(
            new TableTransactionAction(TableTransactionActionType.DELETE, target, ifUnchanged));
        if (mirrored) {
          actions.add(
              new TableTransactionAction(
                  TableTransactionActionType.DELETE,
                  new TableEntity(pk, AzureKeys.mirrorRowKey(key.sortOrNull()))));
        }
      } else if (op.expect() instanceof Expectation.Token t) {
        TableEntity target = new TableEntity(pk, AzureKeys.rowKey(layout, key));
        target.addProperty("odata.etag", t.token());
        actions.add(
            new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE, target, true));
      } else if (op.expect() instanceof Expectation.Absent) {
        throw unsupportedAbsent();
      }
    }
    if (actions.size() > Batches.MAX_ACTIONS) {
      throw new InvalidRequestException(
          "an Azure transaction holds at most "
              + Batches.MAX_ACTIONS
              + " actions; this one needs "
              + actions.size()
              + (mirrored ? " (items with a sort key take two: item and mirror row)" : ""));
    }
    if (actions.isEmpty()) {
      return;
    }
    index.write(layout, fresh);
    TableClient client = tables.data(layout);
    try {
      client.submitTransaction(actions);
    } catch (RuntimeException e) {
      StowageException failure = translate(e);
      // Only a transaction refused for sure leaves its new entries unused. After a lost response
      // it may have landed, and its items need them; if it did not, read repair reclaims them.
      if (!(failure instanceof UnavailableException)) {
        index.deleteQuietly(layout, fresh);
      }
      throw failure;
    }
    store.applied(layout, actions);
    index.deleteQuietly(layout, stale);
  }

  private StowageException translate(RuntimeException e) {
    int status = AzureErrors.status(e);
    String code = AzureErrors.code(e);
    if (!code.equals("TableNotFound") && (status == 412 || status == 409 || status == 404)) {
      return new ConditionFailedException(
          "transaction on " + layout.ref() + " failed: an expectation does not hold", e);
    }
    return AzureErrors.translate(e, "transaction on " + layout.ref());
  }

  private static UnsupportedCapabilityException unsupportedAbsent() {
    return new UnsupportedCapabilityException(
        "TRANSACTIONS",
        "Azure entity-group transactions cannot assert that an item is absent without creating it");
  }
}
