package dev.stowage.azure.internal;

import dev.stowage.item.Item;
import dev.stowage.spi.StoredItem;
import java.util.Map;

/**
 * A stored item as read from its entity.
 *
 * @param item the item
 * @param etag the entity's ETag (the Stowage token)
 * @param nonce the item's version nonce, or null on tables without indexes
 * @param properties the entity's properties as read (the template of a write replacing it, which
 *     keeps their EDM types)
 */
public record Row(Item item, String etag, String nonce, Map<String, Object> properties) {
  /** As the SPI's stored item. */
  public StoredItem stored() {
    return new StoredItem(item, etag);
  }
}
