package dev.stowage.overflow.internal;

import dev.stowage.ItemTooLargeException;
import dev.stowage.TableSpec;
import dev.stowage.internal.ItemAccess;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.SizeModel;
import dev.stowage.spi.TableRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether an encoded item fits a backend's {@link DriverLimits} and, if not, which
 * attributes to move: the largest movable ones first, until the rest plus the pointer fits every
 * limit. Key attributes, indexed attributes and Stowage's reserved {@code stowage:} attributes
 * never move. Stateless and thread-safe.
 */
final class FitPlanner {
  /** Prefix of the synthesized index attributes, which backends index. */
  private static final String INDEX_PREFIX = dev.stowage.spi.IndexLayout.ATTRIBUTE_PREFIX;

  private FitPlanner() {}

  /**
   * Which attributes move, the key of the blob they move to, and whether the pointer lists them (it
   * does unless the list itself would break a limit).
   */
  record Plan(String blobKey, List<String> moved, boolean namesListed) {}

  /**
   * Checks the limits an item can only meet by itself: indexed attributes no larger than {@code
   * maxIndexedValueBytes}, synthesized index values no larger than {@code maxIndexTupleBytes}. Key
   * attributes have their own limits ({@code maxPartitionKeyBytes}, {@code maxSortKeyBytes}), which
   * the core checks before anything reaches this planner.
   *
   * @throws ItemTooLargeException naming the attribute
   */
  static void checkIndexedValues(TableRef table, TableSpec spec, DriverLimits limits, Item item) {
    Map<String, AttributeValue> attributes = item.attributes();
    // The indexed attributes, looked up by name (an item has many more attributes than indexes
    // read), then the synthesized index values, which all start with the index prefix.
    // (An indexed loop: an iterator of the immutable list would be allocated on every write.)
    List<dev.stowage.IndexSpec> indexes = spec.indexes();
    for (int i = 0; i < indexes.size(); i++) {
      dev.stowage.IndexSpec index = indexes.get(i);
      checkIndexed(table, spec, limits, attributes, index.partitionAttributes());
      checkIndexed(table, spec, limits, attributes, index.sortAttributes());
    }
    String[] names = ItemAccess.names(item);
    if (names != null) {
      AttributeValue[] values = ItemAccess.values(item);
      for (int i = 0, n = item.size(); i < n; i++) {
        if (names[i].startsWith(INDEX_PREFIX)) {
          checkIndexed(table, names[i], values[i], limits.maxIndexTupleBytes());
        }
      }
      return;
    }
    for (Map.Entry<String, AttributeValue> e : attributes.entrySet()) {
      if (e.getKey().startsWith(INDEX_PREFIX)) {
        checkIndexed(table, e.getKey(), e.getValue(), limits.maxIndexTupleBytes());
      }
    }
  }

