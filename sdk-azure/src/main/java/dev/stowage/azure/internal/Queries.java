package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.IntSupplier;

/**
 * Queries and scans.
 *
 * <ul>
 *   <li>Ascending primary queries read item rows directly: one request per page under 1,000 items
 *       (Azure's page size); larger pages read on with the continuation token.
 *   <li>Descending primary queries on tables with mirror rows ({@link Tables#mirrored}) read the
 *       mirror rows (RowKey only) of the page, then the item rows between the page's smallest and
 *       largest sort value in one ascending query: two requests per page. Items deleted in between
 *       are dropped; the mirror and the item are written atomically, so no other inconsistency is
 *       possible.
 *   <li>Descending primary queries on tables without mirror rows (and on adopted tables) read the
 *       RowKeys of the range ascending up to the page's start, keeping the last {@code limit + 1},
 *       then the page's entities in one request (see {@link #descendingByKeys}).
 *   <li>Index queries go to {@link IndexQueries}, which verifies every hit against its item.
 *   <li>On adopted tables ascending queries are one request per page.
 * </ul>
 */
public final class Queries {
  private static final int MAX_TOP = 1000;
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Queries.class);

  private final Tables tables;
  private final ItemStore store;
  private final ExecutorService executor;
  private final BatchReads batchReads;
  private final IndexQueries indexQueries;
  private final java.util.Set<TableRef> toldAboutDescending =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * How old an index entry that does not match its item must be before read repair deletes it
   * although its item is still the version the entry's write replaced ({@link
   * IndexEntries#isGarbage}): such an entry's write may be between writing its entries and its
   * item, or may have crashed there. A write takes seconds between the two; an hour leaves room for
   * any stall and for the skew between this machine's clock and the service's (which Azure's
   * request signing already bounds to 15 minutes). Until then the entry is skipped, not deleted.
   */
  public static final java.time.Duration REPAIR_GRACE = java.time.Duration.ofHours(1);

  public Queries(Tables tables, ItemStore store, IndexEntries index, ExecutorService executor) {
    this(tables, store, index, executor, java.time.Clock.systemUTC());
  }

  /** With entry ages for read repair told by {@code clock} (see {@link #REPAIR_GRACE}). */
  public Queries(
      Tables tables,
      ItemStore store,
      IndexEntries index,
      ExecutorService executor,
      java.time.Clock clock) {
    this.tables = tables;
    this.store = store;
    this.executor = executor;
    this.batchReads = new BatchReads(tables, this, executor);
    this.indexQueries = new IndexQueries(tables, index, this, clock);
  }

  /**
   * Logs once per table that a descending query reads the keys of its range from the lower end up,
   * because the table's spec does not declare descending queries.
   */
  void tellAboutDescending(TableLayout layout) {
    if (toldAboutDescending.add(layout.ref())) {
      LOG.info(
          "descending query on {}, whose spec does not declare descendingQueries: each page reads"
              + " the keys of the range from its lower end up to the page (docs/azure.md,"
              + " \"Descending queries and their cost\"); declare it for tables queried this way"
              + " a lot",
          layout.ref());
    }
  }

  /** The item store whose reads this query engine shares. */
  ItemStore store() {
    return store;
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
        if (layout.adopted()) {
          return descending ? adoptedDescending(layout, q) : adoptedAscending(layout, q);
        }
        if (!descending) {
          return primaryAscending(layout, q);
        }
        return tables.mirrored(layout) ? primaryDescending(layout, q) : descendingByKeys(layout, q);
      }
      IndexLayout il =
          layout
              .index(q.index())
              .orElseThrow(
                  () ->
                      new InvalidRequestException(
                          "table " + layout.ref() + " has no index '" + q.index() + "'"));
      return indexQueries.query(layout, il, q);
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
    String pk = AzureKeys.partitionKey(layout, q.partition());
    RowRange range = RowRange.primary(q.range(), q.exclusiveStart(), false);
    List<StoredItem> items = new ArrayList<>();
    Iterator<TableEntity> rows =
        reading(tables.data(layout), range.filter(pk), () -> q.limit() + 1 - items.size());
    while (rows.hasNext() && items.size() < q.limit()) {
      items.add(store.read(layout, rows.next()).stored());
    }
    return new QueryResult(items, rows.hasNext());
  }

  private QueryResult primaryDescending(TableLayout layout, DriverQuery q) {
    TableClient client = tables.data(layout);
    String pk = AzureKeys.partitionKey(layout, q.partition());
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
    return new QueryResult(entities(layout, pk, rowKeys), more);
  }

  /**
   * The items at {@code rowKeys} (sorted one way or the other) of partition {@code pk}, in that
   * order, read with one range query between the smallest and largest; items deleted meanwhile are
   * left out, items inserted meanwhile between them are not wanted.
   */
  private List<StoredItem> entities(TableLayout layout, String pk, List<String> rowKeys) {
    String first = rowKeys.get(0);
    String last = rowKeys.get(rowKeys.size() - 1);
    boolean ascending = first.compareTo(last) <= 0;
    String filter =
        "PartitionKey eq "
            + Filters.literal(pk)
            + " and RowKey ge "
            + Filters.literal(ascending ? first : last)
            + " and RowKey le "
            + Filters.literal(ascending ? last : first);
    Map<String, TableEntity> byRowKey = new HashMap<>();
    list(tables.data(layout), filter, MAX_TOP)
        .forEachRemaining(e -> byRowKey.put(e.getRowKey(), e));
    List<StoredItem> items = new ArrayList<>();
    for (String rk : rowKeys) {
      TableEntity e = byRowKey.get(rk);
      if (e != null) {
        items.add(store.read(layout, e).stored());
      }
    }
    return items;
  }

  /**
   * An ascending page of an adopted table: the partition's entities in Azure's RowKey order (UTF-16
   * code units), one request per page. A prefix range reads from the prefix on and stops at the
   * first RowKey that does not start with it (Azure's order keeps such RowKeys together).
   */
  private QueryResult adoptedAscending(TableLayout layout, DriverQuery q) {
    String pk = ((AttributeValue.StringValue) q.partition()).value();
    if (!AzureKeys.isNative(pk)) {
      return new QueryResult(List.of(), false); // no entity can have this PartitionKey
    }
    if (!layout.keySchema().hasSort()) {
      if (q.exclusiveStart() != null) {
        return new QueryResult(List.of(), false); // a partition holds one item, already returned
      }
      // Every entity of the partition, so that one the spec cannot address is refused, not hidden.
      Iterator<TableEntity> rows =
          list(tables.data(layout), "PartitionKey eq " + Filters.literal(pk), 2);
      List<StoredItem> items = new ArrayList<>();
      while (rows.hasNext()) {
        items.add(store.read(layout, rows.next()).stored());
      }
      return new QueryResult(items, false);
    }
    String prefix = prefix(q);
    String filter = adoptedFilter(pk, q, false);
    List<StoredItem> items = new ArrayList<>();
    Iterator<TableEntity> rows =
        reading(tables.data(layout), filter, () -> q.limit() + 1 - items.size());
    while (rows.hasNext() && items.size() < q.limit()) {
      TableEntity e = rows.next();
      if (prefix != null && !e.getRowKey().startsWith(prefix)) {
        return new QueryResult(items, false);
      }
      items.add(store.read(layout, e).stored());
    }
    boolean more = rows.hasNext() && (prefix == null || rows.next().getRowKey().startsWith(prefix));
    return new QueryResult(items, more);
  }

  /**
   * A descending page of an adopted table. Azure reads ascending only, and an adopted table has no
   * mirror rows (they would be rows of Stowage's in the application's table), so the page is found
   * by reading the RowKeys (only) of the range ascending from its lower end up to the page's start
   * (the range's upper end, or the previous page's last item), keeping the last {@code limit + 1}:
   * the last {@code limit} are the page, one more says whether more follow. Then the page's
   * entities are read with one range query. Cost: the RowKeys of every row between the range's
   * lower end and the page's start, 1000 per request, plus one request; paging a whole partition of
   * n rows downwards in pages of size L reads about n²/2L RowKeys.
   */
  private QueryResult adoptedDescending(TableLayout layout, DriverQuery q) {
    String pk = ((AttributeValue.StringValue) q.partition()).value();
    if (!AzureKeys.isNative(pk)) {
      return new QueryResult(List.of(), false);
    }
    return lastRowKeys(layout, pk, adoptedFilter(pk, q, true), prefix(q), q.limit());
  }

  /**
   * A descending page of a table with a sort key that keeps no mirror rows (its spec did not
   * declare {@link TableLayout#descendingQueries()}), found as on adopted tables ({@link
   * #adoptedDescending}): the RowKeys of the item rows of the range below the page's start,
   * ascending, keeping the last {@code limit + 1}; then the page's entities in one request.
   */
  private QueryResult descendingByKeys(TableLayout layout, DriverQuery q) {
    tellAboutDescending(layout);
    String pk = AzureKeys.partitionKey(layout, q.partition());
    String filter = RowRange.primaryBelow(q.range(), q.exclusiveStart()).filter(pk);
    return lastRowKeys(layout, pk, filter, null, q.limit());
  }

  /**
   * The page of the last {@code limit} rows matching {@code filter} (and starting with {@code
   * prefix}, when not null), in descending order: their RowKeys are read ascending, the last {@code
   * limit + 1} kept, then the page's entities read in one request.
   */
  private QueryResult lastRowKeys(
      TableLayout layout, String pk, String filter, String prefix, int limit) {
    Iterator<TableEntity> rows = list(tables.data(layout), filter, MAX_TOP, "RowKey");
    java.util.ArrayDeque<String> last = new java.util.ArrayDeque<>(limit + 1);
    while (rows.hasNext()) {
      String rk = rows.next().getRowKey();
      if (prefix != null && !rk.startsWith(prefix)) {
        break;
      }
      last.addLast(rk);
      if (last.size() > limit + 1) {
        last.removeFirst();
      }
    }
    boolean more = last.size() > limit;
    if (more) {
      last.removeFirst();
    }
    if (last.isEmpty()) {
      return new QueryResult(List.of(), false);
    }
    List<String> rowKeys = new ArrayList<>(last);
    java.util.Collections.reverse(rowKeys);
    return new QueryResult(entities(layout, pk, rowKeys), more);
  }

  /** The string prefix of a begins-with range, or null. */
  private static String prefix(DriverQuery q) {
    return q.range().prefix() instanceof AttributeValue.StringValue p ? p.value() : null;
  }

  /**
   * The filter of an adopted table's partition range, resuming after {@code exclusiveStart} in the
   * query's direction. Bounds are compared by Azure, in UTF-16 code unit order. A prefix range uses
   * only its lower bound (the prefix itself); the caller stops at the first RowKey without the
   * prefix, since the range's upper bound is the end of the prefix in Stowage's order, which is not
   * Azure's.
   */
  private static String adoptedFilter(String pk, DriverQuery q, boolean descending) {
    StringBuilder f = new StringBuilder("PartitionKey eq ").append(Filters.literal(pk));
    KeyRange r = q.range();
    if (r.lower() != null) {
      f.append(" and RowKey ")
          .append(r.lowerInclusive() ? "ge " : "gt ")
          .append(Filters.literal(string(r.lower())));
    }
    if (r.upper() != null && r.prefix() == null) {
      f.append(" and RowKey ")
          .append(r.upperInclusive() ? "le " : "lt ")
          .append(Filters.literal(string(r.upper())));
    }
    if (q.exclusiveStart() != null && q.exclusiveStart().key().sortOrNull() != null) {
      f.append(" and RowKey ")
          .append(descending ? "lt " : "gt ")
          .append(Filters.literal(string(q.exclusiveStart().key().sortOrNull())));
    }
    return f.toString();
  }

  private static String string(dev.stowage.item.KeyValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return s.value();
    }
    throw new InvalidRequestException("an adopted Azure table's sort key values are strings");
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
      // Stowage's layout: item rows only (not the schema entity or mirror rows). An adopted
      // table: every entity.
      StringBuilder filter =
          new StringBuilder(
              layout.adopted()
                  ? ""
                  : "PartitionKey ge 'k' and PartitionKey lt 'l' and RowKey ge 'k' and RowKey lt 'l'");
      if (s.exclusiveStart() != null) {
        String pk = Filters.literal(AzureKeys.partitionKey(layout, s.exclusiveStart().partition()));
        String rk = Filters.literal(AzureKeys.rowKey(layout, s.exclusiveStart()));
        filter
            .append(filter.isEmpty() ? "" : " and ")
            .append("(PartitionKey gt ")
            .append(pk)
            .append(" or (PartitionKey eq ")
            .append(pk)
            .append(" and RowKey gt ")
            .append(rk)
            .append("))");
      }
      List<StoredItem> items = new ArrayList<>();
      Iterator<TableEntity> rows =
          reading(
              tables.data(layout),
              filter.isEmpty() ? null : filter.toString(),
              () -> s.limit() + 1 - items.size());
      while (rows.hasNext() && items.size() < s.limit()) {
        items.add(store.read(layout, rows.next()).stored());
      }
      return new QueryResult(items, rows.hasNext());
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "scanning " + layout.ref());
    }
  }

  /**
   * One Azure page of the entities matching {@code filter}: at most {@code top} (up to 1,000) of
   * them, and the continuation token to read on with (null: nothing follows). Azure may return
   * fewer than {@code top}, even none, with a token. Pass the token of the previous page, with the
   * same filter, to read on from where it ended with a new {@code top}; null reads from the start.
   */
  static EntityPage page(TableClient client, String filter, int top, String continuation) {
    ListEntitiesOptions options =
        new ListEntitiesOptions().setFilter(filter).setTop(Math.min(top, MAX_TOP));
    try {
      var pages = client.listEntities(options, null, null);
      var page =
          (continuation == null ? pages.iterableByPage() : pages.iterableByPage(continuation))
              .iterator()
              .next();
      return new EntityPage(
          page.getValue() == null ? List.of() : page.getValue(), page.getContinuationToken());
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "listing " + client.getTableName());
    }
  }

  /** An Azure page of entities and the token to read on with (null: nothing follows). */
  record EntityPage(List<TableEntity> entities, String continuation) {}

  /**
   * The entities matching {@code filter} in RowKey order, read one Azure page at a time as the
   * caller takes them: each page asks for {@code wanted} entities (at least one, at most 1,000),
   * evaluated when that page is fetched, and reads on from the previous page's continuation token.
   * A caller that says what it still needs plus one (its look-ahead, to tell whether more follow)
   * reads each entity of its page once and at most one past it, where reading on with a fixed page
   * size would fetch a whole next page for that one entity.
   */
  static Iterator<TableEntity> reading(TableClient client, String filter, IntSupplier wanted) {
    // The first page is fetched here: its failures are translated like those of later pages.
    EntityPage first = page(client, filter, Math.max(1, wanted.getAsInt()), null);
    return new Iterator<>() {
      private Iterator<TableEntity> rows = first.entities().iterator();
      private String token = first.continuation();

      @Override
      public boolean hasNext() {
        // Azure may answer with fewer entities than asked, even none, and a token.
        while (!rows.hasNext() && token != null) {
          EntityPage next = page(client, filter, Math.max(1, wanted.getAsInt()), token);
          rows = next.entities().iterator();
          token = next.continuation();
        }
        return rows.hasNext();
      }

      @Override
      public TableEntity next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return rows.next();
      }
    };
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
    Iterator<TableEntity> it;
    try {
      // The first page is fetched here: its failures are translated like those of later pages.
      it = client.listEntities(options, null, null).iterator();
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "listing " + client.getTableName());
    }
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
