package dev.stowage.spi;

import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import java.util.Map;

/**
 * Builds items in their stored form, for drivers and tools that work below the core: items as a
 * driver stores and returns them may hold Stowage's reserved {@code stowage:} attributes (overflow
 * pointers, index values, request ids, write ids), which {@link Item#of} and {@link Item#builder()}
 * refuse.
 *
 * <p>Such an item is only meaningful to a {@link StorageDriver} or another tool working on stored
 * forms; the core refuses to write an application's item that holds a reserved attribute, so an
 * item built here cannot plant one through the public {@link dev.stowage.Table} API. Stateless and
 * thread-safe.
 */
public final class StoredItems {
  private StoredItems() {}

  /**
   * An item in stored form: attribute names are checked for syntax only, so reserved names pass.
   *
   * @param attributes the attributes, none null; the map is copied
   * @throws IllegalArgumentException on an empty, overlong or malformed name
   * @throws NullPointerException if the map, a name or a value is null
   */
  public static Item of(Map<String, ? extends AttributeValue> attributes) {
    return ItemAccess.ofStored(attributes);
  }
}
