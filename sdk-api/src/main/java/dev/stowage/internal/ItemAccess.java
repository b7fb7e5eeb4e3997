package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.SizeModel;
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

    /** An item over arrays of distinct names checked before, in any order, sorted in place. */
    Item ofChecked(String[] names, AttributeValue[] values, int size);

    /** See {@link ItemAccess#sharedNames}. */
    String[] sharedNames(Item item);

    /** See {@link ItemAccess#sharedValues}. */
    AttributeValue[] sharedValues(Item item);

    /** The size {@code model} gave {@code item} and {@link #rememberSize} kept, or -1. */
    long sizeFor(Item item, Object model);

    /** Keeps the size {@code model} gives {@code item}. */
    void rememberSize(Item item, Object model, long bytes);

    /** The item's names in name order (its first {@code size()}), or null; never to be changed. */
    String[] names(Item item);

    /** The item's values in the order of {@link #names}, or null; never to be changed. */
    AttributeValue[] values(Item item);

    /** The key {@link #rememberKey} kept for {@code item} under {@code schema}, or null. */
    dev.stowage.item.Key keyFor(Item item, Object schema);

    /** Keeps {@code key}, the key of {@code item} under {@code schema}. */
    void rememberKey(Item item, Object schema, dev.stowage.item.Key key);
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

  /**
   * An item in stored form over the first {@code size} entries of two arrays in any order, taken
   * over without a copy (and sorted in place), whose names were checked before: those of an item
   * and Stowage's own reserved names. Values non-null.
   */
  public static Item ofChecked(String[] names, AttributeValue[] values, int size) {
    return accessor.ofChecked(names, values, size);
  }

  /**
   * The names of an item built in a shape a driver handed over before (see {@code StoredShapes}):
   * in name order, exactly as many as the item has attributes, and the very same array for every
   * item of that shape, so that a reader can remember per array where each attribute is; null for
   * any other item. The caller must not change the array.
   */
  public static String[] sharedNames(Item item) {
    return accessor.sharedNames(item);
  }

  /**
   * The values of an item whose {@link #sharedNames} are not null, in the order of those names (the
   * array may be longer). The caller must not change the array.
   */
  public static AttributeValue[] sharedValues(Item item) {
    return accessor.sharedValues(item);
  }

  /**
   * {@code model.itemBytes(item)}, computed once per item and model: a write counts its stored item
   * for the fit check, the metrics and the backend's own limit, and a driver that keeps items (the
   * memory driver) hands out the same item on every read.
   */
  public static long itemBytes(Item item, SizeModel model) {
    long n = accessor.sizeFor(item, model);
    if (n < 0) {
      n = model.itemBytes(item);
      accessor.rememberSize(item, model, n);
    }
    return n;
  }

  /**
   * The names of {@code item} in name order, its first {@link Item#size()} entries, or null if the
   * item does not keep them in an array: for loops over every attribute of an item on the write
   * path, which then allocate no entries. The array is the item's own: never to be changed.
   */
  public static String[] names(Item item) {
    return accessor.names(item);
  }

  /** The values of {@code item} in the order of {@link #names}, or null likewise; never changed. */
  public static AttributeValue[] values(Item item) {
    return accessor.values(item);
  }

  /**
   * The key of {@code item} under {@code schema} kept by {@link #rememberKey}, or null: {@link
   * dev.stowage.KeySchema#keyOf} asks before reading the key attributes.
   */
  public static dev.stowage.item.Key keyFor(Item item, dev.stowage.KeySchema schema) {
    return accessor.keyFor(item, schema);
  }

  /**
   * Keeps the key of a stored item the core has just built, whose key attributes hold exactly
   * {@code key}'s values, so that every later {@link dev.stowage.KeySchema#keyOf} of it under
   * {@code schema} (the driver's, the metrics') is a field read.
   */
  public static void rememberKey(
      Item item, dev.stowage.KeySchema schema, dev.stowage.item.Key key) {
    accessor.rememberKey(item, schema, key);
  }
}
