package dev.stowage.item;

/** The closed set of attribute value types; every backend stores each of them exactly. */
public enum AttributeType {
  /** A string of valid Unicode ({@link AttributeValue.StringValue}); a key type. */
  STRING,
  /**
   * An exact decimal of at most 38 significant digits ({@link AttributeValue.NumberValue}); a key
   * type.
   */
  NUMBER,
  /** Bytes, compared unsigned ({@link AttributeValue.BinaryValue}); a key type. */
  BINARY,
  /** {@code true} or {@code false} ({@link AttributeValue.BooleanValue}). */
  BOOLEAN,
  /**
   * The null value, an attribute that is present without a value ({@link
   * AttributeValue.NullValue}).
   */
  NULL,
  /** An ordered list of values of any types ({@link AttributeValue.ListValue}). */
  LIST,
  /** Values by string name ({@link AttributeValue.MapValue}). */
  MAP,
  /** A non-empty set of distinct strings ({@link AttributeValue.StringSetValue}). */
  STRING_SET,
  /** A non-empty set of distinct numbers ({@link AttributeValue.NumberSetValue}). */
  NUMBER_SET,
  /** A non-empty set of distinct byte strings ({@link AttributeValue.BinarySetValue}). */
  BINARY_SET;

  /** True for the types a key attribute may have (string, number, binary). */
  public boolean isKeyType() {
    return this == STRING || this == NUMBER || this == BINARY;
  }
}
