package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.query.Condition;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A condition as a reader of an error message would write it ({@code status = "open" and total >
 * 10}), instead of the records' nested {@code toString} ({@code Compare[attribute=status, op=EQ,
 * value=StringValue[value=open]]}). For messages only; nothing parses it. Stateless.
 */
public final class ConditionText {
  private ConditionText() {}

  /** The condition in words and operators. */
  public static String of(Condition c) {
    if (c instanceof Condition.Exists e) {
      return e.attribute() + " exists";
    }
    if (c instanceof Condition.NotExists n) {
      return n.attribute() + " does not exist";
    }
    if (c instanceof Condition.Compare k) {
      return k.attribute() + " " + symbol(k.op()) + " " + value(k.value());
    }
    if (c instanceof Condition.Between b) {
      return b.attribute() + " between " + value(b.low()) + " and " + value(b.high());
    }
    if (c instanceof Condition.BeginsWith b) {
      return b.attribute() + " begins with " + value(b.prefix());
    }
    if (c instanceof Condition.Contains k) {
      return k.attribute() + " contains " + value(k.element());
    }
    if (c instanceof Condition.And a) {
      return joined(a.conditions(), " and ");
    }
    if (c instanceof Condition.Or o) {
      return joined(o.conditions(), " or ");
    }
    return "not (" + of(((Condition.Not) c).condition()) + ")";
  }

  private static String joined(List<Condition> conditions, String operator) {
    return conditions.stream()
        .map(
            c ->
                conditions.size() > 1 && (c instanceof Condition.And || c instanceof Condition.Or)
                    ? "(" + of(c) + ")"
                    : of(c))
        .collect(Collectors.joining(operator));
  }

  private static String symbol(Condition.Op op) {
    switch (op) {
      case EQ:
        return "=";
      case NE:
        return "<>";
      case LT:
        return "<";
      case LE:
        return "<=";
      case GT:
        return ">";
      default:
        return ">=";
    }
  }

  private static String value(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return '"' + s.value() + '"';
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return n.value().toPlainString();
    }
    if (v instanceof AttributeValue.BooleanValue b) {
      return String.valueOf(b.value());
    }
    if (v instanceof AttributeValue.NullValue) {
      return "null";
    }
    return v.type() + " " + v;
  }
}
