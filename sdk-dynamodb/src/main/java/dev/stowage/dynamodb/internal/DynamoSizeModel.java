package dev.stowage.dynamodb.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.SizeModel;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * DynamoDB's item size rules, counted conservatively (never less than DynamoDB counts):
 *
 * <ul>
 *   <li>an attribute is its name's UTF-8 bytes plus its value;
 *   <li>strings: UTF-8 bytes; binary: raw bytes; booleans and null: 1 byte;
 *   <li>numbers: 1 byte per two significant digits plus 1, counted here as {@code ceil(digits/2) +
 *       2} to stay on the safe side of DynamoDB's approximation;
 *   <li>lists and maps: 3 bytes plus, per element, 1 byte and the element (map keys count as names,
 *       as stored: an empty key is stored as one 3-byte escape character);
 *   <li>sets: the sum of their elements;
 *   <li>every stored item also carries the driver's token attribute, which {@link #itemBytes}
 *       includes.
 * </ul>
 */
public final class DynamoSizeModel implements SizeModel {
  /** Bytes the token attribute adds to every stored item (name plus value). */
  public static final long TOKEN_BYTES =
      Tokens.ATTRIBUTE.getBytes(StandardCharsets.UTF_8).length + Tokens.TOKEN_LENGTH;

  @Override
  public long attributeBytes(String name, AttributeValue value) {
    return utf8(name) + valueBytes(value);
  }

  @Override
  public long itemBytes(Item item) {
    long total = TOKEN_BYTES;
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      if (!e.getKey().equals(Tokens.ATTRIBUTE)) {
        total += attributeBytes(e.getKey(), e.getValue());
      }
    }
    return total;
  }

  static long valueBytes(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return utf8(s.value());
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return numberBytes(n.value());
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.BooleanValue || v instanceof AttributeValue.NullValue) {
      return 1;
    }
    if (v instanceof AttributeValue.ListValue l) {
      long total = 3;
      for (AttributeValue e : l.values()) {
        total += 1 + valueBytes(e);
      }
      return total;
    }
    if (v instanceof AttributeValue.MapValue m) {
      long total = 3;
      for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
        total += 1 + utf8(AttributeMapper.escapeMapKey(e.getKey())) + valueBytes(e.getValue());
      }
      return total;
    }
    if (v instanceof AttributeValue.StringSetValue ss) {
      long total = 0;
      for (String s : ss.values()) {
        total += utf8(s);
      }
      return total;
    }
    if (v instanceof AttributeValue.NumberSetValue ns) {
      long total = 0;
      for (BigDecimal d : ns.values()) {
        total += numberBytes(d);
      }
      return total;
    }
    long total = 0;
    for (Bytes b : ((AttributeValue.BinarySetValue) v).values()) {
      total += b.size();
    }
    return total;
  }

  private static long numberBytes(BigDecimal d) {
    return (d.precision() + 1) / 2 + 2;
  }

  private static long utf8(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** UTF-8 length of a string, for key size checks. */
  public static int utf8Length(String s) {
    return (int) utf8(s);
  }
}
