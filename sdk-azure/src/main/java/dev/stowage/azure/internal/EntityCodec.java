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
import dev.stowage.spi.NativeDoubles;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Converts items to entity properties and back.
 *
 * <p>Native EDM types where they are exact: strings as {@code Edm.String}, binary as {@code
 * Edm.Binary}, booleans as {@code Edm.Boolean}, integers in the 64-bit range as {@code Edm.Int64},
 * other numbers with a fraction that a double holds exactly ({@link Doubles}) as {@code
 * Edm.Double}. Everything else goes through {@link TypedCodec} under a {@code _1_} property name.
 * Key attributes are not stored as properties: they are decoded from PartitionKey and RowKey.
 *
 * <p>Properties other tools wrote read as: {@code Edm.Int32} as a number, {@code Edm.Double} as a
 * number or, without one, its text ({@link Doubles}), {@code Edm.DateTime} as the string {@code
 * yyyy-MM-ddTHH:mm:ss.fffffffZ} (UTC, seven fractional digits), {@code Edm.Guid} as its lowercase
 * string. Writes take the entity stored before as a template: a value the stored property's EDM
 * type holds exactly is written as that type (an Int32 number within 32 bits, a Double number a
 * double holds or a double's text, a DateTime string in the form above, a Guid string in its
 * lowercase form), so a property keeps its type through every read-modify-write.
 */
public final class EntityCodec {
  /** The driver's nonce property, present on items of tables with indexes. */
  public static final String NONCE = PropertyNames.INTERNAL + "n";

  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private EntityCodec() {}

  /** The properties for an item's non-key attributes. */
  public static Map<String, Object> properties(KeySchema schema, Item item) {
    return properties(schema, item, null);
  }

