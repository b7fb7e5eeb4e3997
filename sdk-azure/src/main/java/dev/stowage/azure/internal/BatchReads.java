package dev.stowage.azure.internal;

import com.azure.data.tables.models.TableEntity;
import dev.stowage.item.Key;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * Batch gets, and the reads of the items an index page's hits name. Azure has no multi-get, so keys
 * are read with point reads, 8 in parallel; when several keys share a partition of a table with a
 * sort key, one range query between their smallest and largest RowKey fetches them together,
 * stopping after reading 4 rows per wanted key (sparse keys then fall back to point reads), so a
 * batch never reads much more than it returns.
 */
public final class BatchReads {
  private static final int RANGE_MIN_KEYS = 4;
  private static final int ROWS_PER_KEY = 4;

  private final Tables tables;
  private final Queries queries;
  private final ExecutorService executor;

  public BatchReads(Tables tables, Queries queries, ExecutorService executor) {
    this.tables = tables;
    this.queries = queries;
    this.executor = executor;
  }

  /** The stored items among {@code keys}. */
  public List<StoredItem> get(TableLayout layout, List<Key> keys) {
    return rows(layout, keys).values().stream().map(Row::stored).toList();
  }

  /** The rows of the items among {@code keys} that exist. */
  public Map<Key, Row> rows(TableLayout layout, List<Key> keys) {
    Map<String, List<Key>> byPartition = new LinkedHashMap<>();
    for (Key k : keys) {
      byPartition
          .computeIfAbsent(AzureKeys.partitionKey(layout, k.partition()), p -> new ArrayList<>())
          .add(k);
    }
    List<Key> pointReads = new ArrayList<>();
    List<CompletableFuture<RangeResult>> ranges = new ArrayList<>();
    for (Map.Entry<String, List<Key>> e : byPartition.entrySet()) {
      if (layout.keySchema().hasSort() && e.getValue().size() >= RANGE_MIN_KEYS) {
        ranges.add(
            CompletableFuture.supplyAsync(() -> range(layout, e.getKey(), e.getValue()), executor));
      } else {
        pointReads.addAll(e.getValue());
      }
    }
    Map<Key, Row> found = new HashMap<>();
    for (CompletableFuture<RangeResult> f : ranges) {
      RangeResult r = join(f);
      found.putAll(r.found());
      pointReads.addAll(r.unread());
    }
    List<Optional<Row>> read = queries.getAll(layout, pointReads);
    for (int i = 0; i < read.size(); i++) {
      Key k = pointReads.get(i);
      read.get(i).ifPresent(x -> found.put(k, x));
    }
    return found;
  }

  private record RangeResult(Map<Key, Row> found, List<Key> unread) {}

  private RangeResult range(TableLayout layout, String pk, List<Key> keys) {
    Map<String, Key> wanted = new HashMap<>();
    for (Key k : new java.util.LinkedHashSet<>(keys)) {
      wanted.put(AzureKeys.rowKey(layout, k), k);
    }
    List<String> rowKeys = new ArrayList<>(wanted.keySet());
    // String order is UTF-16 code unit order, Azure's order of keys.
    rowKeys.sort(Comparator.naturalOrder());
    String filter =
        "PartitionKey eq "
            + Filters.literal(pk)
            + " and RowKey ge "
            + Filters.literal(rowKeys.get(0))
            + " and RowKey le "
            + Filters.literal(rowKeys.get(rowKeys.size() - 1));
    int budget = ROWS_PER_KEY * keys.size();
    Iterator<TableEntity> rows = Queries.list(tables.data(layout), filter, budget);
    Map<Key, Row> found = new HashMap<>();
    String last = "";
    boolean exhausted = false;
    while (!wanted.isEmpty() && budget > 0) {
      if (!rows.hasNext()) {
        exhausted = true;
        break;
      }
      budget--;
      TableEntity e = rows.next();
      last = e.getRowKey();
      Key k = wanted.remove(last);
      if (k != null) {
        found.put(k, queries.store().read(layout, k, e));
      }
    }
    // Keys up to the last row read are answered (found, or absent); so is everything once the
    // range is exhausted. Keys beyond an exhausted budget need point reads.
    List<Key> unread = new ArrayList<>();
    if (!exhausted) {
      for (Map.Entry<String, Key> w : wanted.entrySet()) {
        if (w.getKey().compareTo(last) > 0) {
          unread.add(w.getValue());
        }
      }
    }
    return new RangeResult(found, unread);
  }

  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw e;
    }
  }
}
