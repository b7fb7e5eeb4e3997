package dev.stowage.typed.internal;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;

/**
 * Converts one Java type to its stored {@link AttributeValue} and back. Built once per mapped type;
 * thread-safe. {@link #decode} throws {@link IllegalArgumentException} (or {@link
 * ArithmeticException}) for a stored value that does not fit, and the mapper adds the item's key
 * and attribute to the message.
 */
interface ValueCodec {
  /** The stored form of a non-null value. */
  AttributeValue encode(Object value);

  /** The value of a stored form other than {@code NullValue}. */
  Object decode(AttributeValue stored);

  /**
   * The type every encoded value has, or null where it varies (user converters, raw values):
   * decides whether a field can be a key or index column and which set type holds it.
   */
  AttributeType storedType();
}