  /**
   * The properties for an item's non-key attributes, replacing an entity with the properties {@code
   * template} (or null): each attribute keeps the EDM type of the stored property of its name where
   * that type holds the new value exactly. A property of the template named like a key attribute
   * (an application's copy of its key, which reads as the key) is written again, with the key's
   * value.
   */
  public static Map<String, Object> properties(
      KeySchema schema, Item item, Map<String, Object> template) {
    Map<String, Object> props = new LinkedHashMap<>();
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      String name = e.getKey();
      if (schema.isKeyAttribute(name)) {
        String plain = PropertyNames.plain(name);
        if (template == null || plain == null || !template.containsKey(plain)) {
          continue;
        }
      }
      Property p = property(name, e.getValue(), template);
      props.put(p.name(), p.value());
    }
    return props;
  }

  /** An attribute as an Azure property name and SDK value, as Stowage types it. */
  public static Property property(String name, AttributeValue value) {
    return property(name, value, null);
  }

  private static Property property(
      String name, AttributeValue value, Map<String, Object> template) {
    String plain = PropertyNames.plain(name);
    if (plain != null && template != null) {
      Object kept = keepType(value, template.get(plain));
      if (kept != null) {
        return new Property(plain, kept);
      }
    }
    Object nativeValue = nativeValue(value);
    if (nativeValue != null) {
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

  /**
   * {@code value} as an SDK value of the EDM type of {@code stored} (the property stored before),
   * or null when that type does not hold it exactly or is one Stowage writes anyway.
   */
  static Object keepType(AttributeValue value, Object stored) {
    if (stored instanceof Integer && value instanceof NumberValue n) {
      BigDecimal v = n.value();
      if (v.scale() <= 0 && v.compareTo(INT_MIN) >= 0 && v.compareTo(INT_MAX) <= 0) {
        return v.intValueExact();
      }
    } else if (stored instanceof Double) {
      if (value instanceof NumberValue n) {
        return NativeDoubles.exact(n.value());
      }
      if (value instanceof StringValue s) {
        return NativeDoubles.fromText(s.value());
      }
    } else if (stored instanceof OffsetDateTime && value instanceof StringValue s) {
      return dateTime(s.value());
    } else if (stored instanceof UUID && value instanceof StringValue s) {
      return guid(s.value());
    }
    return null;
  }

  private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
  private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);

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
    if (value instanceof NumberValue n) {
      if (n.value().scale() <= 0) {
        BigInteger i = n.value().toBigIntegerExact();
        if (i.compareTo(LONG_MIN) >= 0 && i.compareTo(LONG_MAX) <= 0) {
          return i.longValueExact();
        }
      } else {
        // Only numbers with a fraction: an integral double travels as a JSON integer, which
        // readers (Azurite among them) take for Int32 or Int64.
        return NativeDoubles.exact(n.value());
      }
    }
    return null;
  }

  /**
   * Rebuilds the item from its key and entity properties. The driver's own {@code _0_} properties
   * and the service's ({@code PartitionKey}, {@code RowKey}, {@code Timestamp}, {@code odata.*})
   * are not attributes.
   *
   * @throws dev.stowage.IntegrityException naming the property if a {@code _1_} or {@code _2_}
   *     property does not hold a value Stowage wrote, or if two properties stand for the same
   *     attribute (only possible for names the real service refuses)
   */
  public static Item item(KeySchema schema, Key key, Map<String, Object> props) {
    // Straight into the stored item's arrays (no map in between): a scan decodes every entity it
    // lists, and items of one table share their names' order, which the stored item recognises
    // without checking or sorting the names again. An entity the arrays refuse (two properties
    // for one attribute, a bad name) is decoded again through a map, which reports it exactly.
    String[] names = new String[props.size() + 2];
    AttributeValue[] values = new AttributeValue[names.length];
    String partitionName = schema.partitionName();
    String sortName = schema.sortName().orElse(null);
    names[0] = partitionName;
    values[0] = key.partition();
    int n = 1;
    if (sortName != null) {
      names[1] = sortName;
      values[1] = key.sortOrNull();
      n = 2;
    }
    for (Map.Entry<String, Object> e : props.entrySet()) {
      String name = e.getKey();
      Object v = e.getValue();
      if (skipped(name, v)) {
        continue;
      }
      Map.Entry<String, AttributeValue> decoded = property(key, name, v);
      String attribute = decoded.getKey();
      AttributeValue value = decoded.getValue();
      if (attribute.equals(partitionName) || attribute.equals(sortName)) {
        // An application's copy of its key, which must agree with the key (the map path reports
        // one that does not).
        if (!value.equals(attribute.equals(partitionName) ? key.partition() : key.sortOrNull())) {
          return itemByMap(schema, key, props);
        }
        continue;
      }
      names[n] = attribute;
      values[n++] = value;
    }
    try {
      return StoredItems.of(names, values, n);
    } catch (IllegalArgumentException e) {
      return itemByMap(schema, key, props);
    }
  }

  /**
   * True for properties that are not attributes: the driver's own {@code _0_} ones, the service's
   * ({@code PartitionKey}, {@code RowKey}, {@code Timestamp}, {@code odata.*}, annotations) and
   * nulls.
   */
  private static boolean skipped(String name, Object v) {
    return name.startsWith(PropertyNames.INTERNAL)
        || name.indexOf('.') >= 0
        || name.indexOf('@') >= 0
        || name.equals("PartitionKey")
        || name.equals("RowKey")
        || name.equals("Timestamp")
        || v == null;
  }

  /**
   * The attribute name and value of a {@code _1_} or {@code _2_} property.
   *
   * @throws dev.stowage.IntegrityException if it does not hold a value Stowage wrote
   */
  private static Map.Entry<String, AttributeValue> encoded(Key key, String name, Object v) {
    try {
      if (name.startsWith(PropertyNames.HASHED)) {
        return TypedCodec.decodeNamed((byte[]) v);
      }
      return new java.util.AbstractMap.SimpleImmutableEntry<>(
          PropertyNames.unescape(name.substring(PropertyNames.TYPED.length())),
          TypedCodec.decode((byte[]) v));
    } catch (RuntimeException ex) {
      throw new dev.stowage.IntegrityException(
          "property "
              + name
              + " of the entity of "
              + key
              + " is not a value Stowage wrote, but names starting with "
              + PropertyNames.TYPED
              + " or "
              + PropertyNames.HASHED
              + " are reserved for Stowage's encodings",
          ex);
    }
  }

  /** The attribute and value a stored property holds. */
  private static Map.Entry<String, AttributeValue> property(Key key, String name, Object v) {
    if (name.startsWith(PropertyNames.HASHED) || name.startsWith(PropertyNames.TYPED)) {
      return encoded(key, name, v);
    }
    return Map.entry(PropertyNames.unescape(name), fromNative(v));
  }

  /**
   * {@link #item} through a map: slower, but it names the properties behind a refusal (two
   * properties for one attribute) and refuses bad names exactly as the stored item does.
   */
  private static Item itemByMap(KeySchema schema, Key key, Map<String, Object> props) {
    Map<String, AttributeValue> attrs = new LinkedHashMap<>();
    attrs.put(schema.partitionName(), key.partition());
    schema.sortName().ifPresent(s -> attrs.put(s, key.sortOrNull()));
    for (Map.Entry<String, Object> e : props.entrySet()) {
      String name = e.getKey();
      Object v = e.getValue();
      if (skipped(name, v)) {
        continue;
      }
      Map.Entry<String, AttributeValue> decoded = property(key, name, v);
      String attribute = decoded.getKey();
      AttributeValue value = decoded.getValue();
      if (schema.isKeyAttribute(attribute)) {
        // Applications often keep a copy of a key in a property; it must agree with the key.
        if (!value.equals(attrs.get(attribute))) {
          throw new dev.stowage.IntegrityException(
              "the entity of "
                  + key
                  + " has a property "
                  + name
                  + " holding "
                  + value
                  + ", but key attribute '"
                  + attribute
                  + "' is "
                  + attrs.get(attribute)
                  + " (its PartitionKey or RowKey); give the key attribute another name in the"
                  + " table's spec");
        }
        continue;
      }
      if (attrs.put(attribute, value) != null) {
        throw new dev.stowage.IntegrityException(
            "the entity of "
                + key
                + " has two properties standing for attribute '"
                + attribute
                + "' (one of them is "
                + name
                + "); only names the real service refuses can collide");
      }
    }
    return StoredItems.of(attrs);
  }

  static AttributeValue fromNative(Object v) {
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
      NumberValue n = NativeDoubles.number(d);
      return n != null ? n : AttributeValue.of(NativeDoubles.text(d));
    }
    if (v instanceof OffsetDateTime t) {
      return AttributeValue.of(dateTimeText(t));
    }
    if (v instanceof UUID u) {
      return AttributeValue.of(u.toString());
    }
    return AttributeValue.of(v.toString());
  }

  /** The text of a DateTime: UTC, always seven fractional digits (Azure keeps 100 ns ticks). */
  static String dateTimeText(OffsetDateTime t) {
    return DATE_TIME.format(t);
  }

  /** The DateTime whose text is exactly {@code s}, or null. */
  static OffsetDateTime dateTime(String s) {
    if (s.length() != 28) {
      return null;
    }
    try {
      OffsetDateTime t = OffsetDateTime.ofInstant(Instant.from(DATE_TIME.parse(s)), ZoneOffset.UTC);
      return dateTimeText(t).equals(s) ? t : null;
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** The Guid whose lowercase text is exactly {@code s}, or null. */
  static UUID guid(String s) {
    if (s.length() != 36) {
      return null;
    }
    try {
      UUID u = UUID.fromString(s);
      return u.toString().equals(s) ? u : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * An Azure property.
   *
   * @param name the property name
   * @param value the SDK value (String, byte[], Boolean, Long or Double as Stowage types values;
   *     also Integer, OffsetDateTime or UUID when a stored property's type is kept)
   */
  public record Property(String name, Object value) {}
}
