package dev.stowage.query;

import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A query: the items of one partition of the table or of one of its indexes, optionally restricted
 * by a sort condition, in ascending or descending sort order, a page at a time.
 *
 * <p>{@link #limit()} is the number of items a page returns: a filter trims evaluated items but the
 * page is topped up, so a page is short only when the query is exhausted. The whole query travels
 * inside the page cursors, so the next page needs nothing but a cursor. Immutable and thread-safe.
 */
public final class Query {
  /** Largest page size. */
  public static final int MAX_LIMIT = 1000;

  private final String index;
  private final List<KeyValue> partition;
  private final SortCondition sort;
  private final boolean descending;
  private final int limit;
  private final Condition filter;
  private final Set<String> projection;
  private final boolean consistentRead;

  private Query(Builder b) {
    this.index = b.index;
    this.partition = List.copyOf(b.partition);
    this.sort = b.sort;
    this.descending = b.descending;
    this.limit = b.limit;
    this.filter = b.filter;
    this.projection = b.projection == null ? null : Set.copyOf(b.projection);
    this.consistentRead = b.consistentRead;
  }

  /** Starts a query on the partition whose partition key (or index partition tuple) is given. */
  public static Builder partition(KeyValue... partitionValues) {
    return new Builder().partition(partitionValues);
  }

  /** Starts a query on a string partition key. */
  public static Builder partition(String partitionValue) {
    return new Builder().partition(AttributeValue.of(partitionValue));
  }

  /** Starts a query on a number partition key. */
  public static Builder partition(long partitionValue) {
    return new Builder().partition(AttributeValue.of(partitionValue));
  }

  /** Starts an index query; then name the partition tuple with {@link Builder#partition}. */
  public static Builder index(String indexName) {
    return new Builder().index(indexName);
  }

  /** The index name, or empty for the table's primary key. */
  public Optional<String> index() {
    return Optional.ofNullable(index);
  }

  /** The partition key value, or the index's partition tuple. */
  public List<KeyValue> partitionValues() {
    return partition;
  }

  /** The sort condition, if any. */
  public Optional<SortCondition> sort() {
    return Optional.ofNullable(sort);
  }

  /** True for descending sort order. */
  public boolean descending() {
    return descending;
  }

  /** Items per page. */
  public int limit() {
    return limit;
  }

  /** The filter applied to each item after the key conditions, if any. */
  public Optional<Condition> filter() {
    return Optional.ofNullable(filter);
  }

  /** The attributes to return, or empty for all. */
  public Optional<Set<String>> projection() {
    return Optional.ofNullable(projection);
  }

  /** True for a strongly consistent read (primary key queries; see the backend's notes). */
  public boolean consistentRead() {
    return consistentRead;
  }

  /** A builder holding this query's settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.index = index;
    b.partition = partition;
    b.sort = sort;
    b.descending = descending;
    b.limit = limit;
    b.filter = filter;
    b.projection = projection;
    b.consistentRead = consistentRead;
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Query q
        && Objects.equals(index, q.index)
        && partition.equals(q.partition)
        && Objects.equals(sort, q.sort)
        && descending == q.descending
        && limit == q.limit
        && Objects.equals(filter, q.filter)
        && Objects.equals(projection, q.projection)
        && consistentRead == q.consistentRead;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        index, partition, sort, descending, limit, filter, projection, consistentRead);
  }

  @Override
  public String toString() {
    return "Query(index="
        + index
        + ", partition="
        + partition
        + ", sort="
        + sort
        + ", descending="
        + descending
        + ", limit="
        + limit
        + ", filter="
        + filter
        + ", projection="
        + projection
        + ")";
  }

  /** Builds a {@link Query}; not thread-safe. */
  public static final class Builder {
    private String index;
    private List<KeyValue> partition = List.of();
    private SortCondition sort;
    private boolean descending;
    private int limit = 100;
    private Condition filter;
    private Set<String> projection;
    private boolean consistentRead;

    private Builder() {}

    /** Queries this index instead of the primary key. */
    public Builder index(String indexName) {
      this.index = Objects.requireNonNull(indexName, "indexName");
      return this;
    }

    /**
     * The partition key value, or for an index the values of its partition attributes in the
     * index's order: {@code Query.index("byKind").partition(AttributeValue.of("t"),
     * AttributeValue.of("click"))}.
     */
    public Builder partition(KeyValue... values) {
      this.partition = List.of(values);
      return this;
    }

    /**
     * The partition key value, or an index's partition tuple, when every value is a string: {@code
     * Query.index("byStatus").partition("paid")}.
     */
    public Builder partition(String... values) {
      KeyValue[] keyValues = new KeyValue[values.length];
      for (int i = 0; i < values.length; i++) {
        keyValues[i] = AttributeValue.of(values[i]);
      }
      return partition(keyValues);
    }

    /** The partition key value, or an index's partition tuple of one number. */
    public Builder partition(long value) {
      return partition(AttributeValue.of(value));
    }

    /** The sort condition. */
    public Builder sort(SortCondition condition) {
      this.sort = condition;
      return this;
    }

    /** Descending sort order. */
    public Builder descending() {
      this.descending = true;
      return this;
    }

    /** Ascending ({@code false}) or descending ({@code true}) sort order. */
    public Builder descending(boolean descending) {
      this.descending = descending;
      return this;
    }

    /** Items per page, 1 to {@value Query#MAX_LIMIT}; default 100. */
    public Builder limit(int limit) {
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", was " + limit);
      }
      this.limit = limit;
      return this;
    }

    /** A filter on each item. */
    public Builder filter(Condition filter) {
      this.filter = filter;
      return this;
    }

    /** Return only these attributes. */
    public Builder project(String... attributes) {
      TreeSet<String> s = new TreeSet<>();
      for (String a : attributes) {
        s.add(AttributeNames.validate(a));
      }
      this.projection = s;
      return this;
    }

    /** Strongly consistent reads. */
    public Builder consistentRead(boolean consistent) {
      this.consistentRead = consistent;
      return this;
    }

    /** The query. @throws IllegalArgumentException if no partition was given */
    public Query build() {
      if (partition.isEmpty()) {
        throw new IllegalArgumentException("a query needs its partition value(s)");
      }
      return new Query(this);
    }
  }
}
