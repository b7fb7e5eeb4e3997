package dev.stowage.spi;

import dev.stowage.TableSpec;
import dev.stowage.internal.IndexAttributes;
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
   * An item in stored form over the first {@code size} entries of two parallel arrays, in any
   * order: the cheapest way for a driver to turn a native item into an item, with no map built in
   * between. The arrays are taken over, not copied (and reordered in place): the caller must not
   * use them again.
   *
   * @param names attribute names, distinct; checked for syntax only, so reserved names pass
   * @param values the attributes' values, none null
   * @throws IllegalArgumentException on an empty, overlong or malformed name
   * @throws NullPointerException if a name or value is null
   */
  public static Item of(String[] names, AttributeValue[] values, int size) {
    java.util.Objects.checkFromToIndex(0, size, Math.min(names.length, values.length));
    return ItemAccess.ofStored(names, values, size);
  }

  /**
   * An item in stored form with the synthesized index attributes ({@code stowage:ix:<index>:p} and
   * {@code :s}, see {@link IndexLayout}) that {@code spec}'s indexes give it, computed from its
   * stored attributes exactly as the core computes them when it writes the item: a tool that copies
   * stored forms into a table of {@code spec} (a migration from a table other tools wrote, or from
   * a table with other indexes) makes the target's indexes correct with it. Every other {@code
   * stowage:ix:} attribute is dropped (stale values, and values of indexes {@code spec} does not
   * declare); all other attributes are kept as they are, encoded ones included. An item lacking one
   * of an index's attributes gets no values for that index (indexes are sparse).
   *
   * <p>Needs no keys: indexed attributes are never compressed or encrypted, so their stored values
   * are the application's. An indexed attribute held in an overflow blob is not seen: restore
   * overflowed attributes first ({@link dev.stowage.overflow.StoredOverflow#restore}) when the item
   * may have overflowed under another spec.
   *
   * @param spec the table the item is (to be) stored in; its key attributes must be in the item
   * @param limits the target backend's limits, whose {@link DriverLimits#maxIndexedValueBytes} the
   *     index values are held to
   * @param stored the item in stored form
   * @throws dev.stowage.InvalidRequestException if an indexed attribute is not a string, number or
   *     binary value, or the item lacks a key attribute of {@code spec} or holds one of another
   *     type
   * @throws dev.stowage.ItemTooLargeException if an index's values exceed {@code limits}
   */
  public static Item withIndexValues(TableSpec spec, DriverLimits limits, Item stored) {
    java.util.Objects.requireNonNull(spec, "spec");
    java.util.Objects.requireNonNull(limits, "limits");
    java.util.Objects.requireNonNull(stored, "stored");
    return IndexAttributes.recompute(spec, limits, stored);
  }
}
