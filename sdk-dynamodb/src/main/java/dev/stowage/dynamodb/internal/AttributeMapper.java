package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;

/**
 * Converts between Stowage attribute values and DynamoDB's native attribute values, one to one: S,
 * N, B, BOOL, NULL, L, M, SS, NS, BS. Nothing is wrapped or tagged, so a table written through
 * Stowage (without codecs or overflow) is an ordinary DynamoDB table and the reverse.
 */
public final class AttributeMapper {
  private AttributeMapper() {}

  /**
   * Shared native values: they are immutable. Values are made with the SDK's {@code createX}
   * factories, which skip the builder (and its bookkeeping of which member is set) that {@code
   * builder()} and {@code fromX} cost per value.
   */
  private static final software.amazon.awssdk.services.dynamodb.model.AttributeValue
      NATIVE_TRUE = software.amazon.awssdk.services.dynamodb.model.AttributeValue.createBool(true),
      NATIVE_FALSE =
          software.amazon.awssdk.services.dynamodb.model.AttributeValue.createBool(false),
      NATIVE_NULL = software.amazon.awssdk.services.dynamodb.model.AttributeValue.createNul(true);

  /**
   * The native value of a Stowage value. Scalars take the short path here, kept small so that it
   * inlines where items are translated; lists, maps and sets the longer one.
   */
  public static software.amazon.awssdk.services.dynamodb.model.AttributeValue toNative(
      AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createS(s.value());
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createN(
          number(n.value()));
    }
    if (v instanceof AttributeValue.BooleanValue bool) {
      return bool.value() ? NATIVE_TRUE : NATIVE_FALSE;
    }
    if (v instanceof AttributeValue.NullValue) {
      return NATIVE_NULL;
    }
    return composite(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue composite(
      AttributeValue v) {
    if (v instanceof AttributeValue.BinaryValue bin) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createB(
          SdkBytes.fromByteBuffer(bin.value().asReadOnlyBuffer()));
    }
    if (v instanceof AttributeValue.ListValue l) {
      List<software.amazon.awssdk.services.dynamodb.model.AttributeValue> out =
          new ArrayList<>(l.values().size());
      l.values().forEach(e -> out.add(toNative(e)));
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createL(out);
    }
    if (v instanceof AttributeValue.MapValue m) {
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> out =
          new HashMap<>(m.values().size() * 2);
      m.values().forEach((k, e) -> out.put(escapeMapKey(k), toNative(e)));
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createM(out);
    }
    if (v instanceof AttributeValue.StringSetValue ss) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createSs(
          new ArrayList<>(ss.values()));
    }
    if (v instanceof AttributeValue.NumberSetValue ns) {
      List<String> out = new ArrayList<>(ns.values().size());
      ns.values().forEach(d -> out.add(number(d)));
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createNs(out);
    }
    AttributeValue.BinarySetValue bs = (AttributeValue.BinarySetValue) v;
    List<SdkBytes> out = new ArrayList<>(bs.values().size());
    bs.values().forEach(x -> out.add(SdkBytes.fromByteBuffer(x.asReadOnlyBuffer())));
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.createBs(out);
  }

  /** The native map of a Stowage attribute map. */
  public static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> toNative(
      Map<String, ? extends AttributeValue> values) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> out =
        new HashMap<>(values.size() * 2);
    values.forEach((k, e) -> out.put(k, toNative(e)));
    return out;
  }

  /** The native key attributes of a key. */
  public static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> keyOf(
      KeySchema schema, Key key) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> out =
        new HashMap<>(4);
    out.put(schema.partitionName(), toNative(key.partition()));
    schema.sortName().ifPresent(s -> out.put(s, toNative(key.sortOrNull())));
    return out;
  }

  /** The Stowage key of a native item or key map. */
  public static Key keyFrom(
      KeySchema schema,
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
    KeyValue p = keyValue(item, schema.partitionName());
    return schema.sortName().map(s -> Key.of(p, keyValue(item, s))).orElseGet(() -> Key.of(p));
  }

  private static KeyValue keyValue(
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item,
      String name) {
    var v = item.get(name);
    if (v == null || !(fromNative(v) instanceof KeyValue kv)) {
      throw new InvalidRequestException("stored item lacks a valid key attribute '" + name + "'");
    }
    return kv;
  }

  /**
   * A Stowage item from a native item, leaving out the attributes in {@code hidden} (the driver's
   * own bookkeeping).
   */
  public static Item itemFrom(
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item,
      String hidden) {
    // Through forEach, which walks a hash map's table directly: no iterator and no entry objects
    // (an unmodifiable map, as the SDK hands items over, wraps every entry for an iterator).
    Translation t = new Translation(item.size(), hidden);
    item.forEach(t);
    return StoredItems.of(t.names, t.values, t.size);
  }

  /** The arrays {@link #itemFrom} fills, one attribute at a time. */
  private static final class Translation
      implements java.util.function.BiConsumer<
          String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> {
    final String[] names;
    final AttributeValue[] values;
    final String hidden;
    int size;

    Translation(int n, String hidden) {
      this.names = new String[n];
      this.values = new AttributeValue[n];
      this.hidden = hidden;
    }

    @Override
    public void accept(
        String name, software.amazon.awssdk.services.dynamodb.model.AttributeValue value) {
      if (!name.equals(hidden)) {
        names[size] = name;
        values[size++] = fromNative(value);
      }
    }
  }

  /** The Stowage value of a native value. */
  public static AttributeValue fromNative(
      software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
    var type = v.type();
    if (type == null) {
      throw new InvalidRequestException("stored attribute value has no type: " + v);
    }
    switch (type) {
      case S:
        return AttributeValue.of(v.s());
      case N:
        return number(v.n());
      case B:
        return AttributeValue.of(Bytes.wrap(v.b().asByteArray()));
      case BOOL:
        return AttributeValue.of(v.bool());
      case NUL:
        return AttributeValue.nullValue();
      case L:
        {
          List<AttributeValue> out = new ArrayList<>(v.l().size());
          v.l().forEach(e -> out.add(fromNative(e)));
          return AttributeValue.list(out);
        }
      case M:
        {
          Map<String, AttributeValue> out = new HashMap<>(v.m().size() * 2);
          v.m().forEach((k, e) -> out.put(unescapeMapKey(k), fromNative(e)));
          return AttributeValue.map(out);
        }
      case SS:
        return AttributeValue.stringSet(v.ss());
      case NS:
        {
          List<BigDecimal> out = new ArrayList<>(v.ns().size());
          v.ns().forEach(n -> out.add(parseNumber(n)));
          return AttributeValue.numberSet(out);
        }
      case BS:
        {
          List<Bytes> out = new ArrayList<>(v.bs().size());
          v.bs().forEach(x -> out.add(Bytes.wrap(x.asByteArray())));
          return AttributeValue.binarySet(out);
        }
      default:
        throw new InvalidRequestException("unsupported DynamoDB attribute type " + type);
    }
  }

  /**
   * The escape of the empty map key. DynamoDB rejects empty names, also as map keys, while Stowage
   * maps may have an empty key: {@code ""} is stored as {@code "\uE000"} (a private-use character).
   * To keep that reversible, a key made of U+E000 alone, any number of times, gets one more in
   * front. Every other key is stored as it is, so a map another tool wrote (keys such as {@code
   * "\uE000icon"} included) reads exactly as written; only a native key consisting of nothing but
   * U+E000 characters reads with one fewer.
   */
  static final char MAP_KEY_ESCAPE = '\uE000';

  static String escapeMapKey(String k) {
    return onlyEscapes(k) ? MAP_KEY_ESCAPE + k : k;
  }

  static String unescapeMapKey(String k) {
    return !k.isEmpty() && onlyEscapes(k) ? k.substring(1) : k;
  }

  private static boolean onlyEscapes(String k) {
    for (int i = 0; i < k.length(); i++) {
      if (k.charAt(i) != MAP_KEY_ESCAPE) {
        return false;
      }
    }
    return true;
  }

  /**
   * A number's text as DynamoDB returns it: short integers (most numbers stored) read digit by
   * digit into a long, several times cheaper than {@link BigDecimal}'s parser, everything else
   * (fractions, exponents, more than 18 digits) through that parser.
   */
  static BigDecimal parseNumber(String text) {
    long value = parseShortInteger(text);
    return value != NOT_SHORT ? BigDecimal.valueOf(value) : new BigDecimal(text);
  }

  /**
   * The Stowage value of a number's text: short integers through {@link AttributeValue#of(long)}.
   */
  private static AttributeValue.NumberValue number(String text) {
    long value = parseShortInteger(text);
    return value != NOT_SHORT ? AttributeValue.of(value) : AttributeValue.of(new BigDecimal(text));
  }

  /** What {@link #parseShortInteger} returns for any other text (never a short integer's value). */
  private static final long NOT_SHORT = Long.MIN_VALUE;

  /**
   * The value of an integer of up to 18 digits, optionally negative, or {@link #NOT_SHORT}. Digits
   * are accumulated as they are checked: one pass, and 18 digits cannot overflow.
   */
  private static long parseShortInteger(String text) {
    int len = text.length();
    if (len > 0 && len <= 18) {
      boolean negative = text.charAt(0) == '-';
      int i = negative ? 1 : 0;
      if (i < len) {
        long value = 0;
        for (; i < len; i++) {
          int d = text.charAt(i) - '0';
          if (d < 0 || d > 9) {
            return NOT_SHORT;
          }
          value = value * 10 + d;
        }
        return negative ? -value : value;
      }
    }
    return NOT_SHORT;
  }

  /** DynamoDB's number text: plain digits where short, scientific notation otherwise. */
  static String number(BigDecimal d) {
    return d.toString();
  }
}
