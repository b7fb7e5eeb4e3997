package dev.stowage.query;

import dev.stowage.internal.PageAccess;
import dev.stowage.item.Item;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

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
 * it unchanged to {@code Table.page(cursor)}. Pages read by Stowage seal a cursor when it is first
 * asked for (a page whose cursors are never used costs no sealing), and return the same string on
 * every later call; its expiry is counted from the read. Immutable and thread-safe; two pages are
 * equal if their items, cursors and flags are.
 */
public final class Page {
  static {
    PageAccess.install(Page::new);
  }

  private final List<Item> items;
  private final Cursor before;
  private final boolean hasBefore;
  private final Cursor after;
  private final boolean hasAfter;

  /**
   * A page.
   *
   * @param items the page's items, in query order; copied
   * @param before cursor for the items sorting before this page (absent for scans)
   * @param hasBefore true if items sorting before this page existed when it was read
   * @param after cursor for the items sorting after this page (absent for a finished scan)
   * @param hasAfter true if items sorting after this page existed when it was read
   * @throws NullPointerException if an argument or an item is null
   */
  public Page(
      List<Item> items,
      Optional<String> before,
      boolean hasBefore,
      Optional<String> after,
      boolean hasAfter) {
    this(
        items,
        Cursor.of(Objects.requireNonNull(before, "before")),
        hasBefore,
        Cursor.of(Objects.requireNonNull(after, "after")),
        hasAfter);
  }

  private Page(
      List<Item> items,
      Supplier<String> before,
      boolean hasBefore,
      Supplier<String> after,
      boolean hasAfter) {
    this(items, Cursor.lazy(before), hasBefore, Cursor.lazy(after), hasAfter);
  }

  private Page(List<Item> items, Cursor before, boolean hasBefore, Cursor after, boolean hasAfter) {
    this.items = List.copyOf(items);
    this.before = before;
    this.hasBefore = hasBefore;
    this.after = after;
    this.hasAfter = hasAfter;
  }

  /** The page's items, in query order; unmodifiable. */
  public List<Item> items() {
    return items;
  }

  /** The cursor for the items sorting before this page; absent for scans. */
  public Optional<String> before() {
    return before.get();
  }

  /** True if items sorting before this page existed when it was read. */
  public boolean hasBefore() {
    return hasBefore;
  }

  /** The cursor for the items sorting after this page; absent for a finished scan. */
  public Optional<String> after() {
    return after.get();
  }

  /** True if items sorting after this page existed when it was read. */
  public boolean hasAfter() {
    return hasAfter;
  }

  /** The number of items. */
  public int size() {
    return items.size();
  }

  /** True if the page has no items. */
  public boolean isEmpty() {
    return items.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Page p
        && items.equals(p.items)
        && hasBefore == p.hasBefore
        && hasAfter == p.hasAfter
        && before().equals(p.before())
        && after().equals(p.after());
  }

  @Override
  public int hashCode() {
    return Objects.hash(items, before(), hasBefore, after(), hasAfter);
  }

  @Override
  public String toString() {
    return "Page[items="
        + items
        + ", before="
        + before()
        + ", hasBefore="
        + hasBefore
        + ", after="
        + after()
        + ", hasAfter="
        + hasAfter
        + "]";
  }

  /**
   * A cursor sealed on first use: sealing encrypts with a random nonce, so the first result is kept
   * and every caller sees the same string.
   */
  private static final class Cursor {
    private static final Cursor ABSENT = new Cursor(null, Optional.empty());
    private Supplier<String> seal;
    private volatile Optional<String> value;

    private Cursor(Supplier<String> seal, Optional<String> value) {
      this.seal = seal;
      this.value = value;
    }

    static Cursor of(Optional<String> value) {
      return value.isEmpty() ? ABSENT : new Cursor(null, value);
    }

    static Cursor lazy(Supplier<String> seal) {
      return seal == null ? ABSENT : new Cursor(seal, null);
    }

    Optional<String> get() {
      Optional<String> v = value;
      if (v == null) {
        synchronized (this) {
          v = value;
          if (v == null) {
            v = Optional.of(Objects.requireNonNull(seal.get(), "sealed cursor"));
            value = v;
            seal = null;
          }
        }
      }
      return v;
    }
  }
}
