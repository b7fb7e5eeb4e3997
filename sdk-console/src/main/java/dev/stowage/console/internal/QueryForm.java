package dev.stowage.console.internal;

import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The query form of the item browser turned into a {@link Query}: partition, sort condition, index,
 * order, page size, one filter and a projection.
 *
 * <p>Values are typed as JSON ({@code 42}, {@code "42"}, {@code {"$b": "…"}}, an array for a
 * multi-column tuple); text that is not JSON is a string. For the table's own keys a value is
 * converted to the declared key type, so {@code 42} is the string "42" for a string key.
 */
final class QueryForm {
  private QueryForm() {}

  /**
   * Builds the query from the form's fields.
   *
   * @param field the form's value of a field, or null when empty
   * @throws IllegalArgumentException with a message for the browser when a field is invalid
   */
  static Query build(TableSpec spec, Function<String, String> field) {
    String index = field.apply("index");
    String partition = field.apply("partition");
    if (partition == null) {
      throw new IllegalArgumentException("give a partition value");
    }
    KeySchema ks = spec.keySchema();
    boolean primary = index == null;
    if (!primary && spec.index(index).isEmpty()) {
      throw new IllegalArgumentException("no index " + index);
    }
    AttributeType pType = primary ? ks.partitionType() : null;
    AttributeType sType = primary ? ks.sortType().orElse(null) : null;
    KeyValue[] p = tuple(partition, pType).toArray(KeyValue[]::new);
    Query.Builder b = primary ? Query.partition(p) : Query.index(index).partition(p);
    String op = field.apply("sortOp");
    String sort = field.apply("sort");
    if (op != null && sort != null) {
      KeyValue[] v = tuple(sort, sType).toArray(KeyValue[]::new);
      b.sort(
          switch (op.toLowerCase(Locale.ROOT)) {
            case "eq" -> SortCondition.eq(v);
            case "lt" -> SortCondition.lt(v);
            case "le" -> SortCondition.le(v);
            case "gt" -> SortCondition.gt(v);
            case "ge" -> SortCondition.ge(v);
            case "begins" -> SortCondition.beginsWith(v);
            case "between" -> {
              String high = field.apply("sortHigh");
              if (high == null) {
                throw new IllegalArgumentException("between needs a high bound");
              }
              yield SortCondition.between(Arrays.asList(v), tuple(high, sType));
            }
            default -> throw new IllegalArgumentException("unknown sort operator " + op);
          });
    }
    b.descending("true".equals(field.apply("desc")));
    String limit = field.apply("limit");
    b.limit(limit == null ? 10 : Integer.parseInt(limit));
    String filterAttr = field.apply("filterAttr");
    if (filterAttr != null) {
      b.filter(filter(filterAttr, field.apply("filterOp"), field.apply("filterValue")));
    }
    return b.build();
  }

  /** The projection the form asks for (comma-separated names), or an empty list for all. */
  static List<String> projection(Function<String, String> field) {
    String p = field.apply("projection");
    if (p == null) {
      return List.of();
    }
    return Arrays.stream(p.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  private static Condition filter(String attr, String op, String valueText) {
    String o = op == null ? "eq" : op.toLowerCase(Locale.ROOT);
    if (o.equals("exists")) {
      return Condition.exists(attr);
    }
    if (o.equals("notexists")) {
      return Condition.notExists(attr);
    }
    if (valueText == null) {
      throw new IllegalArgumentException("the filter needs a value");
    }
    AttributeValue v = value(valueText);
    return switch (o) {
      case "eq" -> Condition.eq(attr, v);
      case "ne" -> Condition.ne(attr, v);
      case "lt" -> Condition.lt(attr, keyValue(v));
      case "le" -> Condition.le(attr, keyValue(v));
      case "gt" -> Condition.gt(attr, keyValue(v));
      case "ge" -> Condition.ge(attr, keyValue(v));
      case "begins" -> Condition.beginsWith(attr, keyValue(v));
      case "contains" -> Condition.contains(attr, v);
      default -> throw new IllegalArgumentException("unknown filter operator " + op);
    };
  }

  /** A value typed as JSON; text that is not JSON is a string. */
  static AttributeValue value(String text) {
    Object json;
    try {
      json = Json.parse(text);
    } catch (IllegalArgumentException e) {
      json = text;
    }
    return ItemJson.value(json, "value");
  }

  private static KeyValue keyValue(AttributeValue v) {
    if (v instanceof KeyValue k) {
      return k;
    }
    throw new IllegalArgumentException(
        "expected a string, number or binary value, not " + v.type());
  }

  private static List<KeyValue> tuple(String text, AttributeType first) {
    Object json;
    try {
      json = Json.parse(text);
    } catch (IllegalArgumentException e) {
      json = text;
    }
    List<KeyValue> out = new ArrayList<>();
    if (json instanceof List<?> l) {
      for (Object o : l) {
        out.add(keyValue(ItemJson.value(o, "value")));
      }
      return out;
    }
    if (first == AttributeType.STRING && !(json instanceof String) && !(json instanceof Map)) {
      json = text;
    } else if (first == AttributeType.NUMBER && json instanceof String s) {
      json = new BigDecimal(s.trim());
    }
    out.add(keyValue(ItemJson.value(json, "value")));
    return out;
  }
}
