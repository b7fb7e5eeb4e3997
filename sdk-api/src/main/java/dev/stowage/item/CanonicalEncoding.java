package dev.stowage.item;

import dev.stowage.internal.ValueWire;

/**
 * The canonical binary encoding of values and items: the language-neutral form Stowage uses inside
 * codec envelopes, overflow blobs and cursors (specified in docs/FORMAT.md, "Value serialisation").
 *
 * <p>Equal values always encode to equal bytes (map entries, items' attributes and set members are
 * written in UTF-8 order; numbers as their normalised decimal), so the encoding suits digests and
 * comparisons across processes and languages: for example a migration compares the SHA-256 of each
 * item's encoding on both sides. Stateless and thread-safe.
 */
public final class CanonicalEncoding {
  private CanonicalEncoding() {}

  /**
   * The encoding of one value.
   *
   * @throws NullPointerException if {@code value} is null
   */
  public static byte[] encode(AttributeValue value) {
    return ValueWire.encode(java.util.Objects.requireNonNull(value, "value"));
  }

  /**
   * The encoding of an item, as the map of its attributes (in UTF-8 order of their names). Items in
   * stored form, with Stowage's reserved attributes, encode the same way.
   *
   * @throws NullPointerException if {@code item} is null
   */
  public static byte[] encode(Item item) {
    return ValueWire.encode(new AttributeValue.MapValue(item.attributes()));
  }

  /**
   * The value {@link #encode(AttributeValue)} (or {@link #encode(Item)}, which gives a map value)
   * wrote: {@code decode(encode(v)).equals(v)} for every value. A store that keeps items as opaque
   * bytes (the local SQLite store) reads them back with it.
   *
   * @throws IllegalArgumentException if {@code bytes} is not exactly one encoded value
   * @throws NullPointerException if {@code bytes} is null
   */
  public static AttributeValue decode(byte[] bytes) {
    try {
      return ValueWire.decode(java.util.Objects.requireNonNull(bytes, "bytes"));
    } catch (ValueWire.MalformedException e) {
      throw new IllegalArgumentException("not a canonically encoded value: " + e.getMessage(), e);
    }
  }
}
