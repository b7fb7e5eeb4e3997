package dev.stowage.typed;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.typed.internal.Mapper;
import dev.stowage.typed.internal.Property;

/**
 * Conditions on one field of a typed table's class, for conditional writes and query filters:
 * {@code orders.field("status").eq(Status.SHIPPED)}. Values are checked against the field's type
 * and converted as the field is stored, and the condition names the field's stored attribute.
 * Obtained from {@link TypedTable#field(String)}, which fails with {@link InvalidRequestException}
 * for a name the class does not store. Immutable and thread-safe.
 *
 * <p>The conditions mean what {@link Condition}'s do; ordered comparisons compare stored forms, so
 * they follow the field's order where docs/typed-items.md says the stored form keeps it.
 *
 * @param <T> the table's class
 */
public final class TypedField<T> {
  private final Mapper<T> mapper;
  private final Property property;

  TypedField(Mapper<T> mapper, Property property) {
    this.mapper = mapper;
    this.property = property;
  }

  /** The field's stored attribute name. */
  public String attribute() {
    return property.attribute();
  }

  /** The field has a value. */
  public Condition exists() {
    return Condition.exists(attribute());
  }

  /** The field has no value. */
  public Condition notExists() {
    return Condition.notExists(attribute());
  }

  /** The field equals the value. */
  public Condition eq(Object value) {
    return Condition.eq(attribute(), mapper.encode(property, value));
  }

  /** The field does not equal the value. */
  public Condition ne(Object value) {
    return Condition.ne(attribute(), mapper.encode(property, value));
  }

  /** The field is less than the value. */
  public Condition lt(Object value) {
    return Condition.lt(attribute(), key(value));
  }

  /** The field is less than or equal to the value. */
  public Condition le(Object value) {
    return Condition.le(attribute(), key(value));
  }

  /** The field is greater than the value. */
  public Condition gt(Object value) {
    return Condition.gt(attribute(), key(value));
  }

  /** The field is greater than or equal to the value. */
  public Condition ge(Object value) {
    return Condition.ge(attribute(), key(value));
  }

  /** The field is between low and high, both inclusive. */
  public Condition between(Object low, Object high) {
    return Condition.between(attribute(), key(low), key(high));
  }

  /**
   * The field's stored string (or binary) form starts with the prefix: a {@code String} (or {@code
   * byte[]}) for a field stored as a string (or binary) value.
   */
  public Condition beginsWith(Object prefix) {
    if (prefix instanceof String s && property.storedType() == AttributeType.STRING) {
      return Condition.beginsWith(attribute(), AttributeValue.of(s));
    }
    if (prefix instanceof byte[] b && property.storedType() == AttributeType.BINARY) {
      return Condition.beginsWith(attribute(), AttributeValue.of(b));
    }
    return Condition.beginsWith(attribute(), key(prefix));
  }

  /** The list or set field contains the element, or the string field contains the substring. */
  public Condition contains(Object element) {
    if (element instanceof String s && property.storedType() == AttributeType.STRING) {
      return Condition.contains(attribute(), AttributeValue.of(s));
    }
    try {
      return Condition.contains(
          attribute(), property.encodeElement(element, mapper.type().getSimpleName()));
    } catch (RuntimeException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
  }

  private KeyValue key(Object value) {
    if (value == null) {
      throw new InvalidRequestException("field '" + property.field() + "': the operand is null");
    }
    return mapper.keyValue(property, value);
  }

  @Override
  public String toString() {
    return "TypedField(" + property.field() + " -> " + attribute() + ")";
  }
}
