package dev.stowage.spi;

import dev.stowage.item.Key;
import java.util.List;

/**
 * The result of one batch-get call.
 *
 * @param items the items found (any order)
 * @param unprocessed keys the backend did not get to; the core retries them with backoff
 */
public record BatchGetResult(List<StoredItem> items, List<Key> unprocessed) {
  public BatchGetResult {
    items = List.copyOf(items);
    unprocessed = List.copyOf(unprocessed);
  }
}
