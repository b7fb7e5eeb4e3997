package dev.stowage.spi;

import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.util.Objects;

/**
 * A place in a query's order: an item's primary key and, for index queries, its index sort value.
 * Queries resume strictly after (in their direction) the position.
 *
 * @param key the item's primary key
 * @param indexSort the item's index sort value for index queries (the synthesized binary value, or
 *     the raw value of a native index's sort attribute), else null (also for a native index without
 *     sort attribute)
 */
public record Position(Key key, KeyValue indexSort) {
  public Position {
    Objects.requireNonNull(key, "key");
  }
}
