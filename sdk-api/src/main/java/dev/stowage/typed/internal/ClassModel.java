package dev.stowage.typed.internal;

import dev.stowage.item.AttributeValue;
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

  ClassModel(Class<?> type) {
    this.type = type;
  }

  /** Completes the model; separate from construction so that a class may contain itself. */
  void complete(
      List<Property> properties, Function<Object[], Object> instantiate, Object[] defaults) {
    this.properties = List.copyOf(properties);
    this.instantiate = instantiate;
    this.defaults = defaults;
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
   * An instance from stored attributes; attributes the class does not map are ignored, absent ones
   * give the field's absent value.
   *
   * @throws FieldException naming the property whose value does not fit
   */
  Object decode(Map<String, AttributeValue> attributes) {
    Object[] args = defaults.clone();
    for (Property p : properties) {
      AttributeValue v = attributes.get(p.attribute());
      if (v == null) {
        for (String alias : p.aliases()) {
          v = attributes.get(alias);
          if (v != null) {
            break;
          }
        }
      }
      try {
        args[p.slot()] = p.write(v);
      } catch (FieldException e) {
        throw e.within(p);
      } catch (RuntimeException e) {
        throw new FieldException(p, e);
      }
    }
    return instantiate.apply(args);
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
