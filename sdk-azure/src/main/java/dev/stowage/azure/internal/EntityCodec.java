package dev.stowage.azure.internal;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Converts items to entity properties and back.
 *
 * <p>Native EDM types where they are exact: strings as {@code Edm.String}, binary as {@code
 * Edm.Binary}, booleans as {@code Edm.Boolean}, integers in the 64-bit range as {@code Edm.Int64};
 * never {@code Edm.Double}. Everything else goes through {@link TypedCodec} under a {@code _1_}
 * property name. Key attributes are not stored as properties: they are decoded from PartitionKey
 * and RowKey.
 */
public final class EntityCodec {
  /** The driver's nonce property, present on items of tables with indexes. */
  public static final String NONCE = PropertyNames.INTERNAL + "n";

  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private EntityCodec() {}

  /** The properties for an item's non-key attributes. */
  public static Map<String, Object> properties(KeySchema schema, Item item) {
    Map<String, Object> props = new LinkedHashMap<>();
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      if (schema.isKeyAttribute(e.getKey())) {
        continue;
      }
      Property p = property(e.getKey(), e.getValue());
      props.put(p.name(), p.value());
    }
    return props;
  }

  /** An attribute as an Azure property name and SDK value. */
  public static Property property(String name, AttributeValue value) {
    Object nativeValue = nativeValue(value);
    if (nativeValue != null) {
      String plain = PropertyNames.plain(name);
      if (plain != null) {
        return new Property(plain, nativeValue);
      }
    } else {
      String typed = PropertyNames.typed(name);
      if (typed != null) {
        return new Property(typed, TypedCodec.encode(value));
      }
    }
    return new Property(PropertyNames.hashed(name), TypedCodec.encodeNamed(name, value));
  }

  /** The exact native SDK value, or null when the value needs the typed encoding. */
  static Object nativeValue(AttributeValue value) {
    if (value instanceof StringValue s) {
      return s.value();
    }
    if (value instanceof BinaryValue b) {
      return b.value().toByteArray();
    }
    if (value instanceof BooleanValue b) {
      return b.value();
    }
    if (value instanceof NumberValue n && n.value().scale() <= 0) {
      BigInteger i = n.value().toBigIntegerExact();
      if (i.compareTo(LONG_MIN) >= 0 && i.compareTo(LONG_MAX) <= 0) {
        return i.longValueExact();
      }
    }
    return null;
  }

  /** Rebuilds the item from its key and entity properties (unknown properties are ignored). */
  public static Item item(KeySchema schema, Key key, Map<String, Object> props) {
    Map<String, AttributeValue> attrs = new LinkedHashMap<>();
    attrs.put(schema.partitionName(), key.partition());
    schema.sortName().ifPresent(s -> attrs.put(s, key.sortOrNull()));
    for (Map.Entry<String, Object> e : props.entrySet()) {
      String name = e.getKey();
      Object v = e.getValue();
      if (name.startsWith(PropertyNames.INTERNAL)
          || name.indexOf('.') >= 0
          || name.equals("PartitionKey")
          || name.equals("RowKey")
          || name.equals("Timestamp")
          || v == null) {
        continue;
      }
      if (name.startsWith(PropertyNames.HASHED)) {
        Map.Entry<String, AttributeValue> named = TypedCodec.decodeNamed((byte[]) v);
        attrs.put(named.getKey(), named.getValue());
      } else if (name.startsWith(PropertyNames.TYPED)) {
        attrs.put(
            PropertyNames.unescape(name.substring(PropertyNames.TYPED.length())),
            TypedCodec.decode((byte[]) v));
      } else {
        attrs.put(PropertyNames.unescape(name), fromNative(v));
      }
    }
    return StoredItems.of(attrs);
  }

  private static AttributeValue fromNative(Object v) {
    if (v instanceof String s) {
      return AttributeValue.of(s);
    }
    if (v instanceof byte[] b) {
      return AttributeValue.of(Bytes.wrap(b));
    }
    if (v instanceof Boolean b) {
      return AttributeValue.of(b);
    }
    if (v instanceof Long l) {
      return AttributeValue.of(l);
    }
    if (v instanceof Integer i) {
      return AttributeValue.of(i.longValue());
    }
    if (v instanceof Double d) {
      return AttributeValue.of(new BigDecimal(Double.toString(d)));
    }
    return AttributeValue.of(v.toString());
  }

  /**
   * An Azure property.
   *
   * @param name the property name
   * @param value the SDK value (String, byte[], Boolean or Long)
   */
  public record Property(String name, Object value) {}
}
