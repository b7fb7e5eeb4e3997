package dev.stowage.datastore.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.SizeModel;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Datastore's documented storage-size rules (string = UTF-8 bytes + 1, integer 8, boolean and null
 * 1, blob = its bytes, property = name + value, entity = key + properties + 32), made conservative
 * so it never under-counts what the service or its wire format charges: every value is charged
 * {@value #VALUE_OVERHEAD} extra bytes for its wire framing and index flag, Stowage's type tags
 * (tagged entity values with an incomplete key) are charged in full, and every item is charged the
 * largest possible key and the token property. Stateless and thread-safe.
 */
public final class DatastoreSizeModel implements SizeModel {
  /** Extra bytes charged per value for framing. */
  static final int VALUE_OVERHEAD = 8;

  /** Largest key: a 1500-byte name, a 40-byte kind, a 16-byte namespace, plus 16 bytes. */
  static final int MAX_KEY_BYTES = 1501 + 41 + 17 + 16;

  /** The token property: its name and a 22-character value. */
  static final int TOKEN_BYTES = 6 + 23 + VALUE_OVERHEAD;

  /** Datastore's per-entity overhead. */
  static final int ENTITY_OVERHEAD = 32;

  /** A tag: an incomplete key (kind about 12 bytes, project up to 30, plus 16) and the name "v". */
  static final int TAG_BYTES = 13 + 31 + 16 + 2 + VALUE_OVERHEAD;

  @Override
  public long attributeBytes(String name, AttributeValue value) {
    return string(name) + value(value);
  }

  @Override
  public long itemBytes(Item item) {
    long total = ENTITY_OVERHEAD + MAX_KEY_BYTES + TOKEN_BYTES;
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      total += attributeBytes(e.getKey(), e.getValue());
    }
    return total;
  }

  private static long string(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length + 1L;
  }

  private static long value(AttributeValue v) {
    return body(v) + VALUE_OVERHEAD;
  }

  private static long body(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return string(s.value());
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return number(n.value());
    }
    if (v instanceof AttributeValue.BooleanValue || v instanceof AttributeValue.NullValue) {
      return 1;
    }
    long sum = TAG_BYTES; // lists nested in lists and all sets are wrapped in a tagged entity
    if (v instanceof AttributeValue.ListValue l) {
      for (AttributeValue e : l.values()) {
        sum += value(e);
      }
    } else if (v instanceof AttributeValue.MapValue m) {
      for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
        sum += string(e.getKey()) + 1 + value(e.getValue()); // +1: a possible '~' escape
      }
    } else if (v instanceof AttributeValue.StringSetValue s) {
      for (String e : s.values()) {
        sum += string(e) + VALUE_OVERHEAD;
      }
    } else if (v instanceof AttributeValue.NumberSetValue s) {
      for (BigDecimal e : s.values()) {
        sum += number(e) + VALUE_OVERHEAD;
      }
    } else {
      for (var e : ((AttributeValue.BinarySetValue) v).values()) {
        sum += e.size() + VALUE_OVERHEAD;
      }
    }
    return sum;
  }

  /** An integer (8 bytes) when it fits a long, else a tagged decimal string. */
  private static long number(BigDecimal n) {
    if (n.scale() <= 0 && n.toBigIntegerExact().bitLength() < 64) {
      return 8;
    }
    return TAG_BYTES + n.toString().length() + 1 + VALUE_OVERHEAD;
  }
}
