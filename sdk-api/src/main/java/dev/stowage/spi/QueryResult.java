package dev.stowage.spi;

import java.util.List;

/**
 * Items a driver returned for a query or scan.
 *
 * @param items the items in order
 * @param more false only if the driver knows nothing follows the last item
 */
public record QueryResult(List<StoredItem> items, boolean more) {
  public QueryResult {
    items = List.copyOf(items);
  }
}
