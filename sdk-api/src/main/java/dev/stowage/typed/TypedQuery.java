package dev.stowage.typed;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.typed.internal.Mapper;
import dev.stowage.typed.internal.Property;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A query of a typed table, with partition and sort values given as field values and converted as
 * the fields are stored. Obtained from {@link TypedTable#query(java.util.function.UnaryOperator)};
 * not thread-safe. Values are checked against the fields when the query is built: a value of
 * another type fails with {@link InvalidRequestException} naming the field. A {@link KeyValue}
 * given directly is taken as the stored form; for {@link #sortBeginsWith} the last component may be
 * a string (or {@code byte[]}) prefix of a field stored as a string (or binary) value, such as
 * {@code "2026-05"} for an {@code Instant} or {@code LocalDate}.
 *
 * @param <T> the table's class
 */
public final class TypedQuery<T> {
  private final Mapper<T> mapper;
  private String index;
  private Object[] partition;
  private SortCondition.Operator op;
  private Object[] sortValues;
  private Object[] sortHigh;
  private boolean descending;
  private int limit = 100;
  private Condition filter;
  private boolean consistentRead;

  TypedQuery(Mapper<T> mapper) {
    this.mapper = mapper;
  }

  /** Queries this index (declared with {@link Indexed}) instead of the primary key. */
  public TypedQuery<T> index(String indexName) {
    this.index = indexName;
    return this;
  }

  /** The partition key value, or for an index the values of its partition columns in order. */
  public TypedQuery<T> partition(Object... values) {
    this.partition = values.clone();
    return this;
  }

  /** Sort part equals the values (a prefix of an index's sort columns). */
  public TypedQuery<T> sortEq(Object... tuple) {
    return sort(SortCondition.Operator.EQ, tuple, null);
  }

  /** Sort part less than the values. */
  public TypedQuery<T> sortLt(Object... tuple) {
    return sort(SortCondition.Operator.LT, tuple, null);
  }

  /** Sort part less than or equal to the values. */
  public TypedQuery<T> sortLe(Object... tuple) {
    return sort(SortCondition.Operator.LE, tuple, null);
  }

  /** Sort part greater than the values. */
  public TypedQuery<T> sortGt(Object... tuple) {
    return sort(SortCondition.Operator.GT, tuple, null);
  }

  /** Sort part greater than or equal to the values. */
  public TypedQuery<T> sortGe(Object... tuple) {
    return sort(SortCondition.Operator.GE, tuple, null);
  }

  /** Sort part between low and high, both inclusive. */
  public TypedQuery<T> sortBetween(Object low, Object high) {
    return sort(SortCondition.Operator.BETWEEN, new Object[] {low}, new Object[] {high});
  }

  /** Sort tuple between the low and high tuples, both inclusive. */
  public TypedQuery<T> sortBetween(List<?> low, List<?> high) {
    return sort(SortCondition.Operator.BETWEEN, low.toArray(), high.toArray());
  }

  /** Exact leading components, then a string or binary prefix of the next one. */
  public TypedQuery<T> sortBeginsWith(Object... tuple) {
    return sort(SortCondition.Operator.BEGINS_WITH, tuple, null);
  }

  private TypedQuery<T> sort(SortCondition.Operator op, Object[] values, Object[] high) {
    this.op = op;
    this.sortValues = values.clone();
    this.sortHigh = high;
    return this;
  }

  /** Descending sort order. */
  public TypedQuery<T> descending() {
    this.descending = true;
    return this;
  }

  /** Ascending ({@code false}) or descending ({@code true}) sort order. */
  public TypedQuery<T> descending(boolean descending) {
    this.descending = descending;
    return this;
  }

  /** Items per page, 1 to {@value Query#MAX_LIMIT}; default 100. */
  public TypedQuery<T> limit(int limit) {
    this.limit = limit;
    return this;
  }

  /** A filter on each item, for example built with {@link TypedTable#field(String)}. */
  public TypedQuery<T> filter(Condition filter) {
    this.filter = filter;
    return this;
  }

  /** Strongly consistent reads. */
  public TypedQuery<T> consistentRead(boolean consistent) {
    this.consistentRead = consistent;
    return this;
  }

  /**
   * The untyped query.
   *
   * @throws InvalidRequestException if a value does not fit its column, the index is unknown, or no
   *     partition was given
   */
  public Query build() {
    TableSpec spec = mapper.spec();
    List<Property> partCols;
    List<Property> sortCols;
    if (index == null) {
      partCols = List.of(mapper.partition());
      sortCols = mapper.sort() == null ? List.of() : List.of(mapper.sort());
    } else {
      IndexSpec ix =
          spec.index(index)
              .orElseThrow(
                  () ->
                      new InvalidRequestException(
                          mapper.type().getName()
                              + " declares no index '"
                              + index
                              + "'; its indexes: "
                              + spec.indexes().stream().map(IndexSpec::name).toList()));
      partCols = columns(ix.partitionAttributes());
      sortCols = columns(ix.sortAttributes());
    }
    if (partition == null || partition.length == 0) {
      throw new InvalidRequestException("a query needs its partition value(s)");
    }
    if (partition.length != partCols.size()) {
      throw new InvalidRequestException(
          "the partition of "
              + (index == null ? "the table" : "index '" + index + "'")
              + " has "
              + partCols.size()
              + " column(s) "
              + partCols.stream().map(Property::field).toList()
              + ", not "
              + partition.length
              + " value(s) "
              + Arrays.toString(partition));
    }
    Query.Builder q =
        index == null ? Query.partition(keyValues(partCols, partition, false)) : Query.index(index);
    if (index != null) {
      q.partition(keyValues(partCols, partition, false));
    }
    if (op != null) {
      if (sortValues.length > sortCols.size()
          || (sortHigh != null && sortHigh.length > sortCols.size())) {
        throw new InvalidRequestException(
            "the sort part has "
                + sortCols.size()
                + " column(s) "
                + sortCols.stream().map(Property::field).toList()
                + ", not "
                + sortValues.length
                + " value(s)");
      }
      KeyValue[] low = keyValues(sortCols, sortValues, op == SortCondition.Operator.BEGINS_WITH);
      List<KeyValue> high =
          sortHigh == null ? List.of() : List.of(keyValues(sortCols, sortHigh, false));
      try {
        q.sort(new SortCondition(op, List.of(low), high));
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException(e.getMessage(), e);
      }
    }
    try {
      return q.descending(descending)
          .limit(limit)
          .filter(filter)
          .consistentRead(consistentRead)
          .build();
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
  }

  private List<Property> columns(List<String> attributes) {
    List<Property> out = new ArrayList<>();
    for (String a : attributes) {
      Property p = mapper.byAttribute(a);
      if (p == null) {
        throw new InvalidRequestException(
            "index attribute '" + a + "' is no field of " + mapper.type().getName());
      }
      out.add(p);
    }
    return out;
  }

  private KeyValue[] keyValues(List<Property> cols, Object[] values, boolean lastIsPrefix) {
    KeyValue[] out = new KeyValue[values.length];
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      Property p = cols.get(i);
      if (v instanceof KeyValue kv) {
        out[i] = kv;
      } else if (lastIsPrefix
          && i == values.length - 1
          && v instanceof String s
          && p.storedType() == AttributeType.STRING) {
        out[i] = AttributeValue.of(s);
      } else if (lastIsPrefix
          && i == values.length - 1
          && v instanceof byte[] b
          && p.storedType() == AttributeType.BINARY) {
        out[i] = AttributeValue.of(b);
      } else {
        if (v == null) {
          throw new InvalidRequestException("query value for field '" + p.field() + "' is null");
        }
        out[i] = mapper.keyValue(p, v);
      }
    }
    return out;
  }
}
