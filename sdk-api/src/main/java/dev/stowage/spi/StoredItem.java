package dev.stowage.spi;

import dev.stowage.item.Item;
import java.util.Objects;

/**
 * An item as stored: all attributes including keys and Stowage's reserved ones, plus the driver's
 * concurrency token for the stored version.
 *
 * @param item the stored attributes
 * @param token an opaque version token (ETag, version counter, …) that changes on every write of
 *     the item; used with {@link Expectation.Token} for compare-and-set. Never null for an item a
 *     driver returns.
 */
public record StoredItem(Item item, String token) {
  public StoredItem {
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(token, "token");
  }
}
