package dev.stowage.spi;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeType;
import java.util.Objects;

/**
 * How a secondary index appears to a driver.
 *
 * <p><b>Indexes Stowage maintains</b> ({@link #isNative()} false) are two synthesized binary
 * attributes on each indexed item. The partition attribute holds the order-preserving encoding of
 * the index's partition values after a fingerprint of the index definition, the sort attribute that
 * of its sort values (never empty); both are opaque to drivers. Items lacking an index attribute
 * carry neither, so indexes are sparse. A driver indexes items by (partition, sort, primary key)
 * and returns index queries in that order; {@link DriverQuery#partition()} and the {@link KeyRange}
 * of such a query hold binary encodings.
 *
 * <p><b>Native indexes</b> ({@link #isNative()} true, see {@link IndexSpec#nativeIndex}) are the
 * backend's own secondary index {@link #nativeName()}, over the plain attributes {@link
 * #partitionAttribute()} and {@link #sortAttribute()} (null when the index has no sort attribute)
 * holding values of {@link #partitionType()} and {@link #sortType()}. The core writes nothing for
 * them: the backend indexes the attributes as they are, and an item lacking one, or holding a value
 * of another type there, is not in the index. Queries pass the raw partition value in {@link
 * DriverQuery#partition()} and raw sort values of {@link #sortType()} in the {@link KeyRange}, and
 * positions carry the item's raw sort value (null without a sort attribute); the driver returns
 * entries in the order of the raw values (strings by UTF-8 bytes, numbers numerically, binary
 * unsigned), equal sort values (all entries, without a sort attribute) by primary key. Only drivers
 * declaring {@link Capability#NATIVE_INDEXES} accept layouts with native indexes; they check when a
 * table is opened that the backend has the index, and never create it.
 *
 * @param name the index name
 * @param partitionAttribute name of the synthesized partition attribute, or the native index's
 *     partition attribute
 * @param sortAttribute name of the synthesized sort attribute, or the native index's sort attribute
 *     (null if it has none)
 * @param projection what index queries return; drivers may store more
 * @param nativeName the backend's name of a native index, or null for an index Stowage maintains
 * @param partitionType the type of the partition attribute's values: BINARY for synthesized ones
 * @param sortType the type of the sort attribute's values: BINARY for synthesized ones, null for a
 *     native index without sort attribute
 */
public record IndexLayout(
    String name,
    String partitionAttribute,
    String sortAttribute,
    IndexSpec.Projection projection,
    String nativeName,
    AttributeType partitionType,
    AttributeType sortType) {

  /** Prefix of the synthesized attributes: {@code stowage:ix:<index>:p} and {@code …:s}. */
  public static final String ATTRIBUTE_PREFIX =
      dev.stowage.item.AttributeNames.RESERVED_PREFIX + "ix:";

  public IndexLayout {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(partitionAttribute, "partitionAttribute");
    Objects.requireNonNull(partitionType, "partitionType");
    if (nativeName == null
        && (sortAttribute == null
            || sortType != AttributeType.BINARY
            || partitionType != AttributeType.BINARY)) {
      throw new IllegalArgumentException(
          "index '" + name + "': a synthesized index has binary partition and sort attributes");
    }
    if ((sortAttribute == null) != (sortType == null)) {
      throw new IllegalArgumentException(
          "index '" + name + "': a sort attribute needs a type, and a type a sort attribute");
    }
  }

  /** The layout of an index Stowage maintains, over its two synthesized binary attributes. */
  public IndexLayout(
      String name,
      String partitionAttribute,
      String sortAttribute,
      IndexSpec.Projection projection) {
    this(
        name,
        partitionAttribute,
        sortAttribute,
        projection,
        null,
        AttributeType.BINARY,
        AttributeType.BINARY);
  }

  /** The layout Stowage's core uses for an index spec. */
  public static IndexLayout of(IndexSpec spec) {
    if (spec.isNative()) {
      var key = spec.nativeIndex().key();
      return new IndexLayout(
          spec.name(),
          key.partitionName(),
          key.sortName().orElse(null),
          spec.projection(),
          spec.nativeIndex().name(),
          key.partitionType(),
          key.sortType().orElse(null));
    }
    return new IndexLayout(
        spec.name(),
        ATTRIBUTE_PREFIX + spec.name() + ":p",
        ATTRIBUTE_PREFIX + spec.name() + ":s",
        spec.projection());
  }

  /**
   * True if {@code other} indexes the same attributes the same way (the same native index, or both
   * maintained by Stowage over the same synthesized attributes); the projection may differ.
   */
  public boolean sameKeys(IndexLayout other) {
    return Objects.equals(nativeName, other.nativeName)
        && partitionAttribute.equals(other.partitionAttribute)
        && partitionType == other.partitionType
        && Objects.equals(sortAttribute, other.sortAttribute)
        && sortType == other.sortType;
  }

  /** What the index is, for messages: "an index Stowage maintains" or the native index's keys. */
  public String describe() {
    if (!isNative()) {
      return "an index Stowage maintains";
    }
    return "native index '"
        + nativeName
        + "' on "
        + partitionAttribute
        + " ("
        + partitionType
        + ")"
        + (sortAttribute == null ? "" : ", " + sortAttribute + " (" + sortType + ")");
  }

  /**
   * True if a backend puts {@code item} (in stored form) in this index: it holds a value of {@link
   * #partitionType()} in {@link #partitionAttribute()} and, when the index has a sort attribute,
   * one of {@link #sortType()} in {@link #sortAttribute()}. Indexes are sparse: an item lacking
   * one, or holding a value of another type, is not in the index. Drivers that read an index's
   * items by scanning the table use this to keep the ones in the index.
   */
  public boolean holds(dev.stowage.item.Item item) {
    if (!(item.find(partitionAttribute).orElse(null) instanceof dev.stowage.item.KeyValue p
        && p.type() == partitionType)) {
      return false;
    }
    return sortAttribute == null
        || (item.find(sortAttribute).orElse(null) instanceof dev.stowage.item.KeyValue s
            && s.type() == sortType);
  }

  /** True for the backend's own index over plain attributes (see the class description). */
  public boolean isNative() {
    return nativeName != null;
  }
}
