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
}
