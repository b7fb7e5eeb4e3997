package dev.stowage.item;

import java.util.Objects;
import java.util.Optional;

/**
 * An item's primary key: a partition value and, for tables with a sort key, a sort value.
 *
 * <p>Immutable and thread-safe. Keys order by partition value then sort value, in {@link
 * KeyValue#compare key order}.
 */
public final class Key implements Comparable<Key> {
  private final KeyValue partition;
  private final KeyValue sort;

  /**
   * The hash code once computed (0: not yet), as {@link String} keeps its own: keys are looked up
   * in hash tables (the memory driver finds items by key) and are immutable. Racing threads compute
   * the same value.
   */
  private int hash;

  private Key(KeyValue partition, KeyValue sort) {
    this.partition = Objects.requireNonNull(partition, "partition key value");
    this.sort = sort;
  }

  /** A key for a table without a sort key. */
  public static Key of(KeyValue partition) {
    return new Key(partition, null);
  }

  /** A key for a table with a sort key. */
  public static Key of(KeyValue partition, KeyValue sort) {
    return new Key(partition, Objects.requireNonNull(sort, "sort key value"));
  }

  /** A string partition key. */
  public static Key of(String partition) {
    return of(AttributeValue.of(partition));
  }

  /** A string partition key with a string sort key. */
  public static Key of(String partition, String sort) {
    return of(AttributeValue.of(partition), AttributeValue.of(sort));
  }

  /** A string partition key with a number sort key. */
  public static Key of(String partition, long sort) {
    return of(AttributeValue.of(partition), AttributeValue.of(sort));
  }

  /** A number partition key. */
  public static Key of(long partition) {
    return of(AttributeValue.of(partition));
  }

  /** A number partition key with a number sort key. */
  public static Key of(long partition, long sort) {
    return of(AttributeValue.of(partition), AttributeValue.of(sort));
  }

  /** A number partition key with a string sort key. */
  public static Key of(long partition, String sort) {
    return of(AttributeValue.of(partition), AttributeValue.of(sort));
  }

  /** The partition value. */
  public KeyValue partition() {
    return partition;
  }

  /** The sort value, empty for tables without a sort key. */
  public Optional<KeyValue> sort() {
    return Optional.ofNullable(sort);
  }

  /** The sort value or null; for code that has checked the table's schema. */
  public KeyValue sortOrNull() {
    return sort;
  }

  @Override
  public int compareTo(Key o) {
    int c = KeyValue.compare(partition, o.partition);
    if (c != 0) {
      return c;
    }
    if (sort == null || o.sort == null) {
      return sort == null ? (o.sort == null ? 0 : -1) : 1;
    }
    return KeyValue.compare(sort, o.sort);
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || o instanceof Key k && partition.equals(k.partition) && Objects.equals(sort, k.sort);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      // As Objects.hash(partition, sort) computes it, without its array.
      h = 31 * (31 + partition.hashCode()) + (sort == null ? 0 : sort.hashCode());
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return sort == null
        ? "Key(" + show(partition) + ")"
        : "Key(" + show(partition) + ", " + show(sort) + ")";
  }

  private static String show(KeyValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return '"' + s.value() + '"';
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return n.value().toPlainString();
    }
    return "b64:" + ((AttributeValue.BinaryValue) v).value().toBase64();
  }
}
