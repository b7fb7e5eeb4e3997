package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.NativeDoubles;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One query of a native index: a Datastore query on the index's plain properties, an equality on
 * the partition property and a range on the sort property, ordered by it and then {@code __key__}.
 *
 * <p>Datastore orders a property's values by type before value (in the emulator: integers,
 * booleans, strings and blobs together by bytes, then doubles), and its range filters are not
 * bounded by type, while Stowage orders one type by value, numbers numerically. So the query runs
 * as one <em>stream</em> per native type that can hold the partition value and the sort values:
 * strings, blobs, and for numbers both 64-bit integers and doubles (a number Stowage reads equal
 * from either). Each stream bounds its range to its type, drops every entity whose properties have
 * another native type or fall outside the exact range (bounds translated into a type can only
 * widen), and reads on with Datastore cursors until it has the page; the streams are then merged by
 * (sort value, primary key). Resuming after a position first finishes the position's sort value in
 * each stream ({@code = S} and {@code __key__} beyond the position) and then continues strictly
 * beyond it. Strings compare by UTF-8 bytes and blobs unsigned in Datastore as in Stowage, and
 * {@code __key__} order is primary-key order (see {@link KeyNames}).
 */
final class NativeIndexQuery {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private final Datastore datastore;
  private final Billing billing;
  private final Entities entities;
  private final TableLayout table;
  private final IndexLayout ix;
  private final DriverQuery q;
  private final String partitionProperty;
  private final String sortProperty;

  NativeIndexQuery(
      Datastore datastore,
      Entities entities,
      Billing billing,
      TableLayout table,
      IndexLayout ix,
      DriverQuery q) {
    this.datastore = datastore;
    this.billing = billing;
    this.entities = entities;
    this.table = table;
    this.ix = ix;
    this.q = q;
    this.partitionProperty = Values.propertyName(ix.partitionAttribute());
    this.sortProperty = ix.sortAttribute() == null ? null : Values.propertyName(ix.sortAttribute());
  }

  /** An entry read from a stream: the item, its primary key and its sort value (or null). */
  private record Entry(StoredItem item, Key key, KeyValue sort) {}

  QueryResult run() {
    List<Entry> merged = new ArrayList<>();
    boolean more = false;
    for (Value<?> partition : partitionValues(q.partition())) {
      for (ValueType sortType : sortTypes()) {
        List<Entry> stream = stream(partition, sortType);
        merged.addAll(stream);
        more |= stream.size() == q.limit();
      }
    }
    Comparator<Entry> order =
        Comparator.comparing(
                Entry::sort,
                Comparator.nullsFirst((KeyValue a, KeyValue b) -> KeyValue.compare(a, b)))
            .thenComparing(Entry::key);
    merged.sort(q.descending() ? order.reversed() : order);
    List<StoredItem> out = new ArrayList<>();
    for (int i = 0; i < Math.min(q.limit(), merged.size()); i++) {
      out.add(merged.get(i).item());
    }
    return new QueryResult(out, more || merged.size() > q.limit());
  }

  /** The native values equal to the partition value, one per native type that holds it. */
  private static List<Value<?>> partitionValues(KeyValue p) {
    if (p instanceof AttributeValue.StringValue s) {
      return List.of(StringValue.of(s.value()));
    }
    if (p instanceof AttributeValue.BinaryValue b) {
      return List.of(BlobValue.of(Blob.copyFrom(b.value().asReadOnlyBuffer())));
    }
    BigDecimal n = ((AttributeValue.NumberValue) p).value();
    List<Value<?>> out = new ArrayList<>(2);
    if (fitsLong(n)) {
      out.add(LongValue.of(n.longValueExact()));
    }
    Double d = NativeDoubles.exact(n);
    if (d != null) {
      out.add(DoubleValue.of(d));
    }
    return out;
  }

  /** The native types of the sort property's values, or one null without a sort attribute. */
  private List<ValueType> sortTypes() {
    if (ix.sortType() == null) {
      return java.util.Collections.singletonList(null);
    }
    return switch (ix.sortType()) {
      case STRING -> List.of(ValueType.STRING);
      case BINARY -> List.of(ValueType.BLOB);
      default -> List.of(ValueType.LONG, ValueType.DOUBLE);
    };
  }

