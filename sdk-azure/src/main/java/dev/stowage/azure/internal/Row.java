package dev.stowage.azure.internal;

import dev.stowage.item.Item;
import dev.stowage.spi.StoredItem;

/**
 * A stored item as read from its entity.
 *
 * @param item the item
 * @param etag the entity's ETag (the Stowage token)
 * @param nonce the item's version nonce, or null on tables without indexes
 */
public record Row(Item item, String etag, String nonce) {
  /** As the SPI's stored item. */
  public StoredItem stored() {
    return new StoredItem(item, etag);
  }
}
