package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverLimits;
import java.nio.charset.StandardCharsets;

/** Validates keys against a table's schema and the backend's key size limits. Thread-safe. */
final class KeyRules {
  private final KeySchema schema;
  private final DriverLimits limits;
  private final String sortName;

  KeyRules(KeySchema schema, DriverLimits limits) {
    this.schema = schema;
    this.limits = limits;
    this.sortName = schema.sortName().orElse(null);
  }

  /**
   * Checks a key.
   *
   * @throws InvalidRequestException on a type mismatch or an oversized component
   */
  Key validate(Key key) {
    schema.validate(key);
    checkSize(key.partition(), schema.partitionName(), limits.maxPartitionKeyBytes());
    if (key.sortOrNull() != null) {
      checkSize(key.sortOrNull(), sortName, limits.maxSortKeyBytes());
    }
    return key;
  }

  private static void checkSize(KeyValue v, String name, int max) {
    if (v instanceof AttributeValue.StringValue s
        && !s.value().isEmpty()
        && 3L * s.value().length() <= max) {
      // UTF-8 takes at most 3 bytes per UTF-16 char: no need to encode the string to know.
      return;
    }
    int size = bytes(v);
    if (size > max) {
      throw new InvalidRequestException(
          "key attribute '" + name + "' is " + size + " bytes; this backend allows at most " + max);
    }
    if (size == 0 && !(v instanceof AttributeValue.NumberValue)) {
      throw new InvalidRequestException("key attribute '" + name + "' must not be empty");
    }
  }

  static int bytes(KeyValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8).length;
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    return 21; // DynamoDB's bound for a 38-digit number
  }

  /** An item holding only the key attributes. */
  Item keyItem(Key key) {
    Item.Builder b = Item.builder().put(schema.partitionName(), key.partition());
    if (key.sortOrNull() != null) {
      b.put(schema.sortName().orElseThrow(), key.sortOrNull());
    }
    return b.build();
  }
}
