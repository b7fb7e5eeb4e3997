package dev.stowage.typed.internal;

import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Item;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How one class is taken apart into attributes and put together again: its mapped properties and
 * the way instances are built (canonical constructor, all-fields constructor, setters or builder).
 * Built once per class by {@link ModelFactory}; immutable and thread-safe after that.
 */
final class ClassModel {
  final Class<?> type;
  private List<Property> properties;
  private Function<Object[], Object> instantiate;
  private Object[] defaults;

  /*
   * The properties as arrays for decoding, which every read of an item does once per field:
   * walking arrays costs no iterator, fields without earlier names skip the alias lookup, and the
   * commonest codecs (by identity, so converters the application chose are never bypassed) are
   * applied inline, not through a codec call that no call site can inline for all field types.
   */
  private Property[] decoded;
  private String[] attributes;
  private String[][] aliases;
  private int[] slots;
  private byte[] kinds;

  private static final byte GENERAL = 0;
  private static final byte STRING = 1;
  private static final byte LONG = 2;
  private static final byte INT = 3;
  private static final byte BOOLEAN = 4;

  ClassModel(Class<?> type) {
    this.type = type;
  }

  /** Completes the model; separate from construction so that a class may contain itself. */
  void complete(
      List<Property> properties, Function<Object[], Object> instantiate, Object[] defaults) {
    this.properties = List.copyOf(properties);
    this.instantiate = instantiate;
    this.defaults = defaults;
    int n = properties.size();
    Property[] d = new Property[n];
    String[] a = new String[n];
    String[][] al = new String[n][];
    int[] sl = new int[n];
    byte[] k = new byte[n];
    for (int i = 0; i < n; i++) {
      Property p = properties.get(i);
      d[i] = p;
      a[i] = p.attribute();
      al[i] = p.aliases().isEmpty() ? null : p.aliases().toArray(new String[0]);
      sl[i] = p.slot();
      k[i] = kindOf(p);
    }
    this.decoded = d;
    this.attributes = a;
    this.aliases = al;
    this.slots = sl;
    this.kinds = k;
  }

  private static byte kind(ValueCodec c) {
    return c == ScalarCodecs.STRING
        ? STRING
        : c == ScalarCodecs.LONG
            ? LONG
            : c == ScalarCodecs.INT ? INT : c == ScalarCodecs.BOOLEAN ? BOOLEAN : GENERAL;
  }

  List<Property> properties() {
    return properties;
  }

