package dev.stowage.query;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import java.util.List;
import java.util.Objects;

/**
 * A condition on the sort part of a query: the table's sort key, or an index's sort attributes
 * taken as a tuple.
 *
 * <p>For a multi-column index sort, the operands are a tuple prefix: {@code eq(day)} on an index
 * sorted by {@code (day, id)} matches every entry of that day; {@code gt(day)} matches entries of
 * later days. {@code beginsWith} takes exact leading components followed by a string or binary
 * prefix of the next one. Immutable and thread-safe.
 *
 * @param op the operator
 * @param values the operand tuple (the low bound for {@code BETWEEN})
 * @param high the high bound tuple for {@code BETWEEN}, else empty
 */
public record SortCondition(Operator op, List<KeyValue> values, List<KeyValue> high) {

  /** Sort-condition operators. */
  public enum Operator {
    /** The sort tuple starts with these values. */
    EQ,
    /** Before the tuple. */
    LT,
    /** Before the tuple, or starting with it. */
    LE,
    /** After the tuple and everything starting with it. */
    GT,
    /** The tuple, everything starting with it, and after. */
    GE,
    /** From the low tuple to the high tuple, both inclusive. */
    BETWEEN,
    /** Exact leading components, then a string or binary prefix of the next one. */
    BEGINS_WITH
  }

  public SortCondition {
    Objects.requireNonNull(op, "op");
    values = List.copyOf(values);
    high = List.copyOf(high);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("sort condition " + op + " needs at least one value");
    }
    if ((op == Operator.BETWEEN) != !high.isEmpty()) {
      throw new IllegalArgumentException("only BETWEEN takes a high bound");
    }
    if (op == Operator.BEGINS_WITH
        && values.get(values.size() - 1) instanceof AttributeValue.NumberValue) {
      throw new IllegalArgumentException(
          "begins-with needs a string or binary prefix, not a number");
    }
  }

  /** Sort part equals (or, for a tuple prefix, starts with) the values. */
  public static SortCondition eq(KeyValue... tuple) {
    return new SortCondition(Operator.EQ, List.of(tuple), List.of());
  }

  /** Sort part less than the values. */
  public static SortCondition lt(KeyValue... tuple) {
    return new SortCondition(Operator.LT, List.of(tuple), List.of());
  }

  /** Sort part less than or equal to the values. */
  public static SortCondition le(KeyValue... tuple) {
    return new SortCondition(Operator.LE, List.of(tuple), List.of());
  }

  /** Sort part greater than the values. */
  public static SortCondition gt(KeyValue... tuple) {
    return new SortCondition(Operator.GT, List.of(tuple), List.of());
  }

  /** Sort part greater than or equal to the values. */
  public static SortCondition ge(KeyValue... tuple) {
    return new SortCondition(Operator.GE, List.of(tuple), List.of());
  }

  /** Sort part between low and high, both inclusive. */
  public static SortCondition between(KeyValue low, KeyValue high) {
    return new SortCondition(Operator.BETWEEN, List.of(low), List.of(high));
  }

  /** Sort tuple between the low and high tuples, both inclusive. */
  public static SortCondition between(List<KeyValue> low, List<KeyValue> high) {
    return new SortCondition(Operator.BETWEEN, low, high);
  }

  /** String sort key starts with the prefix. */
  public static SortCondition beginsWith(String prefix) {
    return new SortCondition(Operator.BEGINS_WITH, List.of(AttributeValue.of(prefix)), List.of());
  }

  /** Exact leading components, then a string or binary prefix of the next component. */
  public static SortCondition beginsWith(KeyValue... tuple) {
    return new SortCondition(Operator.BEGINS_WITH, List.of(tuple), List.of());
  }
}
