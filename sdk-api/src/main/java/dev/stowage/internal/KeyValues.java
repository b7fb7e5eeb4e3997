package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.KeyValue;

/**
 * Tells key values apart by their classes. {@code v instanceof KeyValue} tests an interface, which
 * the JVM (before JDK 23) answers through a one-entry cache per class that every test of another
 * interface the class implements ({@link AttributeValue}, on every store into an array or cast of a
 * generic value) overwrites; on the write path that costs tens of nanoseconds per test. The three
 * key value classes are final records, and a test of a class is one comparison.
 */
public final class KeyValues {
  private KeyValues() {}

  /** {@code v} as a key value, or null if it is none (or null). */
  public static KeyValue asKey(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return s;
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return n;
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b;
    }
    return null;
  }
}
