package dev.stowage.item;

/** The closed set of attribute value types; every backend stores each of them exactly. */
public enum AttributeType {
  STRING,
  NUMBER,
  BINARY,
  BOOLEAN,
  NULL,
  LIST,
  MAP,
  STRING_SET,
  NUMBER_SET,
  BINARY_SET;

  /** True for the types a key attribute may have (string, number, binary). */
  public boolean isKeyType() {
    return this == STRING || this == NUMBER || this == BINARY;
  }
}
