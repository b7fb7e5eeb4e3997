package dev.stowage.item;

/**
 * A value that may form part of a key: a string, a number or a binary value.
 *
 * <p>Key values are totally ordered within a type: strings by UTF-8 bytes, numbers numerically,
 * binary values as unsigned bytes. Every driver honours this order for sort keys.
 */
public sealed interface KeyValue extends AttributeValue
    permits AttributeValue.StringValue, AttributeValue.NumberValue, AttributeValue.BinaryValue {

  /**
   * Compares two key values of the same type in Stowage's key order.
   *
   * @throws IllegalArgumentException if the types differ
   */
  static int compare(KeyValue a, KeyValue b) {
    if (a instanceof StringValue sa && b instanceof StringValue sb) {
      return Utf8Order.compare(sa.value(), sb.value());
    }
    if (a instanceof NumberValue na && b instanceof NumberValue nb) {
      return na.value().compareTo(nb.value());
    }
    if (a instanceof BinaryValue ba && b instanceof BinaryValue bb) {
      return ba.value().compareTo(bb.value());
    }
    throw new IllegalArgumentException(
        "cannot compare key values of different types: " + a.type() + " and " + b.type());
  }
}