  /** Up to {@code limit} entries of one stream, in the query's order, after the start position. */
  private List<Entry> stream(Value<?> partition, ValueType sortType) {
    List<Entry> out = new ArrayList<>();
    KeyRange range = q.range();
    if (q.exclusiveStart() != null) {
      com.google.cloud.datastore.Key start = entities.key(table, q.exclusiveStart().key());
      Filter beyondKey =
          q.descending()
              ? PropertyFilter.lt(Queries.KEY, start)
              : PropertyFilter.gt(Queries.KEY, start);
      if (sortType == null) {
        read(
            List.of(PropertyFilter.eq(partitionProperty, partition), beyondKey),
            false,
            partition,
            null,
            range,
            out);
        return out;
      }
      KeyValue at = q.exclusiveStart().indexSort();
      Value<?> atNative = exactly(at, sortType);
      if (atNative != null && range.contains(at)) {
        // Finish the entries sharing the position's sort value, beyond its key.
        read(
            List.of(
                PropertyFilter.eq(partitionProperty, partition),
                PropertyFilter.eq(sortProperty, atNative),
                beyondKey),
            false,
            partition,
            sortType,
            range,
            out);
      }
      range = beyond(range, at);
      if (range == null) {
        return out;
      }
    }
    if (out.size() >= q.limit()) {
      return out;
    }
    List<Filter> filters = new ArrayList<>();
    filters.add(PropertyFilter.eq(partitionProperty, partition));
    if (sortType != null && !bounds(range, sortType, filters)) {
      return out; // no value of this type lies in the range
    }
    read(filters, sortType != null, partition, sortType, range, out);
    return out;
  }

  /**
   * Reads entries matching {@code filters} into {@code out} until it holds {@code limit}, keeping
   * only those whose properties have the stream's native types and whose sort value lies in the
   * exact range.
   *
   * @param bySort order by the sort property before {@code __key__}
   */
  private void read(
      List<Filter> filters,
      boolean bySort,
      Value<?> partition,
      ValueType sortType,
      KeyRange range,
      List<Entry> out) {
    EntityQuery.Builder b =
        Query.newEntityQueryBuilder()
            .setNamespace(table.ref().namespace())
            .setKind(Entities.kind(table))
            .setFilter(
                filters.size() == 1
                    ? filters.get(0)
                    : CompositeFilter.and(
                        filters.get(0), filters.subList(1, filters.size()).toArray(new Filter[0])));
    if (bySort) {
      b.addOrderBy(q.descending() ? OrderBy.desc(sortProperty) : OrderBy.asc(sortProperty));
    }
    b.addOrderBy(q.descending() ? OrderBy.desc(Queries.KEY) : OrderBy.asc(Queries.KEY));
    Cursor cursor = null;
    while (out.size() < q.limit()) {
      int ask = q.limit() - out.size();
      b.setLimit(ask);
      if (cursor != null) {
        b.setStartCursor(cursor);
      }
      int read = 0;
      try {
        QueryResults<Entity> results = datastore.run(b.build());
        while (results.hasNext()) {
          Entity e = results.next();
          read++;
          Entry entry = accept(e, partition, sortType, range);
          if (entry != null) {
            out.add(entry);
          }
        }
        billing.query(table, ix.name(), read);
        cursor = results.getCursorAfter();
      } catch (DatastoreException e) {
        throw Errors.translate("querying native index " + ix.name() + " of " + table.ref(), e);
      }
      if (read < ask) {
        return;
      }
    }
  }

  /** The entry of an entity if it belongs to this stream and the range, else null. */
  private Entry accept(Entity e, Value<?> partition, ValueType sortType, KeyRange range) {
    if (!e.contains(partitionProperty)
        || e.getValue(partitionProperty).getType() != partition.getType()) {
      return null;
    }
    KeyValue sort = null;
    if (sortType != null) {
      if (!e.contains(sortProperty) || e.getValue(sortProperty).getType() != sortType) {
        return null;
      }
    }
    StoredItem item = entities.fromEntity(table, e);
    if (!q.partition().equals(item.item().find(ix.partitionAttribute()).orElse(null))) {
      return null;
    }
    if (sortType != null) {
      AttributeValue v = item.item().find(ix.sortAttribute()).orElse(null);
      // A double outside Stowage's number range reads as a string: it is in no Stowage range.
      if (!(v instanceof KeyValue k) || k.type() != ix.sortType() || !inRange(range, k)) {
        return null;
      }
      sort = k;
    }
    return new Entry(item, table.keySchema().keyOf(item.item()), sort);
  }

  private static boolean inRange(KeyRange r, KeyValue v) {
    if (r.prefix() instanceof AttributeValue.StringValue p
        && !(v instanceof AttributeValue.StringValue s && s.value().startsWith(p.value()))) {
      return false;
    }
    if (r.prefix() instanceof AttributeValue.BinaryValue p
        && !(v instanceof AttributeValue.BinaryValue b && b.value().startsWith(p.value()))) {
      return false;
    }
    return r.contains(v);
  }

  /** The range narrowed to values strictly beyond {@code at} in the query's direction, or null. */
  private KeyRange beyond(KeyRange r, KeyValue at) {
    KeyRange out;
    if (!q.descending()) {
      boolean keep = r.lower() != null && KeyValue.compare(r.lower(), at) > 0;
      out =
          new KeyRange(
              keep ? r.lower() : at,
              keep && r.lowerInclusive(),
              r.upper(),
              r.upperInclusive(),
              r.prefix());
    } else {
      boolean keep = r.upper() != null && KeyValue.compare(r.upper(), at) < 0;
      out =
          new KeyRange(
              r.lower(),
              r.lowerInclusive(),
              keep ? r.upper() : at,
              keep && r.upperInclusive(),
              r.prefix());
    }
    if (out.lower() != null && out.upper() != null) {
      int c = KeyValue.compare(out.lower(), out.upper());
      if (c > 0 || (c == 0 && !(out.lowerInclusive() && out.upperInclusive()))) {
        return null;
      }
    }
    return out;
  }

