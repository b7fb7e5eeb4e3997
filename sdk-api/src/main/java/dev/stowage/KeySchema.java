package dev.stowage;

import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.util.Objects;
import java.util.Optional;

/**
 * A table's primary key: the partition attribute and an optional sort attribute, each of type
 * string, number or binary. Immutable and thread-safe.
 */
public final class KeySchema {
  private final String partitionName;
  private final AttributeType partitionType;
  private final String sortName;
  private final AttributeType sortType;

  private KeySchema(String pn, AttributeType pt, String sn, AttributeType st) {
    this.partitionName = AttributeNames.validate(pn);
    this.partitionType = keyType(pt, pn);
    this.sortName = sn == null ? null : AttributeNames.validate(sn);
    this.sortType = sn == null ? null : keyType(st, sn);
    if (pn.equals(sn)) {
      throw new IllegalArgumentException(
          "partition and sort key must be different attributes, both are '" + pn + "'");
    }
  }

  /** A partition key only. */
  public static KeySchema of(String partitionName, AttributeType partitionType) {
    return new KeySchema(partitionName, partitionType, null, null);
  }

  /** A partition key and a sort key. */
  public static KeySchema of(
      String partitionName, AttributeType partitionType, String sortName, AttributeType sortType) {
    return new KeySchema(
        partitionName, partitionType, Objects.requireNonNull(sortName, "sortName"), sortType);
  }

  private static AttributeType keyType(AttributeType t, String name) {
    if (t == null || !t.isKeyType()) {
      throw new IllegalArgumentException(
          "key attribute '" + name + "' must be STRING, NUMBER or BINARY, not " + t);
    }
    return t;
  }

  /** The partition attribute's name. */
  public String partitionName() {
    return partitionName;
  }

  /** The partition attribute's type. */
  public AttributeType partitionType() {
    return partitionType;
  }

  /** The sort attribute's name, if the table has one. */
  public Optional<String> sortName() {
    return Optional.ofNullable(sortName);
  }

  /** The sort attribute's type, if the table has one. */
  public Optional<AttributeType> sortType() {
    return Optional.ofNullable(sortType);
  }

  /** True if the table has a sort key. */
  public boolean hasSort() {
    return sortName != null;
  }

  /** True if {@code name} is one of the key attributes. */
  public boolean isKeyAttribute(String name) {
    return name.equals(partitionName) || name.equals(sortName);
  }

  /**
   * The key of an item of this table.
   *
   * @throws InvalidRequestException if a key attribute is missing or of the wrong type
   */
  public Key keyOf(Item item) {
    // A stored item the core built knows its key: no attribute to look up twice per write.
    Key known = dev.stowage.internal.ItemAccess.keyFor(item, this);
    if (known != null) {
      return known;
    }
    KeyValue p = component(item, partitionName, partitionType);
    return sortName == null ? Key.of(p) : Key.of(p, component(item, sortName, sortType));
  }

  /**
   * Checks that a key fits this schema.
   *
   * @throws InvalidRequestException naming the mismatch
   */
  public Key validate(Key key) {
    check(key.partition(), partitionName, partitionType);
    KeyValue sort = key.sortOrNull();
    if (hasSort() != (sort != null)) {
      throw new InvalidRequestException(
          hasSort()
              ? "key " + key + " lacks the sort key '" + sortName + "'"
              : "key " + key + " has a sort value but the table has no sort key");
    }
    if (sort != null) {
      check(sort, sortName, sortType);
    }
    return key;
  }

  private static KeyValue component(Item item, String name, AttributeType type) {
    var v = item.attributes().get(name);
    if (v == null) {
      throw new InvalidRequestException("item lacks key attribute '" + name + "'");
    }
    KeyValue kv = dev.stowage.internal.KeyValues.asKey(v);
    if (kv == null || kv.type() != type) {
      throw new InvalidRequestException(
          "key attribute '" + name + "' must be " + type + " but is " + v.type());
    }
    return kv;
  }

  private static void check(KeyValue v, String name, AttributeType type) {
    if (v.type() != type) {
      throw new InvalidRequestException(
          "key attribute '" + name + "' must be " + type + " but is " + v.type());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeySchema k
        && partitionName.equals(k.partitionName)
        && partitionType == k.partitionType
        && Objects.equals(sortName, k.sortName)
        && sortType == k.sortType;
  }

  @Override
  public int hashCode() {
    return Objects.hash(partitionName, partitionType, sortName, sortType);
  }

  @Override
  public String toString() {
    return "KeySchema("
        + partitionName
        + ":"
        + partitionType
        + (sortName == null ? "" : ", " + sortName + ":" + sortType)
        + ")";
  }
}
