package dev.stowage.console.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.DeleteJob;
import dev.stowage.IndexSpec;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.console.internal.Catalog.StoreEntry;
import dev.stowage.console.internal.Catalog.TableEntry;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.Migrator;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What the console's JSON API does with tables: describe them, page through queries, show items in
 * both forms, write and delete them conditionally, start delete and migration jobs, report metrics.
 * Each method returns plain values that {@link Json} writes. Thread-safe.
 */
final class TableApi {
  private final Catalog catalog;
  private final Jobs jobs;

  TableApi(Catalog catalog, Jobs jobs) {
    this.catalog = catalog;
    this.jobs = jobs;
  }

  /** The stores and their tables with their specs. */
  Map<String, Object> tables() {
    List<Object> stores = new ArrayList<>();
    for (StoreEntry s : catalog.stores()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", Integer.toString(stores.size()));
      m.put("label", s.label());
      m.put("backend", s.stowage().backend());
      m.put("namespace", s.stowage().namespace());
      m.put("keys", s.codecs().keys().isPresent());
      List<Object> tables = new ArrayList<>();
      for (TableEntry t : catalog.tables()) {
        if (t.store() == s) {
          tables.add(describe(t));
        }
      }
      m.put("tables", tables);
      stores.add(m);
    }
    return Map.of("stores", stores);
  }

  private static Map<String, Object> describe(TableEntry t) {
    TableSpec spec = t.spec();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", Integer.toString(t.id()));
    m.put("name", spec.name());
    m.put(
        "partitionKey", spec.keySchema().partitionName() + " " + spec.keySchema().partitionType());
    m.put(
        "sortKey",
        spec.keySchema()
            .sortName()
            .map(n -> n + " " + spec.keySchema().sortType().get())
            .orElse(null));
    List<Object> indexes = new ArrayList<>();
    for (IndexSpec i : spec.indexes()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("name", i.name());
      x.put("partition", i.partitionAttributes());
      x.put("sort", i.sortAttributes());
      x.put("projection", i.projection().toString());
      x.put("native", i.isNative() ? i.nativeIndex().name() : null);
      indexes.add(x);
    }
    m.put("indexes", indexes);
    List<String> compressed = new ArrayList<>();
    List<String> encrypted = new ArrayList<>();
    spec.policies()
        .forEach(
            (name, p) -> {
              if (p.compressed()) {
                compressed.add(name);
              }
              if (p.encrypted()) {
                encrypted.add(name);
              }
            });
    m.put("compressed", compressed);
    m.put("encrypted", encrypted);
    m.put("version", spec.versionAttribute().orElse(null));
    m.put("adopted", spec.adoptedName().orElse(null));
    return m;
  }

  /** The first page of the query the form describes. */
  Map<String, Object> query(String tableId, Function<String, String> field) {
    TableEntry t = catalog.table(tableId);
    Query q = QueryForm.build(t.spec(), field);
    // Keys only from the core (nothing to decrypt, no blob to fetch); the items themselves are read
    // in their stored form and decoded here, attribute by attribute.
    Query keysOnly = q.toBuilder().project(keyNames(t.spec())).build();
    return page(t, t.table().query(keysOnly), QueryForm.projection(field));
  }

  /** The page a cursor leads to (the cursor carries the whole query, projection included). */
  Map<String, Object> page(String tableId, String cursor, Function<String, String> field) {
    TableEntry t = catalog.table(tableId);
    return page(t, t.table().page(cursor), QueryForm.projection(field));
  }

