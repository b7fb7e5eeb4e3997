package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import java.util.List;

/**
 * A validated query translated into what a driver needs: the index (if any), the partition value
 * and the sort range. Queries of indexes Stowage maintains become binary tuple encodings; queries
 * of the primary key and of native indexes ({@link IndexSpec#isNative()}) keep raw values, checked
 * against the key's or the native index's declared types. Immutable.
 *
 * <p>For index queries there are two forms of each: the full values, which the core compares an
 * item's own values with ({@code fullPartition}, {@code fullRange}), and the stored forms the
 * driver reads ({@code partition}, {@code range}), in which values longer than the backend indexes
 * have their long forms (docs/FORMAT.md, "Long index values"): the range then also covers the
 * buckets its long bounds fall in, whose entries the core orders and checks itself.
 *
 * @param index the index spec or null
 * @param layout the index layout or null
 * @param partition the driver-level partition value
 * @param range the driver-level sort range
 * @param matchesNothing true if no stored item can match: a value longer than the backend lets any
 *     stored key or indexed value be (such a query answers an empty page on every backend, without
 *     asking the backend, which would refuse the value or answer empty depending on which it is)
 * @param fullPartition the full partition value (for the primary key, the partition key value)
 * @param fullRange the sort range over full sort tuples (for the primary key, over sort keys)
 */
