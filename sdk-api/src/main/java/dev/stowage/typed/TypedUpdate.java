package dev.stowage.typed;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.query.Update;
import dev.stowage.typed.internal.Mapper;
import dev.stowage.typed.internal.Property;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds an {@link Update} by field name: {@code orders.update().set("status", SHIPPED).build()}.
 * Every field is checked against the class (it must be stored and not a key field) and every value
 * against the field's type, failing with {@link InvalidRequestException} naming the field. Obtained
 * from {@link TypedTable#update()}; not thread-safe.
 *
 * @param <T> the table's class
 */
public final class TypedUpdate<T> {
  private final Mapper<T> mapper;
  private final Update.Builder b = Update.builder();

  TypedUpdate(Mapper<T> mapper) {
    this.mapper = mapper;
  }

  private Property field(String name) {
    Property p = mapper.field(name);
    if (mapper.isKey(p)) {
      throw new InvalidRequestException(
          "field '"
              + name
              + "' of "
              + mapper.type().getSimpleName()
              + " is a key and cannot be updated");
    }
    return p;
  }

  /** Sets a field (null or an empty Optional: removes it). */
  public TypedUpdate<T> set(String field, Object value) {
    Property p = field(field);
    AttributeValue v = mapper.encode(p, value);
    if (v instanceof AttributeValue.NullValue && !(value instanceof AttributeValue)) {
      return remove(field);
    }
    b.set(p.attribute(), v);
    return this;
  }

  /** Removes a field's value. */
  public TypedUpdate<T> remove(String field) {
    b.remove(field(field).attribute());
    return this;
  }

  /** Adds {@code delta} to a numeric field (absent counts as zero). */
  public TypedUpdate<T> increment(String field, long delta) {
    return increment(field, BigDecimal.valueOf(delta));
  }

  /** Adds {@code delta} to a numeric field (absent counts as zero). */
  public TypedUpdate<T> increment(String field, BigDecimal delta) {
    Property p = field(field);
    Class<?> t = p.valueType();
    if (!(Number.class.isAssignableFrom(t)) || t == BigInteger.class && delta.scale() > 0) {
      throw new InvalidRequestException(
          "field '" + field + "' of " + mapper.type().getSimpleName() + " is not a number field");
    }
    b.increment(p.attribute(), delta);
    return this;
  }

  /** Appends elements to a list field. */
  public TypedUpdate<T> appendToList(String field, Object... elements) {
    Property p = field(field);
    AttributeValue[] values = new AttributeValue[elements.length];
    for (int i = 0; i < elements.length; i++) {
      values[i] = element(p, elements[i]);
    }
    b.appendToList(p.attribute(), values);
    return this;
  }

  /** Adds elements to a set field of strings, numbers or binary values. */
  public TypedUpdate<T> addToSet(String field, Object... elements) {
    Property p = field(field);
    b.addToSet(p.attribute(), set(p, elements));
    return this;
  }

  /** Removes elements from a set field. */
  public TypedUpdate<T> removeFromSet(String field, Object... elements) {
    Property p = field(field);
    b.removeFromSet(p.attribute(), set(p, elements));
    return this;
  }

  private AttributeValue element(Property p, Object e) {
    try {
      return p.encodeElement(e, mapper.type().getSimpleName());
    } catch (RuntimeException x) {
      throw new InvalidRequestException(x.getMessage(), x);
    }
  }

  private AttributeValue set(Property p, Object[] elements) {
    List<AttributeValue> values = new ArrayList<>();
    for (Object e : elements) {
      values.add(element(p, e));
    }
    try {
      if (values.stream().allMatch(v -> v instanceof AttributeValue.StringValue)) {
        return AttributeValue.stringSet(
            values.stream().map(v -> ((AttributeValue.StringValue) v).value()).toList());
      }
      if (values.stream().allMatch(v -> v instanceof AttributeValue.NumberValue)) {
        return AttributeValue.numberSet(
            values.stream().map(v -> ((AttributeValue.NumberValue) v).value()).toList());
      }
      if (values.stream().allMatch(v -> v instanceof AttributeValue.BinaryValue)) {
        List<Bytes> bytes =
            values.stream().map(v -> ((AttributeValue.BinaryValue) v).value()).toList();
        return AttributeValue.binarySet(bytes);
      }
    } catch (IllegalArgumentException x) {
      throw new InvalidRequestException(x.getMessage(), x);
    }
    throw new InvalidRequestException(
        "field '"
            + p.field()
            + "' of "
            + mapper.type().getSimpleName()
            + " is not a set of strings, numbers or binary values");
  }

  /** The update. @throws IllegalArgumentException if it has no action */
  public Update build() {
    return b.build();
  }
}