  private Map<String, Object> page(TableEntry t, Page page, List<String> projection) {
    ItemView view = new ItemView(t.spec(), t.store().codecs());
    List<Object> items = new ArrayList<>();
    for (Item stored : storedForms(t, page.items())) {
      Map<String, Object> v = view.render(stored);
      if (!projection.isEmpty()) {
        Set<String> keep = new LinkedHashSet<>(projection);
        keep.addAll(List.of(keyNames(t.spec())));
        v.put(
            "attributes",
            ((List<?>) v.get("attributes"))
                .stream().filter(a -> keep.contains(((Map<?, ?>) a).get("name"))).toList());
      }
      items.add(v);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("items", items);
    m.put("hasBefore", page.hasBefore());
    m.put("before", page.before().orElse(null));
    m.put("hasAfter", page.hasAfter());
    m.put("after", page.after().orElse(null));
    return m;
  }

  /** One item, read consistently in its stored form. */
  Map<String, Object> item(String tableId, String keyJson) {
    TableEntry t = catalog.table(tableId);
    Item stored = readStored(t, key(t, keyJson)).orElse(null);
    if (stored == null) {
      throw new NotFound("the item is gone");
    }
    return new ItemView(t.spec(), t.store().codecs()).render(stored);
  }

  /** One attribute of an item, read through the core (an overflowed one comes from its blob). */
  Map<String, Object> attribute(String tableId, String keyJson, String name) {
    TableEntry t = catalog.table(tableId);
    Item item =
        t.table()
            .get(key(t, keyJson), new ReadOptions(Set.of(name), true))
            .orElseThrow(() -> new NotFound("the item is gone"));
    AttributeValue v = item.find(name).orElseThrow(() -> new NotFound("no attribute " + name));
    return ItemView.plainValue(v);
  }

  /** The whole item as the application sees it, as editable JSON text. */
  Map<String, Object> editable(String tableId, String keyJson) {
    TableEntry t = catalog.table(tableId);
    Key k = key(t, keyJson);
    Item stored = readStored(t, k).orElseThrow(() -> new NotFound("the item is gone"));
    Item item = t.table().get(k, ReadOptions.CONSISTENT).orElseThrow(() -> new NotFound("gone"));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("fingerprint", ItemView.fingerprint(stored));
    m.put("text", Json.writePretty(ItemJson.toJson(item, ItemJson.NumberStyle.NUMBER)));
    return m;
  }

  /**
   * Writes an item. A new one ({@code fingerprint} null) only if its key is free; an edit only if
   * the item is still exactly as it was when the browser read it (its stored fingerprint), with a
   * condition that re-checks every comparable attribute atomically with the write.
   */
  Map<String, Object> put(String tableId, String text, String originalKey, String fingerprint) {
    TableEntry t = catalog.table(tableId);
    Item item = ItemJson.parseItem(text);
    Key k = t.spec().keySchema().keyOf(item);
    if (fingerprint == null) {
      if (!t.table().putIfAbsent(item)) {
        throw new Conflict("an item with key " + describe(k) + " already exists");
      }
      return Map.of("saved", true);
    }
    if (originalKey != null && !key(t, originalKey).equals(k)) {
      throw new IllegalArgumentException(
          "the key cannot change in an edit; create a new item and delete this one instead");
    }
    Condition unchanged = checkUnchanged(t, k, fingerprint);
    try {
      t.table().put(item, WriteOptions.when(unchanged));
    } catch (ConditionFailedException e) {
      throw new Conflict(changedMessage(k));
    }
    return Map.of("saved", true);
  }

  /** Deletes an item if it is still as the browser saw it. */
  Map<String, Object> delete(String tableId, String keyJson, String fingerprint) {
    TableEntry t = catalog.table(tableId);
    Key k = key(t, keyJson);
    Condition unchanged = checkUnchanged(t, k, fingerprint);
    try {
      t.table().delete(k, WriteOptions.when(unchanged));
    } catch (ConditionFailedException e) {
      throw new Conflict(changedMessage(k));
    }
    return Map.of("deleted", true);
  }

  /** Starts a job deleting everything the form's query matches. */
  Map<String, Object> startDelete(String tableId, Function<String, String> field) {
    TableEntry t = catalog.table(tableId);
    Query q = QueryForm.build(t.spec(), field);
    Table table = t.table();
    String rate = field.apply("maxItemsPerSecond");
    DeleteJob.Options options =
        rate == null
            ? DeleteJob.Options.DEFAULT
            : DeleteJob.Options.DEFAULT.withRateLimit(Double.parseDouble(rate));
    String pageSize = field.apply("jobPageSize");
    if (pageSize != null) {
      options =
          new DeleteJob.Options(
              options.maxItemsPerSecond(), Integer.parseInt(pageSize), false, null);
    }
    String id =
        jobs.start(
            describeDelete(t.spec(), field),
            new DeleteTask(options, o -> table.deleteWhere(q, o), table::resumeDelete));
    return jobs.describe(id);
  }

  /**
   * Starts copying a table to another of the console's stores (its namespace), in its stored form
   * as {@link Migrator} copies it: compressed and encrypted values as they are, overflow blobs
   * through both stores' blob stores, the target table and its indexes created if missing. When the
   * target store shows a table of the same name, its spec is the target's (it may have other
   * indexes).
   *
   * @param field {@code target}: the target store's number; optional {@code pageSize} and {@code
   *     segments}
   * @throws java.util.NoSuchElementException if the table or the target store does not exist
   * @throws IllegalArgumentException if the migration cannot be done (source and target are the
   *     same table, incompatible specs); nothing is read or written then
   */
  Map<String, Object> startMigration(String tableId, Function<String, String> field) {
    TableEntry source = catalog.table(tableId);
    String targetId = field.apply("target");
    if (targetId == null) {
      throw new IllegalArgumentException("name the target store");
    }
    StoreEntry target = catalog.store(targetId);
    StoreEntry from = source.store();
    Migrator.Builder b =
        Migrator.builder(source.spec())
            .source(from.stowage().driver(), from.blobs(), from.stowage().namespace())
            .target(target.stowage().driver(), target.blobs(), target.stowage().namespace());
    for (TableEntry t : catalog.tables()) {
      if (t.store() == target
          && t.spec().name().equals(source.spec().name())
          && !t.spec().equals(source.spec())) {
        b.targetSpec(t.spec());
      }
    }
    String pageSize = field.apply("pageSize");
    if (pageSize != null) {
      b.pageSize(wholeNumber(pageSize, "page size"));
    }
    String segments = field.apply("segments");
    if (segments != null) {
      b.segments(wholeNumber(segments, "segments"));
    }
    MigrationTask task = new MigrationTask(b);
    String description =
        "migrate "
            + source.spec().name()
            + " from "
            + from.label()
            + where(from)
            + " to "
            + target.label()
            + where(target);
    return jobs.describe(jobs.start(description, task));
  }

  private static String where(StoreEntry s) {
    String ns = s.stowage().namespace();
    return " (" + s.stowage().backend() + (ns.isEmpty() ? "" : ", namespace " + ns) + ")";
  }

  private static int wholeNumber(String text, String what) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " must be a whole number, not '" + text + "'");
    }
  }

  /** Each store's counters. */
  Map<String, Object> metrics() {
    List<Object> out = new ArrayList<>();
    for (StoreEntry s : catalog.stores()) {
      StowageMetrics m = s.stowage().metrics();
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("label", s.label());
      x.put("reads", m.reads());
      x.put("writes", m.writes());
      x.put("queries", m.queries());
      x.put("throttled", m.throttled());
      x.put("casRetries", m.casRetries());
      x.put("staleIndexHits", m.staleIndexHits());
      List<Object> tables = new ArrayList<>();
      for (StowageMetrics.TableMetrics tm : m.tables()) {
        Map<String, Object> y = new LinkedHashMap<>();
        y.put("namespace", tm.namespace());
        y.put("table", tm.table());
        y.put("overflowBlobsWritten", tm.overflowBlobsWritten());
        y.put("overflowBytesWritten", tm.overflowBytesWritten());
        y.put("overflowBlobsRead", tm.overflowBlobsRead());
        y.put("overflowBytesRead", tm.overflowBytesRead());
        y.put("compressedValues", tm.compressedValues());
        y.put("bytesBeforeCompression", tm.bytesBeforeCompression());
        y.put("bytesAfterCompression", tm.bytesAfterCompression());
        double ratio = tm.compressionRatio();
        y.put("compressionRatio", Double.isFinite(ratio) ? ratio : null);
        tables.add(y);
      }
      x.put("tables", tables);
      out.add(x);
    }
    return Map.of("stores", out);
  }

  /** Each store's usage, hot keys and cost estimate (see {@link UsageReport}). */
  Map<String, Object> usage() {
    List<Object> out = new ArrayList<>();
    for (StoreEntry s : catalog.stores()) {
      out.add(UsageReport.of(s));
    }
    return Map.of("stores", out);
  }

  /** "delete from orders: index byStatus, partition cancelled, …" from the form's fields. */
  private static String describeDelete(TableSpec spec, Function<String, String> field) {
    StringBuilder b = new StringBuilder("delete from ").append(spec.name()).append(":");
    String index = field.apply("index");
    b.append(index == null ? " primary key" : " index " + index);
    b.append(", partition ").append(field.apply("partition"));
    String op = field.apply("sortOp");
    if (op != null && field.apply("sort") != null) {
      b.append(", sort ").append(op).append(' ').append(field.apply("sort"));
      if (field.apply("sortHigh") != null) {
        b.append(" and ").append(field.apply("sortHigh"));
      }
    }
    if (field.apply("filterAttr") != null) {
      b.append(", filter ")
          .append(field.apply("filterAttr"))
          .append(' ')
          .append(field.apply("filterOp") == null ? "eq" : field.apply("filterOp"));
      if (field.apply("filterValue") != null) {
        b.append(' ').append(field.apply("filterValue"));
      }
    }
    String rate = field.apply("maxItemsPerSecond");
    if (rate != null) {
      b.append(", at most ").append(rate).append(" items/s");
    }
    return b.toString();
  }

  private Condition checkUnchanged(TableEntry t, Key k, String fingerprint) {
    Item current = readStored(t, k).orElseThrow(() -> new Conflict(goneMessage(k)));
    if (!ItemView.fingerprint(current).equals(fingerprint)) {
      throw new Conflict(changedMessage(k));
    }
    return new ItemView(t.spec(), t.store().codecs()).unchanged(current);
  }

  private static String changedMessage(Key k) {
    return "the item "
        + describe(k)
        + " was changed by someone else since you opened it; nothing was written. Reload it to see"
        + " the current version.";
  }

  private static String goneMessage(Key k) {
    return "the item " + describe(k) + " was deleted meanwhile; nothing was written";
  }

  private static String describe(Key k) {
    return ItemView.valueText(k.partition())
        + k.sort().map(s -> " / " + ItemView.valueText(s)).orElse("");
  }

  private static Key key(TableEntry t, String keyJson) {
    if (keyJson == null) {
      throw new IllegalArgumentException("no key given");
    }
    return t.spec().keySchema().keyOf(ItemJson.parseItem(keyJson));
  }

  private static String[] keyNames(TableSpec spec) {
    List<String> names = new ArrayList<>();
    names.add(spec.keySchema().partitionName());
    spec.keySchema().sortName().ifPresent(names::add);
    return names.toArray(String[]::new);
  }

  static TableLayout layout(TableEntry t) {
    TableSpec s = t.spec();
    Stowage st = t.store().stowage();
    return new TableLayout(
        new TableRef(st.namespace(), s.name()),
        s.keySchema(),
        s.indexes().stream().map(IndexLayout::of).toList(),
        s.adoptedName().orElse(null),
        s.descendingQueries());
  }

  private static Optional<Item> readStored(TableEntry t, Key k) {
    return t.store().stowage().driver().get(layout(t), k, true).map(StoredItem::item);
  }

  /** The stored forms of a page's items, in page order (items deleted meanwhile left out). */
  private static List<Item> storedForms(TableEntry t, List<Item> items) {
    var schema = t.spec().keySchema();
    var driver = t.store().stowage().driver();
    TableLayout layout = layout(t);
    List<Key> keys = items.stream().map(schema::keyOf).toList();
    Map<Key, Item> found = new HashMap<>();
    int chunk = driver.limits().maxBatchGet();
    for (int i = 0; i < keys.size(); i += chunk) {
      List<Key> part = keys.subList(i, Math.min(keys.size(), i + chunk));
      while (!part.isEmpty()) {
        BatchGetResult r = driver.batchGet(layout, part, true);
        for (StoredItem s : r.items()) {
          found.put(schema.keyOf(s.item()), s.item());
        }
        part = r.unprocessed();
      }
    }
    List<Item> out = new ArrayList<>();
    for (Key k : keys) {
      Item s = found.get(k);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** A request for something that does not exist (404). */
  static final class NotFound extends RuntimeException {
    NotFound(String message) {
      super(message);
    }
  }

  /** A write refused because the item changed or exists (409). */
  static final class Conflict extends RuntimeException {
    Conflict(String message) {
      super(message);
    }
  }
}
