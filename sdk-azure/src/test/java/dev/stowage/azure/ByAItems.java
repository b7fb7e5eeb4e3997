package dev.stowage.azure;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.StoredItems;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stored items of the index tests' tables (key {@code pk}/{@code sk}, index {@code byA} on {@code
 * a} and {@code b}), as the core hands them to the driver: with the index's synthesized partition
 * and sort attributes.
 */
final class ByAItems {
  private ByAItems() {}

  /** The tables' key: {@code pk} (string) and {@code sk} (number). */
  static final KeySchema SCHEMA =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);

  /** The tables' index: {@code byA}, partitioned by {@code a}, sorted by {@code b}. */
  static final IndexSpec BY_A = IndexSpec.of("byA", List.of("a"), List.of("b"));

  static Item item(String pk, long sk, String a, String b) {
    return item(pk, sk, a, b, null);
  }

  /** The same with a string attribute {@code payload}, unless {@code payload} is null. */
  static Item item(String pk, long sk, String a, String b, String payload) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("pk", AttributeValue.of(pk));
    m.put("sk", AttributeValue.of(sk));
    m.put("a", AttributeValue.of(a));
    m.put("b", AttributeValue.of(b));
    if (payload != null) {
      m.put("payload", AttributeValue.of(payload));
    }
    m.put("stowage:ix:byA:p", AttributeValue.of(a.getBytes(StandardCharsets.UTF_8)));
    m.put("stowage:ix:byA:s", AttributeValue.of(b.getBytes(StandardCharsets.UTF_8)));
    return StoredItems.of(m);
  }

  /** A binary key value of the UTF-8 bytes of {@code s}, as the index's synthesized values are. */
  static KeyValue bin(String s) {
    return AttributeValue.of(s.getBytes(StandardCharsets.UTF_8));
  }
}
