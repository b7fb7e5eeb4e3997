package dev.stowage.spi;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;

/**
 * How a backend counts the bytes of an item, so the core can decide before writing whether an item
 * fits or must overflow. Implementations must never under-count: an item the model accepts must be
 * accepted by the backend.
 */
public interface SizeModel {
  /** Bytes of one attribute (name and value) as the backend counts it. */
  long attributeBytes(String name, AttributeValue value);

  /** Bytes of a whole stored item, including any per-item overhead the backend adds. */
  long itemBytes(Item item);
}
