package dev.stowage.item;

import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.AttributeValue.StringValue;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * An item: a set of named attribute values, including its key attributes.
 *
 * <p>Immutable and thread-safe. Attributes iterate in name order (UTF-8). Typed getters throw
 * {@link NoSuchElementException} for a missing attribute and {@link IllegalStateException} for one
 * of another type; {@link #find(String)} never throws. Items built by applications carry only valid
 * user attribute names (see {@link AttributeNames}); items read from a store never show Stowage's
 * reserved attributes, and Stowage refuses to write an item that holds one.
 */
public final class Item {
  private static final Item EMPTY = new Item(Map.of());

  static {
    ItemAccess.install(
        new ItemAccess.Accessor() {
          @Override
          public Item ofStored(Map<String, ? extends AttributeValue> attributes) {
            return Item.ofStored(attributes);
          }

          @Override
          public Item ofOrdered(LinkedHashMap<String, AttributeValue> attributes) {
            return new Item(Collections.unmodifiableMap(attributes));
          }

          @Override
          public Item ofSorted(String[] names, AttributeValue[] values, int size) {
            return new Item(new SortedAttributes(names, values, size));
          }

          @Override
          public Item ofStored(String[] names, AttributeValue[] values, int size) {
            return ofStoredArrays(names, values, size);
          }

          @Override
          public Item ofChecked(String[] names, AttributeValue[] values, int size) {
            return new Item(SortedAttributes.sorting(names, values, size));
          }

          @Override
          public String[] sharedNames(Item item) {
            return item.attributes instanceof SortedAttributes s ? s.sharedNames() : null;
          }

          @Override
          public AttributeValue[] sharedValues(Item item) {
            return ((SortedAttributes) item.attributes).valueArray();
          }

          @Override
          public long sizeFor(Item item, Object model) {
            SizeMemo m = item.size;
            return m != null && m.model == model ? m.bytes : -1;
          }

          @Override
          public void rememberSize(Item item, Object model, long bytes) {
            item.size = new SizeMemo(model, bytes);
          }

          @Override
          public String[] names(Item item) {
            return item.attributes instanceof SortedAttributes s ? s.nameArray() : null;
          }

          @Override
          public AttributeValue[] values(Item item) {
            return item.attributes instanceof SortedAttributes s ? s.valueArray() : null;
          }

          @Override
          public Key keyFor(Item item, Object schema) {
            KeyMemo m = item.key;
            return m != null && (m.schema == schema || m.schema.equals(schema)) ? m.key : null;
          }

          @Override
          public void rememberKey(Item item, Object schema, Key key) {
            item.key = new KeyMemo(schema, key);
          }
        });
  }

  private final Map<String, AttributeValue> attributes;

  /**
   * The size one size model gave this item, kept because an item is counted on several steps of one
   * write (fit check, metering, the backend's limit) and a stored item on every read of it. An item
   * is immutable and size models are stateless, so the figure never goes stale; the memo is
   * immutable, so a racing write only repeats the computation.
   */
  private SizeMemo size;

  private record SizeMemo(Object model, long bytes) {}

  /**
   * The key of a stored item under one key schema, kept by the core when it builds the stored form
   * of an item whose key it has just read, so that the driver (and the metrics around it) need not
   * look the key attributes up again. Immutable like the size memo, and never stale for the same
   * reason.
   */
  private KeyMemo key;

  private record KeyMemo(Object schema, Key key) {}

  private Item(Map<String, AttributeValue> attributes) {
    this.attributes = attributes;
  }

  /** A builder for a new item. */
  public static Builder builder() {
    return new Builder();
  }

  /** The item with no attributes. */
  public static Item empty() {
    return EMPTY;
  }

  /**
   * An item with these attributes; names are validated as user names.
   *
   * @throws IllegalArgumentException on an invalid or reserved name
   */
  public static Item of(Map<String, ? extends AttributeValue> attributes) {
    Builder b = new Builder();
    attributes.forEach(b::put);
    return b.build();
  }

  /**
   * An item that may hold reserved attribute names, for Stowage's core and drivers only: reached
   * through {@link dev.stowage.internal.ItemAccess}, never from application code.
   */
  private static Item ofStored(Map<String, ? extends AttributeValue> attributes) {
    // Two arrays sorted once: drivers and the core mostly hand over attributes that are already in
    // order (or nearly), which costs one comparison per name to confirm.
    int n = attributes.size();
    String[] names = new String[n];
    AttributeValue[] values = new AttributeValue[n];
    int i = 0;
    for (Map.Entry<String, ? extends AttributeValue> e : attributes.entrySet()) {
      String k = AttributeNames.validateSyntax(e.getKey());
      names[i] = k;
      values[i] = Objects.requireNonNull(e.getValue(), k);
      i++;
    }
    return new Item(SortedAttributes.sorting(names, values, i));
  }

  /**
   * An item in stored form over arrays handed over (not copied) in any order: names distinct and
   * checked for syntax here, values non-null.
   */
  private static Item ofStoredArrays(String[] names, AttributeValue[] values, int n) {
    SortedAttributes known = StoredShapes.sortedIfKnown(names, values, n);
    if (known != null) {
      return new Item(known);
    }
    for (int i = 0; i < n; i++) {
      AttributeNames.validateSyntax(names[i]);
      Objects.requireNonNull(values[i], names[i]);
    }
    // Sorting reorders the arrays in place: the order they came in is kept for the shape.
    String[] given = n > 0 && n <= StoredShapes.MAX_SIZE ? Arrays.copyOf(names, n) : null;
    SortedAttributes sorted = SortedAttributes.sorting(names, values, n);
    if (given != null) {
      StoredShapes.remember(given, n, sorted);
    }
    return new Item(sorted);
  }

  /** All attributes, in name order; unmodifiable. */
  public Map<String, AttributeValue> attributes() {
    return attributes;
  }

  /** Attribute names, in order. */
  public Set<String> names() {
    return attributes.keySet();
  }

  /** Number of attributes. */
  public int size() {
    return attributes.size();
  }

  /** True if the item has the attribute. */
  public boolean has(String name) {
    return attributes.containsKey(name);
  }

  /** The attribute's value, or empty when absent. */
  public Optional<AttributeValue> find(String name) {
    return Optional.ofNullable(attributes.get(name));
  }

  /** The attribute's value. @throws NoSuchElementException when absent */
  public AttributeValue get(String name) {
    AttributeValue v = attributes.get(name);
    if (v == null) {
      throw new NoSuchElementException("item has no attribute '" + name + "'");
    }
    return v;
  }

  /** A string attribute. */
  public String getString(String name) {
    return as(name, StringValue.class, AttributeType.STRING).value();
  }

  /**
   * A number attribute, normalised as every stored number is (trailing zeros stripped, see {@link
   * AttributeValue.NumberValue}): {@code 40} reads as {@code 4E+1}, equal by {@code compareTo}, so
   * print it with {@link BigDecimal#toPlainString()}, or read whole numbers with {@link #getLong}.
   */
  public BigDecimal getNumber(String name) {
    return as(name, NumberValue.class, AttributeType.NUMBER).value();
  }

  /** A number attribute as a long. @throws ArithmeticException if it is not a long */
  public long getLong(String name) {
    return as(name, NumberValue.class, AttributeType.NUMBER).longValue();
  }

  /** A binary attribute. */
  public Bytes getBinary(String name) {
    return as(name, BinaryValue.class, AttributeType.BINARY).value();
  }

  /** A boolean attribute. */
  public boolean getBoolean(String name) {
    return as(name, BooleanValue.class, AttributeType.BOOLEAN).value();
  }

  /** A list attribute. */
  public List<AttributeValue> getList(String name) {
    return as(name, ListValue.class, AttributeType.LIST).values();
  }

  /** A map attribute. */
  public Map<String, AttributeValue> getMap(String name) {
    return as(name, MapValue.class, AttributeType.MAP).values();
  }

  /** A string set attribute. */
  public SortedSet<String> getStringSet(String name) {
    return as(name, StringSetValue.class, AttributeType.STRING_SET).values();
  }

  /** A number set attribute. */
  public SortedSet<BigDecimal> getNumberSet(String name) {
    return as(name, NumberSetValue.class, AttributeType.NUMBER_SET).values();
  }

  /** A copy of this item with the given changes, as a builder. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.attributes.putAll(attributes);
    return b;
  }

  /** This item restricted to the given attribute names (absent names are ignored). */
  public Item project(Set<String> names) {
    Map<String, AttributeValue> kept = new LinkedHashMap<>();
    attributes.forEach(
        (k, v) -> {
          if (names.contains(k)) {
            kept.put(k, v);
          }
        });
    return new Item(Collections.unmodifiableMap(kept));
  }

  private <T extends AttributeValue> T as(String name, Class<T> type, AttributeType expected) {
    AttributeValue v = get(name);
    if (!type.isInstance(v)) {
      throw new IllegalStateException(
          "attribute '" + name + "' is a " + v.type() + ", not a " + expected);
    }
    return type.cast(v);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Item other && attributes.equals(other.attributes);
  }

  @Override
  public int hashCode() {
    return attributes.hashCode();
  }

  @Override
  public String toString() {
    return "Item" + attributes;
  }

  /** Builds an {@link Item}; not thread-safe. Later puts of a name replace earlier ones. */
  public static final class Builder {
    private final TreeMap<String, AttributeValue> attributes = new TreeMap<>(Utf8Order.COMPARATOR);

    private Builder() {}

    /** Sets an attribute. @throws IllegalArgumentException on an invalid or reserved name */
    public Builder put(String name, AttributeValue value) {
      attributes.put(AttributeNames.validate(name), Objects.requireNonNull(value, name));
      return this;
    }

    /** Sets a string attribute. */
    public Builder put(String name, String value) {
      return put(name, AttributeValue.of(value));
    }

    /** Sets a number attribute. */
    public Builder put(String name, long value) {
      return put(name, AttributeValue.of(value));
    }

    /** Sets a number attribute. */
    public Builder put(String name, BigDecimal value) {
      return put(name, AttributeValue.of(value));
    }

    /** Sets a boolean attribute. */
    public Builder put(String name, boolean value) {
      return put(name, AttributeValue.of(value));
    }

    /** Sets a binary attribute. */
    public Builder put(String name, byte[] value) {
      return put(name, AttributeValue.of(value));
    }

    /** Sets a binary attribute. */
    public Builder put(String name, Bytes value) {
      return put(name, AttributeValue.of(value));
    }

    /** Removes an attribute. */
    public Builder remove(String name) {
      attributes.remove(name);
      return this;
    }

    /** The item. The builder may be reused. */
    public Item build() {
      int n = attributes.size();
      String[] names = new String[n];
      AttributeValue[] values = new AttributeValue[n];
      int i = 0;
      for (Map.Entry<String, AttributeValue> e : attributes.entrySet()) {
        names[i] = e.getKey();
        values[i++] = e.getValue();
      }
      return new Item(new SortedAttributes(names, values, n));
    }
  }
}
