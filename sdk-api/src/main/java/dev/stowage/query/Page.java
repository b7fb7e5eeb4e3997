package dev.stowage.query;

import dev.stowage.item.Item;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of query or scan results, with opaque cursors for the neighbouring pages.
 *
 * <p>Cursors are named by sort order, not by reading direction, as in a timeline: {@link #before()}
 * leads to items that sort before this page's items (older entries of a time-ordered feed) and
 * {@link #after()} to items that sort after them (newer ones). Items are always in the query's own
 * order. At the head of a feed {@link #hasAfter()} is false but {@link #after()} is still present,
 * so a client can poll it for items that arrive later. Scan pages have only an {@code after}
 * cursor.
 *
 * <p>A cursor is sealed (encrypted and authenticated), carries the whole query, and expires; pass
 * it unchanged to {@code Table.page(cursor)}. Immutable and thread-safe.
 *
 * @param items the page's items, in query order
 * @param before cursor for the items sorting before this page (absent for scans)
 * @param hasBefore true if items sorting before this page existed when it was read
 * @param after cursor for the items sorting after this page (absent for a finished scan)
 * @param hasAfter true if items sorting after this page existed when it was read
 */
public record Page(
    List<Item> items,
    Optional<String> before,
    boolean hasBefore,
    Optional<String> after,
    boolean hasAfter) {
  public Page {
    items = List.copyOf(items);
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
  }

  /** The number of items. */
  public int size() {
    return items.size();
  }

  /** True if the page has no items. */
  public boolean isEmpty() {
    return items.isEmpty();
  }
}
