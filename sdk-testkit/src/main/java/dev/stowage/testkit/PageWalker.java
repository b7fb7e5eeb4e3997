package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Walks a query's pages through their cursors and checks the page contract on the way: pages are
 * full except the last one, {@code hasBefore}/{@code hasAfter} tell the truth, and concatenating
 * the pages gives exactly the expected items in order — reading onward from the first page, and
 * reading back again from the last one.
 */
final class PageWalker {
  private final Table table;

  PageWalker(Table table) {
    this.table = table;
  }

  /**
   * Runs {@code query} and checks that walking onward (in the query's order) and then back gives
   * exactly {@code expected}, which is in the query's order.
   */
  void walkBothWays(Query query, List<Item> expected) {
    String what = query.toString();
    List<Page> onward =
        onward(table.query(query), query.descending(), expected.size() / query.limit() + 3);
    assertThat(concat(onward)).as("reading onward: %s", what).containsExactlyElementsOf(expected);
    checkFullPages(onward, query.limit(), what + " onward");
    Page first = onward.get(0);
    Page last = onward.get(onward.size() - 1);
    // At the start of the query nothing lies behind the first page (in the query's direction).
    assertThat(query.descending() ? first.hasAfter() : first.hasBefore())
        .as("first page has nothing behind it: %s", what)
        .isFalse();
    if (expected.isEmpty()) {
      return;
    }
    assertThat(last.size())
        .as("the last page of a non-empty result is not empty: %s", what)
        .isPositive();
    List<Page> back = new ArrayList<>();
    Page p = last;
    int guard = expected.size() / query.limit() + 3;
    while (behind(p, query.descending())) {
      p = table.page(behindCursor(p, query.descending()));
      assertThat(ahead(p, query.descending()))
          .as("a page read backwards has items ahead of it: %s", what)
          .isTrue();
      assertThat(p.size()).as("a page read backwards is not empty: %s", what).isPositive();
      back.add(p);
      assertThat(--guard).as("reading back terminates: %s", what).isPositive();
    }
    Collections.reverse(back);
    back.add(last);
    assertThat(concat(back)).as("reading back: %s", what).containsExactlyElementsOf(expected);
    for (int i = 1; i < back.size(); i++) {
      assertThat(back.get(i).size())
          .as("pages read backwards are full: %s", what)
          .isEqualTo(i == back.size() - 1 ? last.size() : query.limit());
    }
  }

  /** Follows the cursor leading onward (in the query's order) from {@code first} to the end. */
  List<Page> onward(Page first, boolean descending, int maxPages) {
    List<Page> pages = new ArrayList<>();
    pages.add(first);
    Page p = first;
    while (ahead(p, descending)) {
      assertThat(pages.size())
          .as("the walk terminates within %d pages", maxPages)
          .isLessThanOrEqualTo(maxPages);
      p = table.page(aheadCursor(p, descending));
      pages.add(p);
    }
    return pages;
  }

  static List<Item> concat(List<Page> pages) {
    List<Item> all = new ArrayList<>();
    pages.forEach(p -> all.addAll(p.items()));
    return all;
  }

  private static void checkFullPages(List<Page> pages, int limit, String what) {
    for (int i = 0; i < pages.size() - 1; i++) {
      assertThat(pages.get(i).size()).as("page %d is full: %s", i, what).isEqualTo(limit);
    }
    assertThat(pages.get(pages.size() - 1).size()).isLessThanOrEqualTo(limit);
  }

  /** True if items lie beyond the page in the query's own order. */
  static boolean ahead(Page p, boolean descending) {
    return descending ? p.hasBefore() : p.hasAfter();
  }

  static boolean behind(Page p, boolean descending) {
    return descending ? p.hasAfter() : p.hasBefore();
  }

  static String aheadCursor(Page p, boolean descending) {
    return (descending ? p.before() : p.after())
        .orElseThrow(() -> new AssertionError("no cursor onward on " + p));
  }

  static String behindCursor(Page p, boolean descending) {
    return (descending ? p.after() : p.before())
        .orElseThrow(() -> new AssertionError("no cursor back on " + p));
  }
}
