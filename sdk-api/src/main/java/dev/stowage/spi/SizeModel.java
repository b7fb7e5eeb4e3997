package dev.stowage.spi;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;

/**
 * How a backend counts the bytes of an item, so the core can decide before writing whether an item
 * fits or must overflow. Implementations must never under-count: an item the model accepts must be
 * accepted by the backend.
 *
 * <p>An attribute never counts more by {@link #attributeBytes} than the whole item holding it does
 * by {@link #itemBytes} (the item holds the attribute's name and value): the core relies on it to
 * skip counting the attributes of an item that is within the per-attribute limit as a whole.
 */
public interface SizeModel {
  /**
   * Bytes of one attribute (name and value) as the backend counts it against {@link
   * DriverLimits#maxAttributeBytes}.
   */
  long attributeBytes(String name, AttributeValue value);

  /**
   * An upper bound of the bytes one attribute adds to {@link #itemBytes}, by which the core orders
   * and counts the attributes it moves to a blob store. Defaults to {@link #attributeBytes}, which
   * is that bound when an item counts as the sum of its attributes; a model whose per-attribute
   * limit counts less than the attribute's share of the item (a backend limiting property values
   * alone) overrides it.
   */
  default long itemShareBytes(String name, AttributeValue value) {
    return attributeBytes(name, value);
  }

  /** Bytes of a whole stored item, including any per-item overhead the backend adds. */
  long itemBytes(Item item);
}
