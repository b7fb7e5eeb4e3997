package dev.stowage.typed;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;

/**
 * Converts values of one application type to a stored {@link AttributeValue} and back. Register one
 * with {@link TypedSchema.Builder#converter} or on a field with {@link Convert}; it then takes
 * precedence over the built-in mapping of that type.
 *
 * <p>Implementations must be thread-safe and stateless, and {@code fromAttribute(toAttribute(x))}
 * must equal {@code x}. Neither method is called with {@code null}: absent values are handled by
 * the mapper. To use the type as a key or index column, store a string, number or binary value. A
 * converter signals a stored value it cannot read by throwing {@link IllegalArgumentException}; the
 * mapper adds the item's key and attribute to the message.
 *
 * @param <T> the application type
 */
public interface AttributeConverter<T> {
  /** The stored form of a non-null value. */
  AttributeValue toAttribute(T value);

  /**
   * The value of a stored form (never {@link AttributeValue.NullValue}).
   *
   * @throws IllegalArgumentException if the stored value does not fit
   */
  T fromAttribute(AttributeValue stored);

  /**
   * The type of every value {@link #toAttribute} returns, or null if it varies. A converted field
   * can be a key or index column only if this is {@code STRING}, {@code NUMBER} or {@code BINARY};
   * a set of converted values is stored as a native set when it is one of those. Default null.
   */
  default AttributeType storedType() {
    return null;
  }
}
