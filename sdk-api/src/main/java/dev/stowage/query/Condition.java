package dev.stowage.query;

import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import java.util.List;
import java.util.Objects;

/**
 * A condition on one item's attributes, used for conditional writes and query filters. The same
 * condition evaluates identically on every backend: natively where the backend can (DynamoDB
 * condition expressions), otherwise in Stowage's core.
 *
 * <p>Semantics follow DynamoDB's: an ordered comparison ({@code lt}, {@code le}, {@code gt}, {@code
 * ge}, {@code between}) is true only when the attribute exists and has the operand's type; equality
 * compares any types structurally. Conditions on encrypted attributes are rejected with {@link
 * dev.stowage.InvalidRequestException} (randomized ciphertext cannot be compared). Immutable and
 * thread-safe.
 */
public sealed interface Condition
    permits Condition.Exists,
        Condition.NotExists,
        Condition.Compare,
        Condition.Between,
        Condition.BeginsWith,
        Condition.Contains,
        Condition.And,
        Condition.Or,
        Condition.Not {

  /** Comparison operators. */
  enum Op {
    /** Equal: any types, compared structurally. */
    EQ,
    /** Not equal; true when the attribute is absent. */
    NE,
    /** Less than; only an attribute of the operand's type. */
    LT,
    /** Less than or equal; only an attribute of the operand's type. */
    LE,
    /** Greater than; only an attribute of the operand's type. */
    GT,
    /** Greater than or equal; only an attribute of the operand's type. */
    GE
  }

  /** The attribute exists. */
  static Condition exists(String attribute) {
    return new Exists(attribute);
  }

  /** The attribute does not exist. */
  static Condition notExists(String attribute) {
    return new NotExists(attribute);
  }

  /** attribute == value. */
  static Condition eq(String attribute, AttributeValue value) {
    return new Compare(attribute, Op.EQ, value);
  }

  /** attribute == value. */
  static Condition eq(String attribute, String value) {
    return eq(attribute, AttributeValue.of(value));
  }

  /** attribute == value. */
  static Condition eq(String attribute, long value) {
    return eq(attribute, AttributeValue.of(value));
  }

  /** attribute != value (true when the attribute is absent). */
  static Condition ne(String attribute, AttributeValue value) {
    return new Compare(attribute, Op.NE, value);
  }

  /** attribute != value (true when the attribute is absent). */
  static Condition ne(String attribute, String value) {
    return ne(attribute, AttributeValue.of(value));
  }

  /** attribute != value (true when the attribute is absent). */
  static Condition ne(String attribute, long value) {
    return ne(attribute, AttributeValue.of(value));
  }

  /** attribute &lt; value. */
  static Condition lt(String attribute, KeyValue value) {
    return new Compare(attribute, Op.LT, value);
  }

  /** attribute &lt; value. */
  static Condition lt(String attribute, String value) {
    return lt(attribute, AttributeValue.of(value));
  }

  /** attribute &lt; value. */
  static Condition lt(String attribute, long value) {
    return lt(attribute, AttributeValue.of(value));
  }

  /** attribute &lt;= value. */
  static Condition le(String attribute, KeyValue value) {
    return new Compare(attribute, Op.LE, value);
  }

  /** attribute &lt;= value. */
  static Condition le(String attribute, String value) {
    return le(attribute, AttributeValue.of(value));
  }

  /** attribute &lt;= value. */
  static Condition le(String attribute, long value) {
    return le(attribute, AttributeValue.of(value));
  }

  /** attribute &gt; value. */
  static Condition gt(String attribute, KeyValue value) {
    return new Compare(attribute, Op.GT, value);
  }

  /** attribute &gt; value. */
  static Condition gt(String attribute, String value) {
    return gt(attribute, AttributeValue.of(value));
  }

  /** attribute &gt; value. */
  static Condition gt(String attribute, long value) {
    return gt(attribute, AttributeValue.of(value));
  }

  /** attribute &gt;= value. */
  static Condition ge(String attribute, KeyValue value) {
    return new Compare(attribute, Op.GE, value);
  }

  /** attribute &gt;= value. */
  static Condition ge(String attribute, String value) {
    return ge(attribute, AttributeValue.of(value));
  }

  /** attribute &gt;= value. */
  static Condition ge(String attribute, long value) {
    return ge(attribute, AttributeValue.of(value));
  }

  /** low &lt;= attribute &lt;= high. */
  static Condition between(String attribute, KeyValue low, KeyValue high) {
    return new Between(attribute, low, high);
  }

  /** The string or binary attribute starts with the prefix. */
  static Condition beginsWith(String attribute, KeyValue prefix) {
    return new BeginsWith(attribute, prefix);
  }

  /** The string attribute contains the substring, or the set or list contains the element. */
  static Condition contains(String attribute, AttributeValue element) {
    return new Contains(attribute, element);
  }

  /** All of the conditions hold. */
  static Condition and(Condition... conditions) {
    return new And(List.of(conditions));
  }

  /** At least one of the conditions holds. */
  static Condition or(Condition... conditions) {
    return new Or(List.of(conditions));
  }

  /** The condition does not hold. */
  static Condition not(Condition condition) {
    return new Not(condition);
  }

  /** This condition and another. */
  default Condition and(Condition other) {
    return new And(List.of(this, other));
  }

  /** This condition or another. */
  default Condition or(Condition other) {
    return new Or(List.of(this, other));
  }

  /** The attribute exists. @param attribute a valid attribute name */
  record Exists(String attribute) implements Condition {
    public Exists {
      AttributeNames.validateSyntax(attribute);
    }
  }

  /** The attribute does not exist. */
  record NotExists(String attribute) implements Condition {
    public NotExists {
      AttributeNames.validateSyntax(attribute);
    }
  }

  /**
   * Compares an attribute with a value. Ordered operators take a string, number or binary operand.
   */
  record Compare(String attribute, Op op, AttributeValue value) implements Condition {
    public Compare {
      AttributeNames.validateSyntax(attribute);
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(value, "value");
      if (op != Op.EQ && op != Op.NE && !(value instanceof KeyValue)) {
        throw new IllegalArgumentException(
            "ordered comparison "
                + op
                + " on '"
                + attribute
                + "' needs a string, number or binary"
                + " operand, not "
                + value.type());
      }
    }
  }

  /** low &lt;= attribute &lt;= high, operands of one scalar type. */
  record Between(String attribute, KeyValue low, KeyValue high) implements Condition {
    public Between {
      AttributeNames.validateSyntax(attribute);
      if (low.type() != high.type()) {
        throw new IllegalArgumentException(
            "between on '"
                + attribute
                + "' needs bounds of one type, got "
                + low.type()
                + " and "
                + high.type());
      }
      if (KeyValue.compare(low, high) > 0) {
        throw new IllegalArgumentException(
            "between on '" + attribute + "': low bound exceeds high bound");
      }
    }
  }

  /** A string or binary attribute starts with the prefix. */
  record BeginsWith(String attribute, KeyValue prefix) implements Condition {
    public BeginsWith {
      AttributeNames.validateSyntax(attribute);
      if (prefix instanceof AttributeValue.NumberValue) {
        throw new IllegalArgumentException(
            "begins-with on '" + attribute + "' needs a string or binary prefix, not a number");
      }
    }
  }

  /** A string contains a substring, or a set or list contains an element. */
  record Contains(String attribute, AttributeValue element) implements Condition {
    public Contains {
      AttributeNames.validateSyntax(attribute);
      Objects.requireNonNull(element, "element");
    }
  }

  /** Conjunction; at least one condition. */
  record And(List<Condition> conditions) implements Condition {
    public And {
      conditions = List.copyOf(conditions);
      if (conditions.isEmpty()) {
        throw new IllegalArgumentException("and() needs at least one condition");
      }
    }
  }

  /** Disjunction; at least one condition. */
  record Or(List<Condition> conditions) implements Condition {
    public Or {
      conditions = List.copyOf(conditions);
      if (conditions.isEmpty()) {
        throw new IllegalArgumentException("or() needs at least one condition");
      }
    }
  }

  /** Negation. */
  record Not(Condition condition) implements Condition {
    public Not {
      Objects.requireNonNull(condition, "condition");
    }
  }
}
