package dev.stowage.item;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An item's attributes as two parallel arrays in name order (UTF-8): the unmodifiable map {@link
 * Item#attributes()} returns. Building one costs two arrays, not a hash table and a node per
 * attribute, which is most of what translating a stored item into an item and back costs; small
 * items (the common case) are looked up by a scan that compares lengths first, larger ones by
 * binary search. Immutable once built and thread-safe; the arrays are never exposed.
 */
final class SortedAttributes extends AbstractMap<String, AttributeValue> {
  /** Up to this many attributes, {@link #get} scans instead of searching. */
  private static final int SCAN = 12;

  private final String[] names;
  private final AttributeValue[] values;
  private final int size;

  /**
   * True if {@link #names} is the one array every item of a remembered shape holds ({@link
   * StoredShapes}): a reader may then key what it worked out about the names on the array itself.
   */
  private final boolean sharedNames;

  private Set<Map.Entry<String, AttributeValue>> entries;

  /** Takes over arrays whose first {@code size} names are distinct and in name order. */
  SortedAttributes(String[] names, AttributeValue[] values, int size) {
    this(names, values, size, false);
  }

  /**
   * Takes over arrays whose first {@code size} names are distinct and in name order; {@code
   * sharedNames}: the names array is a remembered shape's, exactly {@code size} long, shared by
   * every item of that shape and never changed.
   */
  SortedAttributes(String[] names, AttributeValue[] values, int size, boolean sharedNames) {
    this.names = names;
    this.values = values;
    this.size = size;
    this.sharedNames = sharedNames;
  }

  /** The names array if it is a remembered shape's (see the constructor), else null. */
  String[] sharedNames() {
    return sharedNames ? names : null;
  }

  /** The values array, in the order of the names; the caller must not change it. */
  AttributeValue[] valueArray() {
    return values;
  }

  /**
   * Takes over arrays of {@code size} names in any order and sorts them in place (both arrays
   * alike): insertion sort, since items arrive nearly in order or small.
   *
   * @throws IllegalArgumentException if a name appears twice
   */
  static SortedAttributes sorting(String[] names, AttributeValue[] values, int size) {
    if (size > 64 && !inOrder(names, size)) {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (x, y) -> Utf8Order.compare(names[x], names[y]));
      String[] n = new String[size];
      AttributeValue[] v = new AttributeValue[size];
      for (int i = 0; i < size; i++) {
        n[i] = names[order[i]];
        v[i] = values[order[i]];
        if (i > 0 && n[i].equals(n[i - 1])) {
          throw duplicate(n[i]);
        }
      }
      return new SortedAttributes(n, v, size);
    }
    // Compared by a key of the first four chars in UTF-8 order, which decides almost every
    // comparison of attribute names with one unsigned long comparison; equal keys by the names.
    long[] keys = new long[size];
    for (int i = 0; i < size; i++) {
      keys[i] = prefixKey(names[i]);
    }
    for (int i = 1; i < size; i++) {
      long key = keys[i];
      String n = names[i];
      int c = compare(keys[i - 1], names[i - 1], key, n);
      if (c < 0) {
        continue;
      }
      if (c == 0) {
        throw duplicate(n);
      }
      AttributeValue v = values[i];
      int j = i - 1;
      while (j >= 0 && (c = compare(keys[j], names[j], key, n)) > 0) {
        keys[j + 1] = keys[j];
        names[j + 1] = names[j];
        values[j + 1] = values[j];
        j--;
      }
      if (j >= 0 && c == 0) {
        throw duplicate(n);
      }
      keys[j + 1] = key;
      names[j + 1] = n;
      values[j + 1] = v;
    }
    return new SortedAttributes(names, values, size);
  }

  private static int compare(long ka, String a, long kb, String b) {
    int c = Long.compareUnsigned(ka, kb);
    return c != 0 ? c : Utf8Order.compare(a, b);
  }

  /**
   * The first four chars of a valid name as 16-bit ranks in UTF-8 order, padded with zeros (which
   * sort first: names hold no U+0000). Chars below the surrogates keep their value; U+E000 to
   * U+FFFF move down below the surrogates, which move above them, as their code points (and so
   * their UTF-8 bytes) sort.
   */
  static long prefixKey(String s) {
    long key = 0;
    int n = Math.min(4, s.length());
    for (int i = 0; i < 4; i++) {
      key <<= 16;
      if (i < n) {
        char c = s.charAt(i);
        key |= c < 0xD800 ? c : c < 0xE000 ? c + 0x2000 : c - 0x800;
      }
    }
    return key;
  }

  private static IllegalArgumentException duplicate(String name) {
    return new IllegalArgumentException("attribute '" + name + "' appears twice");
  }

  private static boolean inOrder(String[] names, int size) {
    for (int i = 1; i < size; i++) {
      if (Utf8Order.compare(names[i - 1], names[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /** The position of {@code name}, or -1. */
  private int indexOf(Object key) {
    if (!(key instanceof String name)) {
      return -1;
    }
    if (size <= SCAN) {
      // Names keep their hash codes once computed (and attribute names are used over and over):
      // one field read tells almost every other name apart.
      int h = name.hashCode();
      for (int i = 0; i < size; i++) {
        String n = names[i];
        if (n == name || n.hashCode() == h && n.equals(name)) {
          return i;
        }
      }
      return -1;
    }
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Utf8Order.compare(names[mid], name);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /** The names in name order, the first {@link #size()} of them in use; never to be changed. */
  String[] nameArray() {
    return names;
  }

  /** The position of {@code name} in name order, or -1. */
  int position(String name) {
    return indexOf(name);
  }

  @Override
  public AttributeValue get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super AttributeValue> action) {
    for (int i = 0; i < size; i++) {
      action.accept(names[i], values[i]);
    }
  }

  @Override
  public Set<Map.Entry<String, AttributeValue>> entrySet() {
    Set<Map.Entry<String, AttributeValue>> e = entries;
    if (e == null) {
      e = new Entries();
      entries = e;
    }
    return e;
  }

  private final class Entries extends AbstractSet<Map.Entry<String, AttributeValue>> {
    @Override
    public Iterator<Map.Entry<String, AttributeValue>> iterator() {
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public Map.Entry<String, AttributeValue> next() {
          if (next >= size) {
            throw new NoSuchElementException();
          }
          int i = next++;
          return new AbstractMap.SimpleImmutableEntry<>(names[i], values[i]);
        }
      };
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public boolean contains(Object o) {
      if (!(o instanceof Map.Entry<?, ?> e)) {
        return false;
      }
      int i = indexOf(e.getKey());
      return i >= 0 && values[i].equals(e.getValue());
    }
  }
}