record QueryPlan(
    IndexSpec index,
    IndexLayout layout,
    KeyValue partition,
    KeyRange range,
    boolean matchesNothing,
    KeyValue fullPartition,
    KeyRange fullRange) {

  /**
   * Validates {@code q} against the table and plans it for a backend with {@code limits}.
   *
   * @throws InvalidRequestException or {@link NotFoundException} naming the problem
   */
  static QueryPlan of(TableSpec spec, Query q, DriverLimits limits) {
    QueryPlan plan = of(spec, q);
    if (plan.index != null && plan.index.isNative()) {
      // Raw values go to the backend as they are: values written by other applications may be
      // longer than Stowage would write, and the backend itself bounds what a query may name.
      return plan;
    }
    if (plan.index == null) {
      int max = limits.maxPartitionKeyBytes();
      return KeyRules.bytes(plan.partition) > max ? plan.nothing() : plan;
    }
    // The longest partition value and sort tuple any indexed item has (the core refuses longer
    // values); a query for a longer one matches nothing.
    long longest = limits.maxIndexedValueBytes() + DriverLimits.INDEX_VALUE_OVERHEAD;
    if (((BinaryValue) plan.partition).value().size() > longest) {
      return plan.nothing();
    }
    KeyRange r = plan.range;
    long longestSort = longest - IndexValues.PARTITION_PREFIX_BYTES;
    if (r.prefix() != null && ((BinaryValue) r.prefix()).value().size() > longestSort) {
      return plan.nothing();
    }
    long max = limits.maxIndexTupleBytes();
    BinaryValue partition =
        AttributeValue.of(IndexValues.storedPartition(((BinaryValue) plan.partition).value(), max));
    KeyRange stored = storedRange(r, max);
    if (stored.lower() != null && stored.upper() != null) {
      int c = KeyValue.compare(stored.lower(), stored.upper());
      if (c > 0 || (c == 0 && !(stored.lowerInclusive() && stored.upperInclusive()))) {
        return plan.nothing();
      }
    }
    return new QueryPlan(plan.index, plan.layout, partition, stored, false, plan.partition, r);
  }

  /**
   * The range of stored sort values holding every tuple of {@code r}: bounds and prefixes short
   * enough to be stored as they are stay exact (a bucket compares with them as its values do); a
   * longer one becomes its bucket, inclusive, whose entries the core checks against the items.
   */
  static KeyRange storedRange(KeyRange r, long maxTupleBytes) {
    if (r.prefix() != null) {
      Bytes p = ((BinaryValue) r.prefix()).value();
      Bytes sp = IndexValues.storedSort(p, maxTupleBytes);
      if (sp == p) {
        return r;
      }
      BinaryValue bucket = AttributeValue.of(sp);
      return new KeyRange(bucket, true, bucket, true, null);
    }
    KeyValue lower = r.lower();
    boolean lowerInclusive = r.lowerInclusive();
    if (lower != null) {
      Bytes b = ((BinaryValue) lower).value();
      Bytes sb = IndexValues.storedSort(b, maxTupleBytes);
      if (sb != b) {
        lower = AttributeValue.of(sb);
        lowerInclusive = true;
      }
    }
    KeyValue upper = r.upper();
    boolean upperInclusive = r.upperInclusive();
    if (upper != null) {
      Bytes b = ((BinaryValue) upper).value();
      Bytes sb = IndexValues.storedSort(b, maxTupleBytes);
      if (sb != b) {
        upper = AttributeValue.of(sb);
        upperInclusive = true;
      }
    }
    return new KeyRange(lower, lowerInclusive, upper, upperInclusive, null);
  }

  private QueryPlan nothing() {
    return new QueryPlan(index, layout, partition, range, true, fullPartition, fullRange);
  }

  /**
   * Validates {@code q} against the table and plans it.
   *
   * @throws InvalidRequestException or {@link NotFoundException} naming the problem
   */
  static QueryPlan of(TableSpec spec, Query q) {
    if (q.index().isPresent()) {
      String name = q.index().get();
      IndexSpec index =
          spec.index(name)
              .orElseThrow(
                  () ->
                      new NotFoundException(
                          "table '" + spec.name() + "' has no index '" + name + "'"));
      if (index.isNative()) {
        return nativePlan(index, q);
      }
      if (q.partitionValues().size() != index.partitionAttributes().size()) {
        throw new InvalidRequestException(
            "index '"
                + name
                + "' is partitioned by "
                + index.partitionAttributes()
                + ": give "
                + index.partitionAttributes().size()
                + " partition value(s), not "
                + q.partitionValues().size());
      }
      KeyValue partition = IndexValues.partition(index, q.partitionValues());
      KeyRange range = KeyRange.ALL;
      if (q.sort().isPresent()) {
        SortCondition s = q.sort().get();
        int arity = index.sortAttributes().size();
        if (s.values().size() > arity || s.high().size() > arity) {
          throw new InvalidRequestException(
              "index '"
                  + name
                  + "' is sorted by "
                  + index.sortAttributes()
                  + ": a sort condition"
                  + " may name at most "
                  + arity
                  + " value(s)");
        }
        range = indexRange(s);
      }
      return new QueryPlan(index, IndexLayout.of(index), partition, range, false, partition, range);
    }
    KeySchema keys = spec.keySchema();
    if (q.partitionValues().size() != 1) {
      throw new InvalidRequestException(
          "a query on the primary key of '" + spec.name() + "' takes one partition value");
    }
    KeyValue p = q.partitionValues().get(0);
    if (p.type() != keys.partitionType()) {
      throw new InvalidRequestException(
          "partition key '"
              + keys.partitionName()
              + "' is "
              + keys.partitionType()
              + ", not "
              + p.type());
    }
    KeyRange range = KeyRange.ALL;
    if (q.sort().isPresent()) {
      SortCondition s = q.sort().get();
      if (!keys.hasSort()) {
        throw new InvalidRequestException(
            "table '" + spec.name() + "' has no sort key, so a query cannot have a sort condition");
      }
      AttributeType type = keys.sortType().orElseThrow();
      if (s.values().size() != 1 || s.high().size() > 1) {
        throw new InvalidRequestException("a primary-key sort condition takes one value");
      }
      for (KeyValue v : s.values()) {
        requireType(v, type, keys);
      }
      for (KeyValue v : s.high()) {
        requireType(v, type, keys);
      }
      range = primaryRange(s);
    }
    return new QueryPlan(null, null, p, range, false, p, range);
  }

  /**
   * A query of a native index: one raw partition value and a raw sort range, exactly like a
   * primary-key query on the native index's key.
   */
  private static QueryPlan nativePlan(IndexSpec index, Query q) {
    KeySchema key = index.nativeIndex().key();
    String what = "native index '" + index.name() + "'";
    if (q.partitionValues().size() != 1) {
      throw new InvalidRequestException(
          what
              + " is partitioned by '"
              + key.partitionName()
              + "': give one partition value, not "
              + q.partitionValues().size());
    }
    KeyValue p = q.partitionValues().get(0);
    if (p.type() != key.partitionType()) {
      throw new InvalidRequestException(
          what
              + " is partitioned by '"
              + key.partitionName()
              + "', which holds "
              + key.partitionType()
              + " values, not "
              + p.type());
    }
    KeyRange range = KeyRange.ALL;
    if (q.sort().isPresent()) {
      SortCondition s = q.sort().get();
      if (!key.hasSort()) {
        throw new InvalidRequestException(
            what + " has no sort attribute, so a query of it cannot have a sort condition");
      }
      AttributeType type = key.sortType().orElseThrow();
      if (s.values().size() != 1 || s.high().size() > 1) {
        throw new InvalidRequestException(
            what
                + " is sorted by the one attribute '"
                + key.sortName().orElseThrow()
                + "': a sort condition takes one value");
      }
      for (KeyValue v : s.values()) {
        requireNativeType(v, type, what, key);
      }
      for (KeyValue v : s.high()) {
        requireNativeType(v, type, what, key);
      }
      range = primaryRange(s);
    }
    // Native values are stored as they are: the full values are the stored ones (no long forms).
    return new QueryPlan(index, IndexLayout.of(index), p, range, false, p, range);
  }

  private static void requireNativeType(
      KeyValue v, AttributeType type, String what, KeySchema key) {
    if (v.type() != type) {
      throw new InvalidRequestException(
          what
              + " is sorted by '"
              + key.sortName().orElseThrow()
              + "', which holds "
              + type
              + " values, not "
              + v.type());
    }
  }

  private static void requireType(KeyValue v, AttributeType type, KeySchema keys) {
    if (v.type() != type) {
      throw new InvalidRequestException(
          "sort key '" + keys.sortName().orElseThrow() + "' is " + type + ", not " + v.type());
    }
  }

  private static KeyRange primaryRange(SortCondition s) {
    KeyValue v = s.values().get(0);
    switch (s.op()) {
      case EQ:
        return new KeyRange(v, true, v, true, null);
      case LT:
        return new KeyRange(null, false, v, false, null);
      case LE:
        return new KeyRange(null, false, v, true, null);
      case GT:
        return new KeyRange(v, false, null, false, null);
      case GE:
        return new KeyRange(v, true, null, false, null);
      case BETWEEN:
        KeyValue hi = s.high().get(0);
        if (KeyValue.compare(v, hi) > 0) {
          throw new InvalidRequestException("between: low bound exceeds high bound");
        }
        return new KeyRange(v, true, hi, true, null);
      default:
        if (v instanceof StringValue str) {
          String end = TupleEncoding.prefixEnd(str.value());
          return new KeyRange(v, true, end == null ? null : AttributeValue.of(end), false, v);
        }
        Bytes end = TupleEncoding.prefixEnd(((BinaryValue) v).value());
        return new KeyRange(v, true, end == null ? null : AttributeValue.of(end), false, v);
    }
  }

  private static KeyRange indexRange(SortCondition s) {
    if (s.op() == SortCondition.Operator.BEGINS_WITH) {
      List<KeyValue> vals = s.values();
      Bytes prefix =
          TupleEncoding.encodePrefix(vals.subList(0, vals.size() - 1), vals.get(vals.size() - 1));
      return prefixRange(prefix);
    }
    Bytes e = TupleEncoding.encode(s.values());
    BinaryValue ev = AttributeValue.of(e);
    Bytes end = TupleEncoding.prefixEnd(e);
    BinaryValue endv = end == null ? null : AttributeValue.of(end);
    switch (s.op()) {
      case EQ:
        return prefixRange(e);
      case LT:
        return new KeyRange(null, false, ev, false, null);
      case LE:
        return new KeyRange(null, false, endv, false, null);
      case GT:
        return new KeyRange(endv, true, null, false, null);
      case GE:
        return new KeyRange(ev, true, null, false, null);
      default: // BETWEEN
        Bytes hiEnd = TupleEncoding.prefixEnd(TupleEncoding.encode(s.high()));
        if (ev.value().compareTo(TupleEncoding.encode(s.high())) > 0) {
          throw new InvalidRequestException("between: low bound exceeds high bound");
        }
        return new KeyRange(ev, true, hiEnd == null ? null : AttributeValue.of(hiEnd), false, null);
    }
  }

  private static KeyRange prefixRange(Bytes prefix) {
    Bytes end = TupleEncoding.prefixEnd(prefix);
    BinaryValue pv = AttributeValue.of(prefix);
    return new KeyRange(pv, true, end == null ? null : AttributeValue.of(end), false, pv);
  }
}