  /** Every property's stored form, absent ones left out, in property order. */
  Map<String, AttributeValue> encode(Object instance) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Property p : properties) {
      AttributeValue v = encodeProperty(p, instance);
      if (v != null) {
        out.put(p.attribute(), v);
      }
    }
    return out;
  }

  /** How {@link #encodeProperty(Property, byte, Object)} stores a property: see {@link #decode}. */
  static byte kindOf(Property p) {
    return p.optional() ? GENERAL : kind(p.codec());
  }

  /**
   * The stored form of a property whose {@link #kindOf kind} is known, or null if it has no value:
   * the commonest codecs applied inline, as in {@link #decode}.
   */
  static AttributeValue encodeProperty(Property p, byte kind, Object instance) {
    if (kind == GENERAL) {
      return encodeProperty(p, instance);
    }
    Object v;
    try {
      v = p.getter().apply(instance);
    } catch (RuntimeException e) {
      throw new FieldException(p, e);
    }
    if (v == null) {
      return null;
    }
    switch (kind) {
      case STRING:
        return v instanceof String s ? AttributeValue.of(s) : encodeProperty(p, instance);
      case LONG:
      case INT:
        return v instanceof Long || v instanceof Integer
            ? AttributeValue.of(((Number) v).longValue())
            : encodeProperty(p, instance);
      default:
        return v instanceof Boolean b ? AttributeValue.of(b) : encodeProperty(p, instance);
    }
  }

  static AttributeValue encodeProperty(Property p, Object instance) {
    try {
      return p.read(instance);
    } catch (FieldException e) {
      throw e.within(p);
    } catch (RuntimeException e) {
      throw new FieldException(p, e);
    }
  }

  /**
   * Where each property's value is in the items of one shape (see {@link ItemAccess#sharedNames}):
   * worked out once per shape, so that reading an item of it looks no attribute up by name.
   *
   * @param names the shape's names array, compared by identity
   * @param positions per property (in {@link #decoded} order), the position of its attribute or of
   *     the first of its aliases present, as {@link #decode(Map)} picks them; -1 if none is
   */
  private record Layout(String[] names, int[] positions) {}

  /** Layouts of the shapes read recently; replaced in turn, racing writers at worst redo one. */
  private final Layout[] layouts = new Layout[4];

  private int nextLayout;

  /**
   * An instance from an item: as {@link #decode(Map)}, and the same values, but for an item of a
   * remembered shape through the positions of its attributes instead of lookups by name.
   */
  Object decode(Item item) {
    String[] names = ItemAccess.sharedNames(item);
    if (names == null) {
      return decode(item.attributes());
    }
    Layout layout = null;
    for (Layout l : layouts) {
      if (l != null && l.names == names) {
        layout = l;
        break;
      }
    }
    if (layout == null) {
      layout = layoutOf(names);
    }
    AttributeValue[] values = ItemAccess.sharedValues(item);
    int[] positions = layout.positions;
    Object[] args = defaults.clone();
    for (int i = 0; i < positions.length; i++) {
      int at = positions[i];
      args[slots[i]] = value(i, at < 0 ? null : values[at]);
    }
    return instantiate.apply(args);
  }

  private Layout layoutOf(String[] names) {
    int[] positions = new int[attributes.length];
    for (int i = 0; i < positions.length; i++) {
      int at = indexOf(names, attributes[i]);
      if (at < 0 && aliases[i] != null) {
        for (String alias : aliases[i]) {
          at = indexOf(names, alias);
          if (at >= 0) {
            break;
          }
        }
      }
      positions[i] = at;
    }
    Layout layout = new Layout(names, positions);
    layouts[nextLayout++ & (layouts.length - 1)] = layout;
    return layout;
  }

  private static int indexOf(String[] names, String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * An instance from stored attributes; attributes the class does not map are ignored, absent ones
   * give the field's absent value.
   *
   * @throws FieldException naming the property whose value does not fit
   */
  Object decode(Map<String, AttributeValue> stored) {
    Object[] args = defaults.clone();
    String[] names = attributes;
    for (int i = 0; i < names.length; i++) {
      AttributeValue v = stored.get(names[i]);
      if (v == null && aliases[i] != null) {
        for (String alias : aliases[i]) {
          v = stored.get(alias);
          if (v != null) {
            break;
          }
        }
      }
      args[slots[i]] = value(i, v);
    }
    return instantiate.apply(args);
  }

  /**
   * The value of property {@code i} (in {@link #decoded} order) for its stored form, or its absent
   * value for null.
   *
   * @throws FieldException naming the property whose value does not fit
   */
  private Object value(int i, AttributeValue v) {
    try {
      switch (kinds[i]) {
        case STRING:
          return v instanceof StringValue s ? s.value() : decoded[i].write(v);
        case LONG:
          return v instanceof NumberValue n
              ? (Object) ScalarCodecs.exactLong(n.value())
              : decoded[i].write(v);
        case INT:
          return v instanceof NumberValue n
              ? (Object) ScalarCodecs.exactInt(n.value())
              : decoded[i].write(v);
        case BOOLEAN:
          return v instanceof BooleanValue b ? (Object) b.value() : decoded[i].write(v);
        default:
          return decoded[i].write(v);
      }
    } catch (FieldException e) {
      throw e.within(decoded[i]);
    } catch (RuntimeException e) {
      throw new FieldException(decoded[i], e);
    }
  }

  /**
   * A value that did not fit its field, with the path of fields down to it (outermost first) so
   * that the message can name the attribute.
   */
  static final class FieldException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String path;

    FieldException(Property p, RuntimeException cause) {
      this(p.attribute(), cause);
    }

    private FieldException(String path, RuntimeException cause) {
      super(cause.getMessage(), cause);
      this.path = path;
    }

    FieldException within(Property outer) {
      return new FieldException(outer.attribute() + "." + path, (RuntimeException) getCause());
    }

    String reason() {
      Throwable c = getCause();
      return c.getMessage() == null ? c.toString() : c.getMessage();
    }
  }

  /** A nested object stored as a map. */
  static ValueCodec asCodec(ClassModel model) {
    return new NestedCodec(model);
  }

  /** The codec of a nested record or class: a map of its properties' attributes. */
  record NestedCodec(ClassModel model) implements ValueCodec {
    @Override
    public AttributeValue encode(Object value) {
      return new AttributeValue.MapValue(model.encode(value));
    }

    @Override
    public Object decode(AttributeValue stored) {
      if (!(stored instanceof AttributeValue.MapValue m)) {
        throw ScalarCodecs.mismatch(dev.stowage.item.AttributeType.MAP, stored);
      }
      return model.decode(m.values());
    }

    @Override
    public dev.stowage.item.AttributeType storedType() {
      return dev.stowage.item.AttributeType.MAP;
    }
  }

  /**
   * {@code fresh} (this class's map as an instance encodes it) with every key of {@code stored}
   * that the class does not map added as it is, at every level of nested classes: what another
   * writer (or a newer version of the class) put into the map survives a write of this one. A key
   * the class maps (a field's name or one of its aliases) takes the fresh value, or stays absent
   * when the field has none, as at the top level.
   */
  AttributeValue.MapValue merge(AttributeValue.MapValue fresh, AttributeValue.MapValue stored) {
    Map<String, AttributeValue> out = null;
    for (Map.Entry<String, AttributeValue> e : stored.values().entrySet()) {
      String k = e.getKey();
      Property p = mapped(k);
      AttributeValue kept;
      if (p == null) {
        kept = e.getValue();
      } else if (p.attribute().equals(k)
          && p.codec() instanceof NestedCodec n
          && fresh.values().get(k) instanceof AttributeValue.MapValue f
          && e.getValue() instanceof AttributeValue.MapValue old) {
        AttributeValue.MapValue merged = n.model().merge(f, old);
        kept = merged == f ? null : merged;
      } else {
        kept = null;
      }
      if (kept != null) {
        if (out == null) {
          out = new LinkedHashMap<>(fresh.values());
        }
        out.put(k, kept);
      }
    }
    return out == null ? fresh : new AttributeValue.MapValue(out);
  }

  /** The property stored under {@code attribute} or one of its aliases, or null. */
  private Property mapped(String attribute) {
    for (Property p : properties) {
      if (p.attribute().equals(attribute) || p.aliases().contains(attribute)) {
        return p;
      }
    }
    return null;
  }
}
