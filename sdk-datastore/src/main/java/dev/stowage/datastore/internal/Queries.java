package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs partition queries, index queries and scans as single-kind Datastore queries.
 *
 * <p>A primary-key query is one {@code __key__} range in the partition's name interval ordered by
 * {@code __key__}; it needs no composite index except for descending order. An index query filters
 * {@code stowage:ix:<name>:p = v} with a range on {@code stowage:ix:<name>:s}, ordered by it and
 * then {@code __key__}; resuming after a position first finishes the position's sort value ({@code
 * _s = S} and {@code __key__} beyond the position) and then continues strictly beyond {@code S}. A
 * native index query runs on the index's plain properties ({@link NativeIndexQuery}). Every shape
 * used here is listed by {@link dev.stowage.datastore.DatastoreIndexes}. Thread-safe.
 */
public final class Queries {
  /** The special property of the key. */
  public static final String KEY = "__key__";

  private final Datastore datastore;
  private final Entities entities;

  private final Billing billing;

  /** Queries through this client. */
  public Queries(Datastore datastore, Entities entities, Billing billing) {
    this.datastore = datastore;
    this.entities = entities;
    this.billing = billing;
  }

  /** Runs a driver query. */
  public QueryResult query(TableLayout table, DriverQuery q) {
    if (q.index() != null) {
      return index(table, q);
    }
    return table.adopted() ? adoptedPartition(table, q) : primary(table, q);
  }

  /**
   * A partition of an adopted kind is the one entity whose name or id is the partition value (the
   * kind has no sort key), so it is a lookup, not a query.
   */
  private QueryResult adoptedPartition(TableLayout table, DriverQuery q) {
    if (q.range().lower() != null || q.range().upper() != null) {
      throw new InvalidRequestException(
          "table " + table.ref() + " is an adopted kind without a sort key; it has no sort range");
    }
    if (q.exclusiveStart() != null) {
      return new QueryResult(List.of(), false); // the partition's one item was returned already
    }
    Key key = entities.key(table, dev.stowage.item.Key.of(q.partition()));
    try {
      Entity e = datastore.get(key);
      billing.reads(table, 1);
      return new QueryResult(e == null ? List.of() : List.of(entities.fromEntity(table, e)), false);
    } catch (DatastoreException e) {
      throw Errors.translate("querying " + Entities.describe(table), e);
    }
  }

  private QueryResult primary(TableLayout table, DriverQuery q) {
    TableRef ref = table.ref();
    KeyValue p = q.partition();
    List<Filter> filters = new ArrayList<>();
    KeyRange r = q.range();
    filters.add(
        r.lower() == null
            ? PropertyFilter.ge(KEY, entities.keyOfName(table, KeyNames.partitionStart(p)))
            : bound(
                r.lowerInclusive(), true, entities.keyOfName(table, KeyNames.bound(p, r.lower()))));
    filters.add(
        r.upper() == null
            ? PropertyFilter.lt(KEY, entities.keyOfName(table, KeyNames.partitionEnd(p)))
            : bound(
                r.upperInclusive(),
                false,
                entities.keyOfName(table, KeyNames.bound(p, r.upper()))));
    if (q.exclusiveStart() != null) {
      Key start = entities.key(table, q.exclusiveStart().key());
      filters.add(q.descending() ? PropertyFilter.lt(KEY, start) : PropertyFilter.gt(KEY, start));
    }
    EntityQuery query =
        Query.newEntityQueryBuilder()
            .setNamespace(ref.namespace())
            .setKind(Entities.kind(table))
            .setFilter(and(filters))
            .setOrderBy(q.descending() ? OrderBy.desc(KEY) : OrderBy.asc(KEY))
            .setLimit(q.limit())
            .build();
    List<StoredItem> items = run(table, query, "querying " + ref);
    return new QueryResult(items, items.size() == q.limit());
  }

