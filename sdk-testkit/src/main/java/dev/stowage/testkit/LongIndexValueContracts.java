package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Indexed values longer than some backends index (issue #15): every backend takes indexed values of
 * {@code maxIndexedValueBytes} (at least 1,024 bytes) with the same semantics, whatever form their
 * index values take underneath. Equality on long partition values is exact, sort order and ranges
 * over long values that share long prefixes are exact in both directions and across cursors, keys
 * at the backend's limit are indexed and ordered, and an index value written for other values is
 * never returned.
 */
abstract class LongIndexValueContracts extends Contract {
  /** A 900-character prefix every long URL and path of these contracts shares. */
  private static final String SHARED = "https://example.com/" + "p".repeat(880);

  private static final TableSpec LINKS =
      TableSpec.builder("links", KeySchema.of("code", AttributeType.STRING))
          .index("byUrl", List.of("url"), List.of())
          .build();

  private static final TableSpec DOCS =
      TableSpec.builder("longdocs", KeySchema.of("id", AttributeType.STRING))
          .index("byPath", List.of("tenant"), List.of("path"))
          .build();

  private int limit() {
    int limit = (int) driver().limits().maxIndexedValueBytes();
    assertThat(limit)
        .as("every backend indexes values of at least 1,024 bytes")
        .isGreaterThanOrEqualTo(1024);
    return limit;
  }

  /** A URL of {@code length} characters starting with {@link #SHARED}, ending with {@code tail}. */
  private static String url(int length, String tail) {
    return SHARED + "q".repeat(length - SHARED.length() - tail.length()) + tail;
  }

  private static Item link(String code, String url) {
    return Item.builder().put("code", code).put("url", url).build();
  }

  private static List<String> codes(Table t, String url, int pageSize) {
    return t.queryAll(Query.index("byUrl").partition(str(url)).limit(pageSize).build())
        .map(i -> i.getString("code"))
        .toList();
  }

  @Test
  void aUrlShortenerFindsLongUrlsByEquality() {
    int limit = limit();
    Table links = table(LINKS);
    List<Item> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // 1,000-byte URLs that differ only in their last characters.
      all.add(link(String.format("c%02d", i), url(1000, String.format("/%02d", i))));
    }
    String longest = url(limit, "/max");
    all.add(link("cmax", longest));
    all.add(link("calias", url(1000, "/03")));
    links.batchPut(all.subList(0, 6));
    for (Item l : all.subList(6, all.size())) {
      links.put(l);
    }

    for (int i = 0; i < 10; i++) {
      String u = url(1000, String.format("/%02d", i));
      List<String> expected =
          i == 3 ? List.of("c03", "calias") : List.of(String.format("c%02d", i));
      assertThat(codes(links, u, 1)).as("the codes of URL %d", i).isEqualTo(expected);
    }
    assertThat(links.queryAll(Query.index("byUrl").partition(str(longest)).build()).toList())
        .containsExactly(link("cmax", longest));
    assertThat(codes(links, url(1000, "/10"), 5)).as("a URL nobody shortened").isEmpty();
    assertThat(codes(links, url(1000, "/03").substring(0, 999), 5))
        .as("a prefix of a stored URL")
        .isEmpty();
    assertThat(codes(links, url(1000, "/03") + "x", 5)).as("a stored URL plus one").isEmpty();
    assertThat(codes(links, longest + "x", 5)).as("longer than any indexed value").isEmpty();

    // Moving a link to another URL moves it in the index.
    links.put(link("c05", url(1000, "/06")));
    assertThat(codes(links, url(1000, "/05"), 5)).isEmpty();
    assertThat(codes(links, url(1000, "/06"), 5)).containsExactly("c05", "c06");
    links.delete(Key.of("c06"));
    assertThat(codes(links, url(1000, "/06"), 5)).containsExactly("c05");

    assertThatThrownBy(() -> links.put(link("cover", url(limit + 1, "/over"))))
        .as("one byte over the indexed-value limit")
        .isInstanceOf(dev.stowage.ItemTooLargeException.class)
        .hasMessageContaining(String.valueOf(limit));
    assertThat(links.get(Key.of("cover"), ReadOptions.CONSISTENT)).isEmpty();
  }

  /** A document of {@link #DOCS}. */
  private static Item doc(String id, String tenant, String path) {
    return Item.builder().put("id", id).put("tenant", tenant).put("path", path).build();
  }

  private static final Comparator<Item> BY_PATH_THEN_ID =
      Comparator.<Item, String>comparing(i -> i.getString("path"))
          .thenComparing(i -> i.getString("id"));

  /**
   * Documents of one tenant: 1,000-byte paths sharing 900 bytes, paths of nearly the limit sharing
   * all but their last 20 bytes, equal paths, short paths, and a path that is a prefix of others.
   * Returns them in index order.
   */
  private List<Item> putDocs(Table docs, String tenant) {
    int limit = limit();
    List<Item> all = new ArrayList<>();
    int n = 0;
    for (int i = 0; i < 8; i++) {
      all.add(doc(String.format("d%02d", n++), tenant, url(1000, String.format("/%02d", 7 - i))));
    }
    for (int i = 0; i < 6; i++) {
      all.add(doc(String.format("d%02d", n++), tenant, url(limit - 20, "") + "z".repeat(i) + "/"));
    }
    String same = url(1000, "/04");
    all.add(doc(String.format("d%02d", n++), tenant, same));
    all.add(doc(String.format("d%02d", n++), tenant, same));
    all.add(doc(String.format("d%02d", n++), tenant, "https://a.example/short"));
    all.add(doc(String.format("d%02d", n++), tenant, "https://z.example/short"));
    all.add(doc(String.format("d%02d", n++), tenant, SHARED));
    all.add(doc(String.format("d%02d", n++), tenant, url(1000, "")));
    docs.batchPut(all);
    List<Item> sorted = new ArrayList<>(all);
    sorted.sort(BY_PATH_THEN_ID);
    return sorted;
  }

  /** Every page of {@code q}, following cursors in the query's own direction. */
  private static List<Item> pages(Table t, Query q) {
    List<Item> out = new ArrayList<>();
    Page page = t.query(q);
    while (true) {
      assertThat(page.items().size()).isLessThanOrEqualTo(q.limit());
      out.addAll(page.items());
      boolean more = q.descending() ? page.hasBefore() : page.hasAfter();
      if (!more) {
        return out;
      }
      assertThat(page.items()).as("every page but the last is full").hasSize(q.limit());
      page = t.page((q.descending() ? page.before() : page.after()).orElseThrow());
    }
  }

  /** Checks {@code condition} both ways in pages of 3 against the expected documents. */
  private static void check(
      Table docs, String tenant, SortCondition condition, List<Item> sorted, Predicate<String> in) {
    List<Item> expected = sorted.stream().filter(i -> in.test(i.getString("path"))).toList();
    Query.Builder b = Query.index("byPath").partition(str(tenant)).limit(3);
    if (condition != null) {
      b.sort(condition);
    }
    String what = condition == null ? "all" : condition.op() + " " + condition.values();
    assertThat(ids(pages(docs, b.build()))).as("%s ascending", what).isEqualTo(ids(expected));
    List<Item> reversed = new ArrayList<>(expected);
    java.util.Collections.reverse(reversed);
    assertThat(ids(pages(docs, b.descending().build())))
        .as("%s descending", what)
        .isEqualTo(ids(reversed));
  }

  private static List<String> ids(List<Item> items) {
    return items.stream().map(i -> i.getString("id")).toList();
  }

  @Test
  void longSortValuesSharingLongPrefixesPageInOrderBothWays() {
    Table docs = table(DOCS);
    List<Item> sorted = putDocs(docs, "t1");
    docs.put(doc("other", "t2", url(1000, "/01")));
    check(docs, "t1", null, sorted, p -> true);

    // Back and forth through cursors: after, then before from the last page.
    Query asc = Query.index("byPath").partition(str("t1")).limit(3).build();
    Page page = docs.query(asc);
    List<Page> walked = new ArrayList<>(List.of(page));
    while (page.hasAfter()) {
      page = docs.page(page.after().orElseThrow());
      walked.add(page);
    }
    List<Item> back = new ArrayList<>(page.items());
    Page p = page;
    while (p.hasBefore()) {
      p = docs.page(p.before().orElseThrow());
      back.addAll(0, p.items());
    }
    assertThat(ids(back)).isEqualTo(ids(sorted));
    assertThat(walked).hasSize((sorted.size() + 2) / 3);
  }

  @Test
  void rangeConditionsCutInsideBucketsOfLongValues() {
    int limit = limit();
    Table docs = table(DOCS);
    List<Item> sorted = putDocs(docs, "t1");
    String mid = url(1000, "/03");
    String nearMax = url(limit - 20, "") + "zz";
    check(docs, "t1", SortCondition.gt(str(mid)), sorted, v -> v.compareTo(mid) > 0);
    check(docs, "t1", SortCondition.ge(str(mid)), sorted, v -> v.compareTo(mid) >= 0);
    check(docs, "t1", SortCondition.lt(str(mid)), sorted, v -> v.compareTo(mid) < 0);
    check(docs, "t1", SortCondition.le(str(mid)), sorted, v -> v.compareTo(mid) <= 0);
    String same = url(1000, "/04");
    check(docs, "t1", SortCondition.eq(str(same)), sorted, v -> v.equals(same));
    String lo = url(1000, "/02");
    String hi = url(1000, "/05");
    check(
        docs,
        "t1",
        SortCondition.between(str(lo), str(hi)),
        sorted,
        v -> v.compareTo(lo) >= 0 && v.compareTo(hi) <= 0);
    check(
        docs,
        "t1",
        SortCondition.between(str(mid), str(nearMax)),
        sorted,
        v -> v.compareTo(mid) >= 0 && v.compareTo(nearMax) <= 0);
    check(docs, "t1", SortCondition.gt(str(nearMax)), sorted, v -> v.compareTo(nearMax) > 0);
    String prefix = url(990, "/0");
    check(docs, "t1", SortCondition.beginsWith(prefix), sorted, v -> v.startsWith(prefix));
    String longPrefix = url(limit - 20, "") + "z";
    check(docs, "t1", SortCondition.beginsWith(longPrefix), sorted, v -> v.startsWith(longPrefix));
    check(docs, "t1", SortCondition.beginsWith(SHARED), sorted, v -> v.startsWith(SHARED));
  }

  @Test
  void longPartitionAndSortValuesTogether() {
    int limit = limit();
    Table docs = table(DOCS);
    String tenant = "tenant/" + "t".repeat(limit - 27) + "/end";
    String neighbour = "tenant/" + "t".repeat(limit - 27) + "/enD";
    List<Item> sorted = putDocs(docs, tenant);
    docs.put(doc("n1", neighbour, url(1000, "/01")));
    check(docs, tenant, null, sorted, p -> true);
    String mid = url(1000, "/03");
    check(docs, tenant, SortCondition.gt(str(mid)), sorted, v -> v.compareTo(mid) > 0);
    assertThat(ids(docs.queryAll(Query.index("byPath").partition(str(neighbour)).build()).toList()))
        .containsExactly("n1");
  }

  private TableLayout layout(TableSpec spec) {
    return new TableLayout(
        new TableRef(store.namespace(), spec.name()),
        spec.keySchema(),
        spec.indexes().stream().map(IndexLayout::of).toList());
  }

  /** Another tool's write: the stored item with an attribute changed and Stowage's values kept. */
  private void foreignSet(TableSpec spec, Key key, String attribute, String value) {
    TableLayout layout = layout(spec);
    StoredItem s = driver().get(layout, key, true).orElseThrow();
    Map<String, AttributeValue> attrs = new LinkedHashMap<>(s.item().attributes());
    attrs.put(attribute, AttributeValue.of(value));
    driver().put(layout, StoredItems.of(attrs), Expectation.token(s.token()), false);
  }

  @Test
  void aStaleLongFormEntryIsNeverReturned() {
    Table links = table(LINKS);
    String a = url(1000, "/aa");
    String b = url(1000, "/bb");
    links.put(link("x1", a));
    links.put(link("x2", a));
    // x1 now holds b, but its index values (long forms on some backends) still say a.
    foreignSet(LINKS, Key.of("x1"), "url", b);
    assertThat(codes(links, a, 1)).containsExactly("x2");
    assertThat(codes(links, b, 1)).as("not found under b until repaired").isEmpty();

    Table docs = table(DOCS);
    List<Item> sorted = putDocs(docs, "t1");
    // d01's path moves far from where its index value sits.
    foreignSet(DOCS, Key.of("d01"), "path", "https://m.example/moved");
    String gone =
        sorted.stream()
            .filter(i -> i.getString("id").equals("d01"))
            .findFirst()
            .orElseThrow()
            .getString("path");
    List<Item> without = sorted.stream().filter(i -> !i.getString("id").equals("d01")).toList();
    check(docs, "t1", null, without, p -> true);
    check(docs, "t1", SortCondition.eq(str(gone)), without, v -> v.equals(gone));
    check(docs, "t1", SortCondition.beginsWith("https://m."), without, v -> false);

    MaintenanceJob.Progress fixedLinks = links.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(fixedLinks.stale()).isEqualTo(1);
    assertThat(codes(links, b, 1)).containsExactly("x1");
    assertThat(codes(links, a, 1)).containsExactly("x2");
    MaintenanceJob.Progress fixedDocs = docs.verifyIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(fixedDocs.stale()).isEqualTo(1);
    List<Item> now = new ArrayList<>(without);
    now.add(doc("d01", "t1", "https://m.example/moved"));
    now.sort(BY_PATH_THEN_ID);
    check(docs, "t1", null, now, p -> true);
  }

  @Test
  void keysAtTheBackendLimitAreIndexedAndOrdered() {
    var limits = driver().limits();
    Table t =
        table(
            TableSpec.builder(
                    "longkeys", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.STRING))
                .index("byGroup", List.of("group"), List.of("rank"))
                .build());
    String p = "p".repeat(limits.maxPartitionKeyBytes() - 1);
    String s = "s".repeat(limits.maxSortKeyBytes() - 2);
    List<Item> all = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      // Keys at the limit that differ only at their ends; equal index sort values.
      all.add(
          Item.builder()
              .put("p", p + (char) ('a' + i % 3))
              .put("s", s + String.format("%02d", 6 - i))
              .put("group", "g")
              .put("rank", i < 5 ? "same" : "later")
              .build());
    }
    t.batchPut(all.subList(0, 4));
    all.subList(4, 7).forEach(t::put);
    for (Item i : all) {
      assertThat(t.get(t.spec().keySchema().keyOf(i), ReadOptions.CONSISTENT)).contains(i);
    }
    Comparator<Item> order =
        Comparator.<Item, String>comparing(i -> i.getString("rank"))
            .thenComparing(i -> i.getString("p"))
            .thenComparing(i -> i.getString("s"));
    List<Item> expected = new ArrayList<>(all);
    expected.sort(order);
    Query q = Query.index("byGroup").partition(str("g")).limit(2).build();
    assertThat(pages(t, q)).containsExactlyElementsOf(expected);
    List<Item> reversed = new ArrayList<>(expected);
    java.util.Collections.reverse(reversed);
    assertThat(pages(t, Query.index("byGroup").partition(str("g")).limit(2).descending().build()))
        .containsExactlyElementsOf(reversed);
    assertThat(
            pages(
                t,
                Query.index("byGroup")
                    .partition(str("g"))
                    .sort(SortCondition.eq(str("same")))
                    .limit(3)
                    .build()))
        .containsExactlyElementsOf(expected.subList(2, 7));
    assertThat(t.queryAll(Query.partition(p + "b").build()).toList())
        .as("the primary key")
        .containsExactlyElementsOf(
            expected.stream()
                .filter(i -> i.getString("p").endsWith("b"))
                .sorted(Comparator.comparing(i -> i.getString("s")))
                .toList());
    t.delete(t.spec().keySchema().keyOf(all.get(0)));
    assertThat(pages(t, q))
        .containsExactlyElementsOf(expected.stream().filter(i -> !i.equals(all.get(0))).toList());
    Item over = all.get(1).toBuilder().put("p", p + "zz").build();
    assertThatThrownBy(() -> t.put(over)).isInstanceOf(InvalidRequestException.class);
  }
}
