package dev.stowage.typed.internal;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import dev.stowage.item.AttributeValue.NullValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.Bytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Lists, sets and string-keyed maps of mapped values. A list is stored as a list; a non-empty set
 * of strings, numbers or binary values as the matching native set, any other set (and an empty one)
 * as a list; a map as a map. Null elements are stored as null values. Reading accepts a set where a
 * list is declared and the other way round, so a field can change between them.
 */
final class CollectionCodecs {
  private CollectionCodecs() {}

  /** A codec of collections whose elements have their own codec. */
  interface ElementCodec extends ValueCodec {
    ValueCodec element();
  }

  static ValueCodec list(ValueCodec element) {
    return new Elements(element, false, ArrayList::new);
  }

  static ValueCodec set(ValueCodec element, boolean sorted) {
    return new Elements(element, true, sorted ? TreeSet::new : LinkedHashSet::new);
  }

  static ValueCodec map(ValueCodec value) {
    return new ValueCodec() {
      @Override
      public AttributeValue encode(Object v) {
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          if (!(e.getKey() instanceof String k)) {
            throw new IllegalArgumentException("map key " + e.getKey() + " is not a string");
          }
          out.put(
              k, e.getValue() == null ? AttributeValue.nullValue() : value.encode(e.getValue()));
        }
        return new MapValue(out);
      }

      @Override
      public Object decode(AttributeValue stored) {
        if (!(stored instanceof MapValue m)) {
          throw ScalarCodecs.mismatch(AttributeType.MAP, stored);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (var e : m.values().entrySet()) {
          out.put(
              e.getKey(), e.getValue() instanceof NullValue ? null : value.decode(e.getValue()));
        }
        return out;
      }

      @Override
      public AttributeType storedType() {
        return AttributeType.MAP;
      }
    };
  }

  private record Elements(ValueCodec element, boolean isSet, Supplier<Collection<Object>> make)
      implements ElementCodec {
    @Override
    public AttributeValue encode(Object value) {
      Collection<?> c = (Collection<?>) value;
      AttributeType t = element.storedType();
      if (isSet && !c.isEmpty() && t != null && t.isKeyType() && noNulls(c)) {
        switch (t) {
          case STRING -> {
            List<String> s = new ArrayList<>(c.size());
            c.forEach(x -> s.add(ScalarCodecs.string(element.encode(x))));
            return new StringSetValue(s);
          }
          case NUMBER -> {
            List<BigDecimal> s = new ArrayList<>(c.size());
            c.forEach(x -> s.add(ScalarCodecs.number(element.encode(x))));
            return new NumberSetValue(s);
          }
          default -> {
            List<Bytes> s = new ArrayList<>(c.size());
            c.forEach(x -> s.add(ScalarCodecs.binary(element.encode(x))));
            return new BinarySetValue(s);
          }
        }
      }
      List<AttributeValue> out = new ArrayList<>(c.size());
      for (Object x : c) {
        out.add(x == null ? AttributeValue.nullValue() : element.encode(x));
      }
      return new ListValue(out);
    }

    @Override
    public Object decode(AttributeValue stored) {
      Collection<Object> out = make.get();
      if (stored instanceof ListValue l) {
        for (AttributeValue v : l.values()) {
          out.add(v instanceof NullValue ? null : element.decode(v));
        }
      } else if (stored instanceof StringSetValue s) {
        s.values().forEach(x -> out.add(element.decode(AttributeValue.of(x))));
      } else if (stored instanceof NumberSetValue s) {
        s.values().forEach(x -> out.add(element.decode(AttributeValue.of(x))));
      } else if (stored instanceof BinarySetValue s) {
        s.values().forEach(x -> out.add(element.decode(AttributeValue.of(x))));
      } else {
        throw new IllegalArgumentException("expected a list or set value, found " + stored.type());
      }
      return out;
    }

    @Override
    public AttributeType storedType() {
      return isSet ? null : AttributeType.LIST; // a set may be a native set or a list
    }
  }

  private static boolean noNulls(Collection<?> c) {
    for (Object x : c) {
      if (x == null) {
        return false;
      }
    }
    return true;
  }

  /** Checks a set type can hold what it is asked to: used for the declared collection types. */
  static boolean isSetType(Class<?> raw) {
    return raw == Set.class
        || raw == java.util.SortedSet.class
        || raw == java.util.NavigableSet.class;
  }
}