  private QueryResult index(TableLayout table, DriverQuery q) {
    IndexLayout ix =
        table
            .index(q.index())
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        "table " + table.ref() + " has no index '" + q.index() + "'"));
    if (ix.isNative()) {
      return new NativeIndexQuery(datastore, entities, billing, table, ix, q).run();
    }
    Blob partition = blob(q.partition());
    String s = ix.sortAttribute();
    KeyRange r = q.range();
    List<StoredItem> out = new ArrayList<>();
    List<Filter> rangeFilters = new ArrayList<>();
    if (r.lower() != null) {
      rangeFilters.add(
          r.lowerInclusive()
              ? PropertyFilter.ge(s, blob(r.lower()))
              : PropertyFilter.gt(s, blob(r.lower())));
    }
    if (r.upper() != null) {
      rangeFilters.add(
          r.upperInclusive()
              ? PropertyFilter.le(s, blob(r.upper()))
              : PropertyFilter.lt(s, blob(r.upper())));
    }
    if (q.exclusiveStart() != null) {
      if (q.exclusiveStart().indexSort() == null) {
        throw new InvalidRequestException("an index query position needs the index sort value");
      }
      KeyValue sortAt = q.exclusiveStart().indexSort();
      Blob at = blob(sortAt);
      if (r.contains(sortAt)) {
        // Finish the entries sharing the position's sort value, beyond its key.
        Key start = entities.key(table, q.exclusiveStart().key());
        List<Filter> sameSort = new ArrayList<>();
        sameSort.add(PropertyFilter.eq(ix.partitionAttribute(), partition));
        sameSort.add(PropertyFilter.eq(s, at));
        sameSort.add(
            q.descending() ? PropertyFilter.lt(KEY, start) : PropertyFilter.gt(KEY, start));
        out.addAll(
            run(
                table,
                indexQuery(table, sameSort, null, q.descending(), q.limit()),
                "querying index " + ix.name()));
      }
      rangeFilters.add(q.descending() ? PropertyFilter.lt(s, at) : PropertyFilter.gt(s, at));
    }
    if (out.size() < q.limit()) {
      List<Filter> filters = new ArrayList<>();
      filters.add(PropertyFilter.eq(ix.partitionAttribute(), partition));
      filters.addAll(rangeFilters);
      out.addAll(
          run(
              table,
              indexQuery(table, filters, s, q.descending(), q.limit() - out.size()),
              "querying index " + ix.name()));
    }
    return new QueryResult(out, out.size() == q.limit());
  }

  private static EntityQuery indexQuery(
      TableLayout table, List<Filter> filters, String sortProperty, boolean desc, int limit) {
    EntityQuery.Builder b =
        Query.newEntityQueryBuilder()
            .setNamespace(table.ref().namespace())
            .setKind(Entities.kind(table))
            .setFilter(and(filters))
            .setLimit(limit);
    if (sortProperty != null) {
      b.addOrderBy(desc ? OrderBy.desc(sortProperty) : OrderBy.asc(sortProperty));
    }
    b.addOrderBy(desc ? OrderBy.desc(KEY) : OrderBy.asc(KEY));
    return b.build();
  }

  /**
   * Scans a kind in key order: Stowage's key order for its own tables (see {@link KeyNames}) and
   * for adopted kinds, whose root keys are all names (by UTF-8 bytes) or all ids (numerically).
   */
  public QueryResult scan(TableLayout table, DriverScan scan) {
    TableRef ref = table.ref();
    EntityQuery.Builder b =
        Query.newEntityQueryBuilder()
            .setNamespace(ref.namespace())
            .setKind(Entities.kind(table))
            .setOrderBy(OrderBy.asc(KEY))
            .setLimit(scan.limit());
    if (scan.exclusiveStart() != null) {
      b.setFilter(PropertyFilter.gt(KEY, entities.key(table, scan.exclusiveStart())));
    }
    List<StoredItem> items = run(table, b.build(), "scanning " + Entities.describe(table));
    return new QueryResult(items, items.size() == scan.limit());
  }

  private List<StoredItem> run(TableLayout table, EntityQuery query, String what) {
    try {
      QueryResults<Entity> results = datastore.run(query);
      List<StoredItem> items = new ArrayList<>();
      while (results.hasNext()) {
        items.add(entities.fromEntity(table, results.next()));
      }
      billing.query(table, "", items.size());
      return items;
    } catch (DatastoreException e) {
      throw Errors.translate(what, e);
    }
  }

  private static Filter bound(boolean inclusive, boolean lower, Key key) {
    if (lower) {
      return inclusive ? PropertyFilter.ge(KEY, key) : PropertyFilter.gt(KEY, key);
    }
    return inclusive ? PropertyFilter.le(KEY, key) : PropertyFilter.lt(KEY, key);
  }

  private static Filter and(List<Filter> filters) {
    if (filters.size() == 1) {
      return filters.get(0);
    }
    return CompositeFilter.and(
        filters.get(0), filters.subList(1, filters.size()).toArray(new Filter[0]));
  }

  private static Blob blob(KeyValue v) {
    if (!(v instanceof BinaryValue b)) {
      throw new InvalidRequestException("index values must be binary, got " + v.type());
    }
    return Blob.copyFrom(b.value().asReadOnlyBuffer());
  }
}