  private static void checkIndexed(
      TableRef table,
      TableSpec spec,
      DriverLimits limits,
      Map<String, AttributeValue> attributes,
      List<String> names) {
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      AttributeValue v = attributes.get(name);
      if (v != null && !spec.keySchema().isKeyAttribute(name)) {
        checkIndexed(table, name, v, limits.maxIndexedValueBytes());
      }
    }
  }

  private static void checkIndexed(TableRef table, String name, AttributeValue value, long limit) {
    if (value instanceof StringValue s && 3L * s.value().length() <= limit) {
      return; // at most 3 UTF-8 bytes per UTF-16 char: within the limit without encoding it
    }
    long bytes = indexedBytes(value);
    if (bytes > limit) {
      throw new ItemTooLargeException(
          "item of table "
              + table
              + ": indexed attribute '"
              + name
              + "' is "
              + bytes
              + " bytes, over the backend's limit of "
              + limit
              + " bytes for an indexed value; key and indexed attributes cannot overflow to"
              + " the blob store");
    }
  }

  /** The first limit {@code item} breaks, or null if it fits. */
  static String violation(DriverLimits limits, Item item) {
    if (item.size() > limits.maxAttributes()) {
      return item.size() + " attributes, over the limit of " + limits.maxAttributes();
    }
    SizeModel model = limits.sizeModel();
    // Counted once per item (the driver's own check and the metrics reuse it). No attribute
    // counts more than the item holding it (see SizeModel), so an item within the per-attribute
    // limit as a whole has no attribute over it, and its attributes need no count of their own.
    long total = ItemAccess.itemBytes(item, model);
    if (total > limits.maxAttributeBytes()) {
      for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
        long bytes = model.attributeBytes(e.getKey(), e.getValue());
        if (bytes > limits.maxAttributeBytes()) {
          return "attribute '"
              + e.getKey()
              + "' is "
              + bytes
              + " bytes, over the limit of "
              + limits.maxAttributeBytes()
              + " per attribute";
        }
      }
    }
    if (total > limits.maxItemBytes()) {
      return total + " bytes, over the limit of " + limits.maxItemBytes() + " per item";
    }
    return null;
  }

  /** True if the attribute may move to the blob. */
  static boolean movable(TableSpec spec, String name) {
    return !AttributeNames.isReserved(name)
        && !spec.keySchema().isKeyAttribute(name)
        && !spec.isIndexed(name);
  }

  /**
   * Plans the move for an item that does not fit.
   *
   * @return null if the item fits as it is
   * @throws ItemTooLargeException if moving every movable attribute is not enough
   */
  static Plan plan(TableRef table, TableSpec spec, DriverLimits limits, Item item) {
    if (item.has(OverflowHandler.POINTER_ATTRIBUTE)) {
      throw new IllegalArgumentException(
          "item to write already has an overflow pointer; restore it before writing");
    }
    checkIndexedValues(table, spec, limits, item);
    String problem = violation(limits, item);
    if (problem == null) {
      return null;
    }
    SizeModel model = limits.sizeModel();
    // share: what moving the attribute removes from the item at most; bytes: what the
    // per-attribute limit counts.
    record Sized(String name, long share, long bytes) {}
    List<Sized> candidates = new ArrayList<>();
    item.attributes()
        .forEach(
            (name, value) -> {
              if (movable(spec, name)) {
                candidates.add(
                    new Sized(
                        name,
                        model.itemShareBytes(name, value),
                        model.attributeBytes(name, value)));
              }
            });
    candidates.sort(
        Comparator.comparingLong(Sized::share)
            .reversed()
            .thenComparing(Sized::name, dev.stowage.item.Utf8Order.COMPARATOR));

    // Start at a lower bound on how many must move (exact for additive size models) so that wide
    // items do not cost one size computation per attribute.
    int start = 1;
    long excess = ItemAccess.itemBytes(item, model) - limits.maxItemBytes();
    long removed = 0;
    int oversized = 0;
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i).bytes() > limits.maxAttributeBytes()) {
        oversized = i + 1;
      }
    }
    int k = 0;
    while (k < candidates.size() && removed < excess) {
      removed += candidates.get(k++).share();
    }
    start = Math.max(start, Math.max(k, oversized));
    start = Math.max(start, item.size() + 1 - limits.maxAttributes());

    String blobKey = BlobKeys.newKey(table);
    String last = problem;
    for (int n = start; n <= candidates.size(); n++) {
      List<String> moved = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        moved.add(candidates.get(i).name());
      }
      last = violation(limits, withPointer(item, moved, Pointer.upperBound(blobKey, moved, true)));
      if (last == null) {
        return new Plan(blobKey, moved, true);
      }
      // Very wide items: a pointer without the names costs a blob fetch on every projection
      // that needs an absent attribute, but keeps the pointer small.
      Pointer unlisted = Pointer.upperBound(blobKey, List.of(), false);
      if (violation(limits, withPointer(item, moved, unlisted)) == null) {
        return new Plan(blobKey, moved, false);
      }
    }
    throw new ItemTooLargeException(
        "item of table "
            + table
            + " cannot be made to fit by moving attributes to the blob store ("
            + candidates.size()
            + " movable): its key, indexed and reserved attributes alone break the"
            + " backend's limits ("
            + last
            + ")");
  }

  /** The item without the moved attributes, with the pointer. */
  static Item withPointer(Item item, List<String> moved, Pointer pointer) {
    Map<String, AttributeValue> rest = new LinkedHashMap<>(item.attributes());
    moved.forEach(rest::remove);
    rest.put(OverflowHandler.POINTER_ATTRIBUTE, pointer.toValue());
    return ItemAccess.ofStored(rest);
  }

  private static long indexedBytes(AttributeValue v) {
    if (v instanceof StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8).length;
    }
    if (v instanceof BinaryValue b) {
      return b.value().size();
    }
    return 0;
  }
}
