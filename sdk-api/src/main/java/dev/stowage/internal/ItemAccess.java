package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds items in their stored form, which may hold Stowage's reserved {@code stowage:} attributes
 * (overflow pointers, index values, request ids, tokens), for Stowage's core. Not API (drivers and
 * tools use {@link dev.stowage.spi.StoredItems}): applications build items with {@link
 * Item#builder()} or {@link Item#of}, which refuse reserved names, and the core refuses to write
 * reserved attributes that reach it in an application's item anyway.
 */
public final class ItemAccess {
  /** Implemented by {@link Item} itself, which installs it when its class is initialised. */
  public interface Accessor {
    /** An item with these attributes; names are checked for syntax only. */
    Item ofStored(Map<String, ? extends AttributeValue> attributes);

    /** An item that takes over a map already in name order whose names are valid. */
    Item ofOrdered(LinkedHashMap<String, AttributeValue> attributes);

    /** An item over arrays of distinct, valid names in name order, taken over as they are. */
    Item ofSorted(String[] names, AttributeValue[] values, int size);

    /** An item in stored form over arrays in any order, taken over and sorted in place. */
    Item ofStored(String[] names, AttributeValue[] values, int size);
  }

  private static Accessor accessor;

  static {
    // Initialising Item installs its accessor; doing it here means no caller can get in first.
    Item.empty();
  }

  private ItemAccess() {}

  /**
   * Called once, by {@link Item}'s class initialiser.
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Accessor a) {
    if (accessor != null) {
      throw new IllegalStateException("the Item accessor is already installed");
    }
    accessor = a;
  }

  /**
   * An item in stored form: attribute names are checked for syntax only, so reserved names pass.
   *
   * @throws IllegalArgumentException on an empty, overlong or malformed name
   */
  public static Item ofStored(Map<String, ? extends AttributeValue> attributes) {
    return accessor.ofStored(attributes);
  }

  /**
   * An item over {@code attributes} as they are, without a copy: for the core's own derived items
   * (a stored item's attributes decoded, filtered or projected), whose names come in name order
   * from an item that checked them. The caller hands the map over and never changes it again.
   */
  public static Item ofOrdered(LinkedHashMap<String, AttributeValue> attributes) {
    return accessor.ofOrdered(attributes);
  }

  /**
   * An item over the first {@code size} entries of two arrays, without a copy: names distinct,
   * valid and in name order (UTF-8), values non-null. The caller hands the arrays over and never
   * changes them again.
   */
  public static Item ofSorted(String[] names, AttributeValue[] values, int size) {
    return accessor.ofSorted(names, values, size);
  }

  /**
   * An item in stored form over the first {@code size} entries of two arrays in any order, taken
   * over without a copy (and sorted in place): names distinct, checked for syntax here.
   *
   * @throws IllegalArgumentException on an empty, overlong or malformed name
   */
  public static Item ofStored(String[] names, AttributeValue[] values, int size) {
    return accessor.ofStored(names, values, size);
  }
}
