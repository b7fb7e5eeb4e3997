package dev.stowage.typed;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a typed query or scan: the items as instances of the table's class, and the same
 * sealed cursors as an untyped {@link dev.stowage.query.Page} (pass them to {@link
 * TypedTable#page(String)}, or to the untyped table's {@code page}). Immutable if the items are.
 *
 * @param items the page's items, in query order
 * @param before cursor for the items sorting before this page (absent for scans)
 * @param hasBefore true if items sorting before this page existed when it was read
 * @param after cursor for the items sorting after this page (absent for a finished scan)
 * @param hasAfter true if items sorting after this page existed when it was read
 * @param <T> the table's class
 */
public record TypedPage<T>(
    List<T> items,
    Optional<String> before,
    boolean hasBefore,
    Optional<String> after,
    boolean hasAfter) {
  public TypedPage {
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
