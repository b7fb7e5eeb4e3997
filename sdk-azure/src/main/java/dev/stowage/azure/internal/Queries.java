package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * Queries and scans.
 *
 * <ul>
 *   <li>Ascending primary queries read item rows directly: one request per page.
 *   <li>Descending primary queries read the mirror rows (RowKey only) of the page, then the item
 *       rows between the page's smallest and largest sort value in one ascending query: two
 *       requests per page. Items deleted in between are dropped; the mirror and the item are
 *       written atomically, so no other inconsistency is possible.
 *   <li>Index queries read index rows (forward or reverse) in order and verify each hit with a
 *       point read of the item (in parallel): a hit counts only if the item's nonce and synthesized
 *       values match the entry; otherwise the entry is garbage, skipped and deleted (read repair).
 * </ul>
 */
public final class Queries {
  private static final int MAX_TOP = 1000;

  private final Tables tables;
  private final ItemStore store;
  private final IndexEntries index;
  private final ExecutorService executor;
  private final BatchReads batchReads;

  public Queries(Tables tables, ItemStore store, IndexEntries index, ExecutorService executor) {
    this.tables = tables;
    this.store = store;
    this.index = index;
    this.executor = executor;
    this.batchReads = new BatchReads(tables, this, executor);
  }

  /** Batch reads over this query engine's point reads. */
  public BatchReads batchReads() {
    return batchReads;
  }

