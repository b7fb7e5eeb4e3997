package dev.stowage.console.internal.json;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import dev.stowage.item.AttributeValue.NullValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON form of items used by the {@code stowage} command line (see docs/cli.md).
 *
 * <ul>
 *   <li>string, boolean, null, list and map are the JSON string, boolean, null, array and object;
 *   <li>a number is a JSON number written exactly ({@code 12.50} in, {@code 12.5} out), or, on
 *       input or with {@link NumberStyle#TAGGED_STRING}, {@code {"$n": "12.5"}} for consumers that
 *       would read JSON numbers as doubles;
 *   <li>binary is {@code {"$b": "<base64>"}};
 *   <li>sets are {@code {"$ss": [strings]}}, {@code {"$ns": [numbers]}}, {@code {"$bs": [base64]}};
 *   <li>a map whose only key happens to be one of these tags (or {@code $m}) is wrapped as {@code
 *       {"$m": {...}}} so it never reads back as a tagged value.
 * </ul>
 *
 * <p>Every value round-trips exactly. Stateless and thread-safe; malformed input throws {@link
 * IllegalArgumentException} naming the attribute path.
 */
public final class ItemJson {
  private static final Set<String> TAGS = Set.of("$n", "$b", "$ss", "$ns", "$bs", "$m");

  /** How numbers are written. */
  public enum NumberStyle {
    /** Exact JSON numbers. */
    NUMBER,
    /** {@code {"$n": "…"}} objects. */
    TAGGED_STRING
  }

  private ItemJson() {}

  /** An item as one line of JSON. */
  public static String write(Item item) {
    return Json.write(toJson(item, NumberStyle.NUMBER));
  }

  /** An item as a JSON object (see {@link Json} for the object model). */
  public static Map<String, Object> toJson(Item item, NumberStyle style) {
    Map<String, Object> m = new LinkedHashMap<>();
    item.attributes().forEach((k, v) -> m.put(k, toJson(v, style)));
    return m;
  }

  /** One value in its JSON form. */
  public static Object toJson(AttributeValue v, NumberStyle style) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    if (v instanceof NumberValue n) {
      return style == NumberStyle.NUMBER ? n.value() : Map.of("$n", Json.number(n.value()));
    }
    if (v instanceof BinaryValue b) {
      return Map.of("$b", b.value().toBase64());
    }
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    if (v instanceof NullValue) {
      return null;
    }
    if (v instanceof ListValue l) {
      List<Object> out = new ArrayList<>();
      l.values().forEach(e -> out.add(toJson(e, style)));
      return out;
    }
    if (v instanceof MapValue m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.values().forEach((k, e) -> out.put(k, toJson(e, style)));
      if (out.size() == 1 && TAGS.contains(out.keySet().iterator().next())) {
        return Map.of("$m", out);
      }
      return out;
    }
    if (v instanceof StringSetValue s) {
      return Map.of("$ss", new ArrayList<>(s.values()));
    }
    if (v instanceof NumberSetValue s) {
      List<Object> out = new ArrayList<>();
      s.values().forEach(d -> out.add(style == NumberStyle.NUMBER ? d : Json.number(d)));
      return Map.of("$ns", out);
    }
    BinarySetValue s = (BinarySetValue) v;
    return Map.of("$bs", s.values().stream().map(Bytes::toBase64).toList());
  }

  /**
   * Parses a JSON object into a user item.
   *
   * @throws IllegalArgumentException on malformed JSON, a reserved name or a bad value
   */
  public static Item parseItem(String json) {
    return item(Json.parse(json), false);
  }

  /**
   * An item from a parsed JSON object.
   *
   * @param stored allow Stowage's reserved {@code stowage:} names (stored forms)
   */
  public static Item item(Object json, boolean stored) {
    if (!(json instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("an item must be a JSON object");
    }
    Map<String, AttributeValue> attrs = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String name = (String) e.getKey();
      attrs.put(name, value(e.getValue(), name));
    }
    return stored ? StoredItems.of(attrs) : Item.of(attrs);
  }

  /**
   * One attribute value from its JSON form.
   *
   * @param path where the value is, for messages
   */
  public static AttributeValue value(Object json, String path) {
    try {
      return convert(json, path);
    } catch (IllegalArgumentException | ClassCastException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("attribute '")) {
        throw e;
      }
      throw new IllegalArgumentException("attribute '" + path + "': " + e.getMessage(), e);
    }
  }

  private static AttributeValue convert(Object json, String path) {
    if (json == null) {
      return AttributeValue.nullValue();
    }
    if (json instanceof String s) {
      return AttributeValue.of(s);
    }
    if (json instanceof BigDecimal d) {
      return AttributeValue.of(d);
    }
    if (json instanceof Boolean b) {
      return AttributeValue.of(b);
    }
    if (json instanceof List<?> l) {
      List<AttributeValue> out = new ArrayList<>();
      for (int i = 0; i < l.size(); i++) {
        out.add(value(l.get(i), path + "[" + i + "]"));
      }
      return AttributeValue.list(out);
    }
    Map<?, ?> m = (Map<?, ?>) json;
    if (m.size() == 1) {
      String tag = (String) m.keySet().iterator().next();
      Object body = m.get(tag);
      switch (tag) {
        case "$n":
          return AttributeValue.of(number(body));
        case "$b":
          return AttributeValue.of(base64(body, tag));
        case "$ss":
          return AttributeValue.stringSet(
              array(body, tag, "strings").stream().map(e -> string(e, tag)).toList());
        case "$ns":
          return AttributeValue.numberSet(
              array(body, tag, "numbers").stream().map(ItemJson::number).toList());
        case "$bs":
          return AttributeValue.binarySet(
              array(body, tag, "base64 strings").stream().map(b -> base64(b, tag)).toList());
        case "$m":
          if (!(body instanceof Map<?, ?> inner)) {
            throw new IllegalArgumentException(
                "{\"$m\": …} takes a JSON object, not " + Json.write(body));
          }
          return map(inner, path);
        default:
          break;
      }
    }
    return map(m, path);
  }

  private static AttributeValue map(Map<?, ?> m, String path) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      out.put((String) e.getKey(), value(e.getValue(), path + "." + e.getKey()));
    }
    return AttributeValue.map(out);
  }

  // The tagged forms' bodies are checked here, so that a malformed one is named as such rather
  // than reported as the ClassCastException a cast would throw.
  private static List<?> array(Object body, String tag, String of) {
    if (body instanceof List<?> l) {
      return l;
    }
    throw new IllegalArgumentException(
        "{\"" + tag + "\": …} takes an array of " + of + ", not " + Json.write(body));
  }

  private static String string(Object o, String tag) {
    if (o instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException("{\"" + tag + "\": …} takes strings, not " + Json.write(o));
  }

  private static Bytes base64(Object o, String tag) {
    String s = string(o, tag);
    try {
      return Bytes.fromBase64(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'" + s + "' is not standard base64 (" + e.getMessage() + ")", e);
    }
  }

  private static BigDecimal number(Object o) {
    if (o instanceof BigDecimal d) {
      return d;
    }
    if (o instanceof String s) {
      try {
        return new BigDecimal(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + s + "' is not a decimal number");
      }
    }
    throw new IllegalArgumentException("expected a number, got " + o);
  }
}
