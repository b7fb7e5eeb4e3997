package dev.stowage.item;

/**
 * The name orders of recently built stored items. Items read from one table mostly have the same
 * attribute names, and a driver hands them over in the same (hash map) order each time: the names
 * then need neither the syntax check (each equals a name already checked) nor the sort (the order
 * is known), only one string comparison each. A shape is remembered per slot chosen by the item's
 * size and first name; a miss costs at most one comparison and falls back to the full check and
 * sort, whose result then replaces the slot's shape.
 *
 * <p>Thread-safe without locks: a shape is immutable and published through final fields, and
 * threads racing on a slot at worst replace each other's shape.
 */
final class StoredShapes {
  private static final int SLOTS = 64;

  /** Up to this many attributes an item's shape is remembered; larger items are rare. */
  static final int MAX_SIZE = 64;

  private static final Shape[] SHAPES = new Shape[SLOTS];

  private StoredShapes() {}

  /**
   * Names in the order a driver handed them over, and where each goes in name order.
   *
   * @param names the names as handed over, all valid and distinct
   * @param target {@code target[i]} is the position of {@code names[i]} in name order
   * @param sorted the names in name order: the names array of every item of this shape, so that a
   *     reader (the typed mapping) can recognise the shape by identity and look attributes up by
   *     remembered positions
   */
  private record Shape(String[] names, int[] target, String[] sorted) {}

  private static int slot(String[] names, int size) {
    String first = names[0];
    return (size * 31 + first.length() * 7 + first.charAt(0)) & (SLOTS - 1);
  }

  /**
   * The attributes in name order if the names are those of a remembered shape, in the same order;
   * null otherwise (nothing is checked or changed then).
   */
  static SortedAttributes sortedIfKnown(String[] names, AttributeValue[] values, int size) {
    if (size == 0 || size > MAX_SIZE || names[0] == null || names[0].isEmpty()) {
      return null;
    }
    Shape shape = SHAPES[slot(names, size)];
    if (shape == null || shape.names.length != size) {
      return null;
    }
    String[] known = shape.names;
    for (int i = 0; i < size; i++) {
      if (!known[i].equals(names[i])) {
        return null;
      }
    }
    int[] target = shape.target;
    AttributeValue[] v = new AttributeValue[size];
    for (int i = 0; i < size; i++) {
      AttributeValue value = values[i];
      if (value == null) {
        throw new NullPointerException(names[i]);
      }
      v[target[i]] = value;
    }
    // The remembered names, not the given ones: equal, their hash codes cached, and one array for
    // every item of the shape.
    return new SortedAttributes(shape.sorted, v, size, true);
  }

  /**
   * Remembers the shape of {@code given} (names as handed over, checked and distinct) now that
   * {@code sorted} holds them in name order.
   */
  static void remember(String[] given, int size, SortedAttributes sorted) {
    if (size == 0 || size > MAX_SIZE || given[0].isEmpty()) {
      return;
    }
    int[] target = new int[size];
    String[] names = new String[size];
    String[] inOrder = new String[size];
    for (int i = 0; i < size; i++) {
      target[i] = sorted.position(given[i]);
      // Interned, items of this shape hold the very strings that name the attributes in code
      // (literals, field names), which a lookup by name finds by identity before comparing.
      names[i] = given[i].intern();
      inOrder[target[i]] = names[i];
    }
    SHAPES[slot(given, size)] = new Shape(names, target, inOrder);
  }
}
