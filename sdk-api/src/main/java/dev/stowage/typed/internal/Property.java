package dev.stowage.typed.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.item.AttributeValue;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One mapped field: its stored attribute name (and earlier names), its codec, how to read it from
 * an instance, and where its value goes when an instance is built. Immutable.
 *
 * @param field the Java field's name
 * @param attribute the stored attribute name
 * @param aliases earlier attribute names, tried in order on reading
 * @param valueType the field's type, or for an {@code Optional} field the type it holds, boxed
 * @param optional true for an {@code Optional} field
 * @param codec the field's (or the Optional content's) codec
 * @param getter reads the field from an instance
 * @param slot the index of the field's value among the instantiator's arguments
 * @param absent the value a field takes when its attribute is absent
 * @param policy the attribute's compression and encryption
 * @param javaField the field itself, for its annotations
 */
public record Property(
    String field,
    String attribute,
    List<String> aliases,
    Class<?> valueType,
    boolean optional,
    ValueCodec codec,
    Function<Object, Object> getter,
    int slot,
    Object absent,
    AttributePolicy policy,
    Field javaField) {

  /** The stored form of this property of {@code instance}, or null if it has no value. */
  AttributeValue read(Object instance) {
    Object v = getter.apply(instance);
    if (optional) {
      if (v == null) {
        return null;
      }
      v = ((Optional<?>) v).orElse(null);
    }
    return v == null ? null : codec.encode(v);
  }

  /** The field value for a stored form (null or NullValue: the absent value). */
  Object write(AttributeValue stored) {
    if (stored == null || stored instanceof AttributeValue.NullValue) {
      return absent;
    }
    Object v = codec.decode(stored);
    return optional ? Optional.of(v) : v;
  }

  /**
   * The stored form of a value given for this field in a condition, update or query.
   *
   * @throws IllegalArgumentException if the value is not of the field's type
   */
  public AttributeValue encodeValue(Object value, String ownerName) {
    if (value == null) {
      return AttributeValue.nullValue();
    }
    if (value instanceof Optional<?> o && !valueType.isInstance(value)) {
      return encodeValue(o.orElse(null), ownerName);
    }
    if (!valueType.isInstance(value)) {
      throw new IllegalArgumentException(
          "field '"
              + field
              + "' of "
              + ownerName
              + " holds "
              + valueType.getName()
              + ", not "
              + value.getClass().getName());
    }
    return codec.encode(value);
  }

  /** The stored type of the field's values, or null where it varies. */
  public dev.stowage.item.AttributeType storedType() {
    return codec.storedType();
  }

  /** The stored form of one element of a collection field, for contains and set updates. */
  public AttributeValue encodeElement(Object element, String ownerName) {
    if (codec instanceof CollectionCodecs.ElementCodec e) {
      return e.element().encode(element);
    }
    throw new IllegalArgumentException(
        "field '" + field + "' of " + ownerName + " is not a list or set");
  }
}
