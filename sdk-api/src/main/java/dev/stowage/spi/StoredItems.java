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

  /**
   * A stored item of one backend with its synthesized index values in the forms another backend
   * stores, for tools that copy stored items between backends. An index value longer than a backend
   * indexes ({@link DriverLimits#maxIndexTupleBytes}) is stored in a long form (see {@code
   * docs/FORMAT.md}, "Long index values"), so the same item may need other index values on a
   * backend with another limit. Every index of {@code spec} whose stored values are the ones the
   * item's attributes give under {@code from} gets the ones they give under {@code to} (none, if
   * the values exceed the target's {@link DriverLimits#maxIndexedValueBytes}); stale, missing and
   * foreign index values are kept as they are, for a repair on the target to find.
   *
   * @param spec the table's spec (its indexes)
   * @param from the limits of the backend {@code stored} comes from
   * @param to the limits of the backend it goes to
   * @param stored the item as {@code from}'s driver returned it
   * @return {@code stored} itself when nothing changes
   */
  public static Item withIndexValuesFor(
      dev.stowage.TableSpec spec, DriverLimits from, DriverLimits to, Item stored) {
    return dev.stowage.internal.IndexValues.refit(spec, from, to, stored);
  }
}
