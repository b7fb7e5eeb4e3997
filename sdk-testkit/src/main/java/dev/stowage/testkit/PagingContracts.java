package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.pnSpec;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Cursor pagination: pages of any size walked in both directions give exactly the query's items,
 * also while items arrive, with filters and on indexes; the timeline walk-through of the pagination
 * article (figs. 3 and 4).
 */
abstract class PagingContracts extends Contract {

  static Item feedItem(long i) {
    return Item.builder().put("p", "feed").put("s", i).put("v", "item-" + i).build();
  }

  private List<Item> loadFeed(Table t, int n) {
    List<Item> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(feedItem(i));
    }
    t.batchPut(items);
    return items;
  }

  private static List<Item> reversed(List<Item> items) {
    List<Item> r = new ArrayList<>(items);
    Collections.reverse(r);
    return r;
  }

  @Test
  void pagesOfSizes1And7And100WalkBothWaysWithoutGapsOrDuplicates() {
    Table t = table(pnSpec("paging"));
    List<Item> all = loadFeed(t, scale().pagingItems());
    PageWalker walker = new PageWalker(t);
    for (int limit : new int[] {100, 7}) {
      Query q = Query.partition("feed").limit(limit).consistentRead(true).build();
      walker.walkBothWays(q, all);
      walker.walkBothWays(q.toBuilder().descending().build(), reversed(all));
    }
    int n1 = scale().pageSizeOneItems();
    Query.Builder one = Query.partition("feed").limit(1).consistentRead(true);
    if (n1 < all.size()) {
      one.sort(SortCondition.lt(num(n1)));
    }
    List<Item> firstN = all.subList(0, n1);
    walker.walkBothWays(one.build(), firstN);
    walker.walkBothWays(one.descending().build(), reversed(firstN));
  }

  @Test
  void descendingPagesNeedNoDeclarationInTheSpec() {
    Table t = table(Helpers.spec("pageundecl", AttributeType.STRING, AttributeType.NUMBER));
    List<Item> all = loadFeed(t, Math.min(scale().pagingItems(), 300));
    PageWalker walker = new PageWalker(t);
    for (int limit : new int[] {100, 7}) {
      Query q = Query.partition("feed").limit(limit).consistentRead(true).build();
      walker.walkBothWays(q.toBuilder().descending().build(), reversed(all));
    }
    Query range =
        Query.partition("feed")
            .sort(SortCondition.between(num(100), num(199)))
            .descending()
            .limit(7)
            .build();
    walker.walkBothWays(range, reversed(all.subList(100, 200)));
    Query below = Query.partition("feed").sort(SortCondition.lt(num(5))).descending().build();
    assertThat(t.queryAll(below).toList()).containsExactlyElementsOf(reversed(all.subList(0, 5)));
  }

  @Test
  void pagesWithinASortRangeStayInsideIt() {
    Table t = table(pnSpec("pagerange"));
    List<Item> all = loadFeed(t, 500);
    PageWalker walker = new PageWalker(t);
    Query q =
        Query.partition("feed").sort(SortCondition.between(num(100), num(199))).limit(7).build();
    walker.walkBothWays(q, all.subList(100, 200));
    walker.walkBothWays(q.toBuilder().descending().build(), reversed(all.subList(100, 200)));
    Query gt = Query.partition("feed").sort(SortCondition.gt(num(489))).limit(3).build();
    walker.walkBothWays(gt, all.subList(490, 500));
    walker.walkBothWays(gt.toBuilder().descending().build(), reversed(all.subList(490, 500)));
  }

  @Test
  void pagingStaysExactWhileNewItemsArriveAtTheHead() {
    Table t = table(pnSpec("pagelive"));
    int n = Math.min(scale().pagingItems(), 2_000);
    List<Item> originals = loadFeed(t, n);
    PageWalker walker = new PageWalker(t);
    Page newestFirst = t.query(Query.partition("feed").descending().limit(7).build());
    // Writers keep inserting at the head until both readers are done (or their quota is used),
    // so reading and inserting really overlap.
    CountDownLatch readersDone = new CountDownLatch(2);
    int writers = 2;
    int perWriter = 1_000;
    List<Callable<List<Item>>> tasks = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      final int writer = w;
      tasks.add(
          () -> {
            for (int k = 0; k < perWriter && readersDone.getCount() > 0; k++) {
              t.put(feedItem(n + (long) k * writers + writer));
            }
            return List.of();
          });
    }
    tasks.add(
        () -> {
          try {
            Page first = t.query(Query.partition("feed").limit(7).build());
            return PageWalker.concat(
                walker.onward(first, false, (n + writers * perWriter) / 7 + 3));
          } finally {
            readersDone.countDown();
          }
        });
    tasks.add(
        () -> {
          try {
            return PageWalker.concat(walker.onward(newestFirst, true, n / 7 + 3));
          } finally {
            readersDone.countDown();
          }
        });
    List<List<Item>> results = Helpers.runConcurrently(tasks);
    List<Item> ascending = results.get(writers);
    assertThat(ascending.subList(0, n))
        .as("every original item, in order, before any new one")
        .containsExactlyElementsOf(originals);
    List<Item> fresh = ascending.subList(n, ascending.size());
    Set<Item> seen = new HashSet<>();
    long last = n - 1;
    for (Item i : fresh) {
      assertThat(seen.add(i)).as("new item %s appears once", i).isTrue();
      assertThat(i.getLong("s")).as("new items in order").isGreaterThan(last);
      last = i.getLong("s");
    }
    assertThat(results.get(writers + 1))
        .as("reading older items from a page taken before the inserts sees exactly the originals")
        .containsExactlyElementsOf(reversed(originals));
  }

  /** The walk-through of the pagination article's figs. 3 and 4: a timeline, newest first. */
  @Test
  void timelineWalkThroughOfFigures3And4() {
    Table t = table(pnSpec("timeline"));
    for (int i = 1; i <= 10; i++) {
      t.put(feedItem(i));
    }
    Query latest = Query.partition("feed").descending().limit(4).consistentRead(true).build();

    // fig. 3: paginate backward in time to fetch older data
    Page first = t.query(latest);
    assertThat(seq(first)).containsExactly(10L, 9L, 8L, 7L);
    assertThat(first.hasAfter()).as("the latest results: nothing newer").isFalse();
    assertThat(first.hasBefore()).as("older results exist").isTrue();
    assertThat(first.after()).as("an after cursor is returned even at the head").isPresent();
    Page second = t.page(first.before().orElseThrow());
    assertThat(seq(second)).containsExactly(6L, 5L, 4L, 3L);
    assertThat(second.hasBefore()).isTrue();
    assertThat(second.hasAfter()).isTrue();
    Page third = t.page(second.before().orElseThrow());
    assertThat(seq(third)).containsExactly(2L, 1L);
    assertThat(third.hasBefore()).as("the oldest result was reached").isFalse();
    assertThat(third.hasAfter()).isTrue();
    assertThat(seq(t.page(third.after().orElseThrow())))
        .as("changing direction midway re-reads the page in between")
        .containsExactly(6L, 5L, 4L, 3L);

    // fig. 4: paginate forward in time to fetch newer data
    Page poll = t.page(first.after().orElseThrow());
    assertThat(poll.items()).as("nothing new yet").isEmpty();
    assertThat(poll.hasAfter()).isFalse();
    assertThat(poll.after()).as("polling again stays possible").isPresent();
    t.put(feedItem(11));
    t.put(feedItem(12));
    Page newer = t.page(first.after().orElseThrow());
    assertThat(seq(newer)).as("only the newer results").containsExactly(12L, 11L);
    assertThat(newer.hasAfter()).as("these are the latest results").isFalse();
    assertThat(newer.hasBefore()).isTrue();
    assertThat(seq(t.page(newer.before().orElseThrow())))
        .as("paging back from the new results gives the first response again")
        .containsExactly(10L, 9L, 8L, 7L);
    assertThat(seq(t.page(poll.after().orElseThrow())))
        .as("the cursor of an empty poll also leads to the new results")
        .containsExactly(12L, 11L);
    for (int i = 13; i <= 20; i++) {
      t.put(feedItem(i));
    }
    Page burst = t.page(newer.after().orElseThrow());
    assertThat(seq(burst))
        .as("the page holds the limit new items closest to the anchor, newest first")
        .containsExactly(16L, 15L, 14L, 13L);
    assertThat(burst.hasAfter()).isTrue();
    assertThat(burst.hasBefore()).isTrue();
    Page head = t.page(burst.after().orElseThrow());
    assertThat(seq(head)).containsExactly(20L, 19L, 18L, 17L);
    assertThat(head.hasAfter()).isFalse();
  }

  private static List<Long> seq(Page p) {
    return p.items().stream().map(i -> i.getLong("s")).toList();
  }

  @Test
  void filterTrimmedPagesAreToppedUpAndNothingIsSkippedOrRepeated() {
    Table t = table(pnSpec("pagefilter"));
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      items.add(feedItem(i).toBuilder().put("keep", i % 10 == 3).build());
    }
    t.batchPut(items);
    List<Item> kept = items.stream().filter(i -> i.getBoolean("keep")).toList();
    PageWalker walker = new PageWalker(t);
    Query q =
        Query.partition("feed")
            .filter(Condition.eq("keep", dev.stowage.item.AttributeValue.of(true)))
            .limit(7)
            .build();
    walker.walkBothWays(q, kept);
    walker.walkBothWays(q.toBuilder().descending().build(), reversed(kept));
    Query none = Query.partition("feed").filter(Condition.exists("absent")).limit(7).build();
    Page empty = t.query(none);
    assertThat(empty.items()).isEmpty();
    assertThat(empty.hasAfter()).isFalse();
    assertThat(empty.hasBefore()).isFalse();
  }

  @Test
  void indexQueriesPageTheSameWayIncludingTiedSortValues() {
    Table t =
        table(
            TableSpec.builder("pageindex", KeySchema.of("id", AttributeType.STRING))
                .index("byGroup", List.of("group"), List.of("rank"))
                .build());
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      items.add(
          Item.builder()
              .put("id", String.format("id-%05d", i))
              .put("group", i % 5 == 4 ? "g2" : "g1")
              .put("rank", i % 40)
              .build());
    }
    t.batchPut(items);
    List<Item> g1 =
        new ArrayList<>(items.stream().filter(i -> i.getString("group").equals("g1")).toList());
    g1.sort(
        java.util.Comparator.comparing((Item i) -> i.getLong("rank"))
            .thenComparing(i -> i.getString("id")));
    PageWalker walker = new PageWalker(t);
    for (int limit : new int[] {7, 100}) {
      Query q = Query.index("byGroup").partition(str("g1")).limit(limit).build();
      walker.walkBothWays(q, g1);
      walker.walkBothWays(q.toBuilder().descending().build(), reversed(g1));
    }
  }

  @Test
  void queryAllStreamsEverythingInOrder() {
    Table t = table(pnSpec("queryall"));
    List<Item> all = loadFeed(t, 2_500);
    assertThat(t.queryAll(Query.partition("feed").build()).toList()).containsExactlyElementsOf(all);
    assertThat(t.queryAll(Query.partition("feed").descending().limit(1000).build()).toList())
        .containsExactlyElementsOf(reversed(all));
    assertThat(t.queryAll(Query.partition("feed").limit(9).build()).limit(20).toList())
        .containsExactlyElementsOf(all.subList(0, 20));
    assertThat(t.queryAll(Query.partition("nobody").build())).isEmpty();
  }
}