  /** See {@link dev.stowage.spi.StorageDriver#query}. */
  public QueryResult query(TableLayout layout, DriverQuery q) {
    try {
      if (q.index() == null) {
        if (q.partition().type() != layout.keySchema().partitionType()) {
          throw new InvalidRequestException(
              "partition value of "
                  + layout.ref()
                  + " must be "
                  + layout.keySchema().partitionType());
        }
        boolean descending = q.descending() && layout.keySchema().hasSort();
        return descending ? primaryDescending(layout, q) : primaryAscending(layout, q);
      }
      IndexLayout il =
          layout
              .index(q.index())
              .orElseThrow(
                  () ->
                      new InvalidRequestException(
                          "table " + layout.ref() + " has no index '" + q.index() + "'"));
      return indexQuery(layout, il, q);
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "querying " + layout.ref());
    }
  }

  private QueryResult primaryAscending(TableLayout layout, DriverQuery q) {
    if (!layout.keySchema().hasSort() && q.exclusiveStart() != null) {
      return new QueryResult(List.of(), false); // a partition holds one item, already returned
    }
    String pk = AzureKeys.partitionKey(q.partition());
    RowRange range = RowRange.primary(q.range(), q.exclusiveStart(), false);
    List<StoredItem> items = new ArrayList<>();
    Iterator<TableEntity> rows = list(tables.data(layout.ref()), range.filter(pk), q.limit() + 1);
    while (rows.hasNext() && items.size() < q.limit()) {
      items.add(ItemStore.row(layout, rows.next()).stored());
    }
    return new QueryResult(items, rows.hasNext());
  }

  private QueryResult primaryDescending(TableLayout layout, DriverQuery q) {
    TableClient client = tables.data(layout.ref());
    String pk = AzureKeys.partitionKey(q.partition());
    RowRange range = RowRange.primary(q.range(), q.exclusiveStart(), true);
    List<String> rowKeys = new ArrayList<>();
    Iterator<TableEntity> mirrors = list(client, range.filter(pk), q.limit() + 1, "RowKey");
    while (mirrors.hasNext() && rowKeys.size() < q.limit()) {
      rowKeys.add(AzureKeys.rowKeyOfMirror(mirrors.next().getRowKey()));
    }
    boolean more = mirrors.hasNext();
    if (rowKeys.isEmpty()) {
      return new QueryResult(List.of(), more);
    }
    String high = rowKeys.get(0);
    String low = rowKeys.get(rowKeys.size() - 1);
    String filter =
        "PartitionKey eq '" + pk + "' and RowKey ge '" + low + "' and RowKey le '" + high + "'";
    Map<String, TableEntity> byRowKey = new HashMap<>();
    list(client, filter, MAX_TOP).forEachRemaining(e -> byRowKey.put(e.getRowKey(), e));
    List<StoredItem> items = new ArrayList<>();
    for (String rk : rowKeys) {
      TableEntity e = byRowKey.get(rk);
      if (e != null) {
        items.add(ItemStore.row(layout, e).stored());
      }
    }
    return new QueryResult(items, more);
  }

  private QueryResult indexQuery(TableLayout layout, IndexLayout il, DriverQuery q) {
    if (!(q.partition() instanceof AttributeValue.BinaryValue bp)) {
      throw new InvalidRequestException("index query partitions are binary synthesized values");
    }
    Bytes partition = bp.value();
    String pk = AzureKeys.indexPartitionKey(il.name(), partition);
    RowRange range = RowRange.index(q.range(), q.exclusiveStart(), q.descending());
    Iterator<TableEntity> rows = list(tables.index(layout.ref()), range.filter(pk), q.limit() + 1);
    List<StoredItem> items = new ArrayList<>();
    List<IndexEntries.Entry> garbage = new ArrayList<>();
    while (items.size() < q.limit() && rows.hasNext()) {
      List<AzureKeys.IndexEntry> chunk = new ArrayList<>();
      List<IndexEntries.Entry> raw = new ArrayList<>();
      while (rows.hasNext() && chunk.size() < q.limit() - items.size()) {
        String rk = rows.next().getRowKey();
        String composite = q.descending() ? KeyCodec.unreverse(rk.substring(1)) : rk.substring(1);
        chunk.add(AzureKeys.parseComposite(layout.keySchema(), composite));
        raw.add(new IndexEntries.Entry(il.name(), pk, composite));
      }
      List<Optional<Row>> found =
          getAll(layout, chunk.stream().map(AzureKeys.IndexEntry::key).toList());
      for (int i = 0; i < chunk.size(); i++) {
        Row row = found.get(i).orElse(null);
        if (IndexEntries.matches(il, partition, chunk.get(i), row)) {
          items.add(row.stored());
        } else {
          garbage.add(raw.get(i));
        }
      }
    }
    if (!garbage.isEmpty()) {
      index.deleteQuietly(layout, garbage);
    }
    return new QueryResult(items, rows.hasNext());
  }

  /** Point reads in parallel, results in the order of {@code keys}. */
  public List<Optional<Row>> getAll(TableLayout layout, List<Key> keys) {
    List<CompletableFuture<Optional<Row>>> futures = new ArrayList<>(keys.size());
    for (Key k : keys) {
      futures.add(CompletableFuture.supplyAsync(() -> store.get(layout, k), executor));
    }
    List<Optional<Row>> out = new ArrayList<>(keys.size());
    for (CompletableFuture<Optional<Row>> f : futures) {
      try {
        out.add(f.join());
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw e;
      }
    }
    return out;
  }

  /** See {@link dev.stowage.spi.StorageDriver#scan}: partitions then rows, in key string order. */
  public QueryResult scan(TableLayout layout, DriverScan s) {
    try {
      StringBuilder filter =
          new StringBuilder(
              "PartitionKey ge 'k' and PartitionKey lt 'l' and RowKey ge 'k' and RowKey lt 'l'");
      if (s.exclusiveStart() != null) {
        String pk = AzureKeys.partitionKey(s.exclusiveStart().partition());
        String rk = AzureKeys.rowKey(s.exclusiveStart());
        filter
            .append(" and (PartitionKey gt '")
            .append(pk)
            .append("' or (PartitionKey eq '")
            .append(pk)
            .append("' and RowKey gt '")
            .append(rk)
            .append("'))");
      }
      Iterator<TableEntity> rows =
          list(tables.data(layout.ref()), filter.toString(), s.limit() + 1);
      List<StoredItem> items = new ArrayList<>();
      while (rows.hasNext() && items.size() < s.limit()) {
        items.add(ItemStore.row(layout, rows.next()).stored());
      }
      return new QueryResult(items, rows.hasNext());
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "scanning " + layout.ref());
    }
  }

  /**
   * Lists entities matching a filter in RowKey order. Azurite ignores the page size of {@code
   * iterableByPage}, so the page size travels as {@code $top}.
   */
  static Iterator<TableEntity> list(TableClient client, String filter, int top, String... select) {
    ListEntitiesOptions options =
        new ListEntitiesOptions().setFilter(filter).setTop(Math.min(top, MAX_TOP));
    if (select.length > 0) {
      options.setSelect(List.of(select));
    }
    Iterator<TableEntity> it = client.listEntities(options, null, null).iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        try {
          return it.hasNext();
        } catch (RuntimeException e) {
          throw AzureErrors.translate(e, "listing " + client.getTableName());
        }
      }

      @Override
      public TableEntity next() {
        return it.next();
      }
    };
  }
}