  /**
   * Adds the range's bounds as filters on values of {@code type}, bounding the stream to that type
   * where the range leaves a side open. Bounds that the type cannot hold exactly are widened (the
   * exact range is checked on every entity). False if no value of the type lies in the range.
   */
  private boolean bounds(KeyRange r, ValueType type, List<Filter> filters) {
    String s = sortProperty;
    switch (type) {
      case STRING -> {
        filters.add(
            r.lower() == null
                ? PropertyFilter.ge(s, "")
                : lower(
                    s,
                    StringValue.of(((AttributeValue.StringValue) r.lower()).value()),
                    r.lowerInclusive()));
        if (r.upper() != null) {
          filters.add(
              upper(
                  s,
                  StringValue.of(((AttributeValue.StringValue) r.upper()).value()),
                  r.upperInclusive()));
        }
        return true;
      }
      case BLOB -> {
        filters.add(
            r.lower() == null
                ? PropertyFilter.ge(s, Blob.copyFrom(new byte[0]))
                : lower(s, BlobValue.of(blob(r.lower())), r.lowerInclusive()));
        if (r.upper() != null) {
          filters.add(upper(s, BlobValue.of(blob(r.upper())), r.upperInclusive()));
        }
        return true;
      }
      case LONG -> {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        if (r.lower() != null) {
          BigDecimal x = number(r.lower());
          if (x.compareTo(LONG_MAX) > 0) {
            return false;
          }
          if (x.compareTo(LONG_MIN) >= 0) {
            BigDecimal c = x.setScale(0, RoundingMode.CEILING);
            lo = c.longValueExact();
            if (c.compareTo(x) == 0 && !r.lowerInclusive()) {
              if (lo == Long.MAX_VALUE) {
                return false;
              }
              lo++;
            }
          }
        }
        if (r.upper() != null) {
          BigDecimal x = number(r.upper());
          if (x.compareTo(LONG_MIN) < 0) {
            return false;
          }
          if (x.compareTo(LONG_MAX) <= 0) {
            BigDecimal f = x.setScale(0, RoundingMode.FLOOR);
            hi = f.longValueExact();
            if (f.compareTo(x) == 0 && !r.upperInclusive()) {
              if (hi == Long.MIN_VALUE) {
                return false;
              }
              hi--;
            }
          }
        }
        if (lo > hi) {
          return false;
        }
        filters.add(PropertyFilter.ge(s, lo));
        filters.add(PropertyFilter.le(s, hi));
        return true;
      }
      default -> {
        // Doubles: the nearest double of each bound, one step wider; the exact check follows.
        double lo = -Double.MAX_VALUE;
        double hi = Double.MAX_VALUE;
        if (r.lower() != null) {
          lo = Math.max(-Double.MAX_VALUE, Math.nextDown(number(r.lower()).doubleValue()));
        }
        if (r.upper() != null) {
          hi = Math.min(Double.MAX_VALUE, Math.nextUp(number(r.upper()).doubleValue()));
        }
        filters.add(PropertyFilter.ge(s, lo));
        filters.add(PropertyFilter.le(s, hi));
        return true;
      }
    }
  }

  private static Filter lower(String property, Value<?> v, boolean inclusive) {
    return inclusive ? PropertyFilter.ge(property, v) : PropertyFilter.gt(property, v);
  }

  private static Filter upper(String property, Value<?> v, boolean inclusive) {
    return inclusive ? PropertyFilter.le(property, v) : PropertyFilter.lt(property, v);
  }

  /** {@code v} as a value of the native type, or null if that type cannot hold it exactly. */
  private static Value<?> exactly(KeyValue v, ValueType type) {
    return switch (type) {
      case STRING -> StringValue.of(((AttributeValue.StringValue) v).value());
      case BLOB -> BlobValue.of(blob(v));
      case LONG -> fitsLong(number(v)) ? LongValue.of(number(v).longValueExact()) : null;
      default -> {
        Double d = NativeDoubles.exact(number(v));
        yield d == null ? null : DoubleValue.of(d);
      }
    };
  }

  private static Blob blob(KeyValue v) {
    return Blob.copyFrom(((AttributeValue.BinaryValue) v).value().asReadOnlyBuffer());
  }

  private static BigDecimal number(KeyValue v) {
    return ((AttributeValue.NumberValue) v).value();
  }

  private static boolean fitsLong(BigDecimal n) {
    return n.scale() <= 0 && n.compareTo(LONG_MIN) >= 0 && n.compareTo(LONG_MAX) <= 0;
  }
}
