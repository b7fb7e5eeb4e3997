package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.item.Utf8Order;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Multi-column secondary indexes: partition tuples, tuple-prefix sort conditions, both directions,
 * sparseness, projections, and entries that follow every write.
 */
abstract class IndexContracts extends Contract {
  private static final List<String> DAYS =
      List.of(
          "2026-10-30",
          "2026-10-31",
          "2026-11-01",
          "2026-11-02",
          "2026-11-03",
          "2026-11-04",
          "2026-11-05");

  static TableSpec ordersSpec() {
    return TableSpec.builder("orders", KeySchema.of("id", AttributeType.STRING))
        .index("byTenantStatus", List.of("tenant", "status"), List.of("createdAt", "id"))
        .index("byScore", List.of("tenant"), List.of("score", "id"))
        .index(
            new IndexSpec(
                "keysOnly",
                List.of("tenant"),
                List.of("createdAt"),
                IndexSpec.Projection.KEYS_ONLY))
        .build();
  }

  /** 210 orders; some lack status or createdAt and so are missing from indexes naming them. */
  static List<Item> orders() {
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < 210; i++) {
      Item.Builder b =
          Item.builder()
              .put("id", String.format("o-%03d", i))
              .put("tenant", i % 2 == 0 ? "t1" : "t2")
              .put(
                  "score",
                  new BigDecimal((i % 11) - 5)
                      .add(i % 4 == 0 ? new BigDecimal("0.5") : BigDecimal.ZERO))
              .put("payload", "order " + i);
      if (i % 17 != 0) {
        b.put("status", i % 3 == 0 ? "closed" : "open");
      }
      if (i % 19 != 0) {
        b.put("createdAt", DAYS.get(i % DAYS.size()));
      }
      out.add(b.build());
    }
    return out;
  }

  private static final Comparator<Item> BY_DAY_THEN_ID =
      Comparator.comparing((Item i) -> i.getString("createdAt"), Utf8Order.COMPARATOR)
          .thenComparing(i -> i.getString("id"), Utf8Order.COMPARATOR);

  private static void check(
      Table t,
      String tenant,
      String status,
      SortCondition c,
      List<Item> all,
      Predicate<Item> match) {
    List<Item> expected =
        new ArrayList<>(
            all.stream()
                .filter(i -> i.has("status") && i.has("createdAt"))
                .filter(
                    i ->
                        i.getString("tenant").equals(tenant)
                            && i.getString("status").equals(status))
                .filter(match)
                .sorted(BY_DAY_THEN_ID)
                .toList());
    Query.Builder q = Query.index("byTenantStatus").partition(str(tenant), str(status)).limit(3);
    if (c != null) {
      q.sort(c);
    }
    assertThat(t.queryAll(q.build()).toList())
        .as("%s ascending", c)
        .containsExactlyElementsOf(expected);
    Collections.reverse(expected);
    assertThat(t.queryAll(q.descending().build()).toList())
        .as("%s descending", c)
        .containsExactlyElementsOf(expected);
  }

  private static int day(Item i, String d) {
    return Utf8Order.compare(i.getString("createdAt"), d);
  }

  @Test
  void multiColumnIndexQueriesWithTuplePrefixConditions() {
    Table t = table(ordersSpec());
    List<Item> all = orders();
    t.batchPut(all);
    for (String tenant : List.of("t1", "t2")) {
      for (String status : List.of("open", "closed")) {
        check(t, tenant, status, null, all, i -> true);
        check(
            t,
            tenant,
            status,
            SortCondition.eq(str("2026-11-01")),
            all,
            i -> day(i, "2026-11-01") == 0);
        check(
            t,
            tenant,
            status,
            SortCondition.gt(str("2026-11-01")),
            all,
            i -> day(i, "2026-11-01") > 0);
        check(
            t,
            tenant,
            status,
            SortCondition.ge(str("2026-11-01")),
            all,
            i -> day(i, "2026-11-01") >= 0);
        check(
            t,
            tenant,
            status,
            SortCondition.lt(str("2026-11-01")),
            all,
            i -> day(i, "2026-11-01") < 0);
        check(
            t,
            tenant,
            status,
            SortCondition.le(str("2026-11-01")),
            all,
            i -> day(i, "2026-11-01") <= 0);
        check(
            t,
            tenant,
            status,
            SortCondition.between(List.of(str("2026-10-31")), List.of(str("2026-11-02"))),
            all,
            i -> day(i, "2026-10-31") >= 0 && day(i, "2026-11-02") <= 0);
        check(
            t,
            tenant,
            status,
            SortCondition.between(
                List.of(str("2026-10-31"), str("o-100")), List.of(str("2026-11-03"), str("o-050"))),
            all,
            i ->
                (day(i, "2026-10-31") > 0
                        || day(i, "2026-10-31") == 0 && i.getString("id").compareTo("o-100") >= 0)
                    && (day(i, "2026-11-03") < 0
                        || day(i, "2026-11-03") == 0 && i.getString("id").compareTo("o-050") <= 0));
        check(
            t,
            tenant,
            status,
            SortCondition.beginsWith(str("2026-11")),
            all,
            i -> i.getString("createdAt").startsWith("2026-11"));
        check(
            t,
            tenant,
            status,
            SortCondition.beginsWith(str("2026-11-02"), str("o-1")),
            all,
            i -> day(i, "2026-11-02") == 0 && i.getString("id").startsWith("o-1"));
        check(
            t,
            tenant,
            status,
            SortCondition.eq(str("2026-11-04"), str("o-186")),
            all,
            i -> day(i, "2026-11-04") == 0 && i.getString("id").equals("o-186"));
      }
    }
  }

  @Test
  void numericTupleComponentsOrderNumerically() {
    Table t = table(ordersSpec());
    List<Item> all = orders();
    t.batchPut(all);
    Comparator<Item> byScore =
        Comparator.comparing((Item i) -> i.getNumber("score"))
            .thenComparing(i -> i.getString("id"));
    List<Item> t1 =
        all.stream().filter(i -> i.getString("tenant").equals("t1")).sorted(byScore).toList();
    assertThat(t.queryAll(Query.index("byScore").partition(str("t1")).limit(7).build()).toList())
        .containsExactlyElementsOf(t1);
    List<Item> positive = t1.stream().filter(i -> i.getNumber("score").signum() > 0).toList();
    assertThat(
            t.queryAll(
                    Query.index("byScore")
                        .partition(str("t1"))
                        .sort(SortCondition.gt(num(0)))
                        .build())
                .toList())
        .containsExactlyElementsOf(positive);
    List<Item> minusHalf =
        t1.stream()
            .filter(i -> i.getNumber("score").compareTo(new BigDecimal("-4.5")) == 0)
            .toList();
    assertThat(minusHalf).isNotEmpty();
    assertThat(
            t.queryAll(
                    Query.index("byScore")
                        .partition(str("t1"))
                        .sort(SortCondition.eq(num("-4.5")))
                        .build())
                .toList())
        .containsExactlyElementsOf(minusHalf);
  }

  @Test
  void indexesAreSparseAndProjectionsApply() {
    Table t = table(ordersSpec());
    List<Item> all = orders();
    t.batchPut(all);
    long indexed = all.stream().filter(i -> i.has("status") && i.has("createdAt")).count();
    long seen = 0;
    for (String tenant : List.of("t1", "t2")) {
      for (String status : List.of("open", "closed")) {
        List<Item> hits =
            t.queryAll(Query.index("byTenantStatus").partition(str(tenant), str(status)).build())
                .toList();
        assertThat(hits).allMatch(i -> i.has("status") && i.has("createdAt"));
        seen += hits.size();
      }
    }
    assertThat(seen).isEqualTo(indexed).isLessThan(all.size());
    List<Item> keysOnly = t.queryAll(Query.index("keysOnly").partition(str("t2")).build()).toList();
    List<Item> expected =
        all.stream()
            .filter(i -> i.getString("tenant").equals("t2") && i.has("createdAt"))
            .sorted(BY_DAY_THEN_ID)
            .map(i -> i.project(Set.of("id", "tenant", "createdAt")))
            .toList();
    assertThat(keysOnly).containsExactlyElementsOf(expected);
  }

  @Test
  void indexEntriesFollowUpdatesAndDeletes() {
    Table t = table(ordersSpec());
    Item order =
        Item.builder()
            .put("id", "x-1")
            .put("tenant", "t9")
            .put("status", "open")
            .put("createdAt", "2026-11-01")
            .put("score", 1)
            .build();
    t.put(order);
    assertThat(ids(t, "open")).containsExactly("x-1");
    t.update(Key.of("x-1"), Update.builder().set("status", "closed").build());
    assertThat(ids(t, "open")).isEmpty();
    assertThat(ids(t, "closed")).containsExactly("x-1");
    assertThat(
            t.queryAll(Query.index("byTenantStatus").partition(str("t9"), str("closed")).build())
                .toList())
        .containsExactly(order.toBuilder().put("status", "closed").build());
    t.update(Key.of("x-1"), Update.builder().remove("createdAt").build());
    assertThat(ids(t, "closed")).as("no entry without createdAt").isEmpty();
    t.put(order.toBuilder().put("createdAt", "2026-12-24").build());
    assertThat(ids(t, "open")).containsExactly("x-1");
    assertThat(
            t.queryAll(
                    Query.index("byTenantStatus")
                        .partition(str("t9"), str("open"))
                        .sort(SortCondition.eq(str("2026-11-01")))
                        .build())
                .toList())
        .as("no stale entry for the old day")
        .isEmpty();
    t.update(Key.of("x-1"), Update.builder().increment("score", 5).build());
    assertThat(
            t.queryAll(
                    Query.index("byScore")
                        .partition(str("t9"))
                        .sort(SortCondition.eq(num(6)))
                        .build())
                .toList())
        .hasSize(1);
    assertThat(
            t.queryAll(
                    Query.index("byScore")
                        .partition(str("t9"))
                        .sort(SortCondition.eq(num(1)))
                        .build())
                .toList())
        .isEmpty();
    t.delete(Key.of("x-1"));
    assertThat(ids(t, "open")).isEmpty();
    assertThat(t.queryAll(Query.index("byScore").partition(str("t9")).build()).toList()).isEmpty();
    assertThat(t.queryAll(Query.index("keysOnly").partition(str("t9")).build()).toList()).isEmpty();
  }

  private static List<String> ids(Table t, String status) {
    return t.queryAll(Query.index("byTenantStatus").partition(str("t9"), str(status)).build())
        .map(i -> i.getString("id"))
        .toList();
  }

  private static TableSpec eventsSpec(List<String> partition) {
    return TableSpec.builder("events", KeySchema.of("id", AttributeType.STRING))
        .index("byOwner", partition, List.of("at"))
        .build();
  }

  private static Item event(int i, String kind, String tenant) {
    return Item.builder()
        .put("id", "e" + i)
        .put("kind", kind)
        .put("tenant", tenant)
        .put("at", i)
        .build();
  }

  @Test
  void aRedefinedIndexNeverMatchesValuesWrittenUnderTheOldDefinition() {
    // Written while index byOwner was partitioned by "kind"; the kind values are tenant names, so
    // without a definition fingerprint a query of the new definition would match them.
    com.google.crypto.tink.Aead cursorKey = CursorContracts.sharedCursorKey();
    String ns = kit().freshNamespace();
    Table before =
        table(kit().storeBuilder(ns).cursorAead(cursorKey).build(), eventsSpec(List.of("kind")));
    List<Item> old = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      old.add(event(i, "acme", i % 2 == 0 ? "zeta" : "acme"));
    }
    before.batchPut(old);
    Query byAcme = Query.index("byOwner").partition(str("acme")).limit(2).build();
    assertThat(before.queryAll(byAcme).toList()).containsExactlyElementsOf(old);
    String oldCursor = before.query(byAcme).after().orElseThrow();
    List<String> deleteTokens = new ArrayList<>();
    before
        .deleteWhere(
            byAcme,
            new dev.stowage.DeleteJob.Options(0, 2, true, p -> deleteTokens.add(p.resumeToken())))
        .run();

    // Another instance (as after a restart) opens the table with byOwner partitioned by "tenant".
    dev.stowage.Stowage restarted = kit().storeBuilder(ns).cursorAead(cursorKey).build();
    // The same table: dropped once, through the first store, after the test.
    Table after = restarted.ensureTable(eventsSpec(List.of("tenant")));
    assertThat(after.queryAll(byAcme).toList())
        .as("values of the old definition are never matched")
        .isEmpty();
    dev.stowage.InvalidCursorException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            dev.stowage.InvalidCursorException.class, () -> after.page(oldCursor));
    assertThat(e).as("an old cursor is refused").isNotNull();
    assertThat(e.reason()).isEqualTo(dev.stowage.InvalidCursorException.Reason.INDEX_CHANGED);
    assertThat(e.getMessage()).contains("byOwner").contains("tenant");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowableOfType(
                    dev.stowage.InvalidCursorException.class,
                    () ->
                        after.resumeDelete(
                            deleteTokens.get(0), dev.stowage.DeleteJob.Options.DEFAULT))
                .reason())
        .as("an old delete-job token is refused")
        .isEqualTo(dev.stowage.InvalidCursorException.Reason.INDEX_CHANGED);

    Item fresh = event(100, "other", "acme");
    after.put(fresh);
    assertThat(after.queryAll(byAcme).toList())
        .as("only values of the new definition")
        .containsExactly(fresh);

    after.backfillIndexes(dev.stowage.MaintenanceJob.Options.DEFAULT).run();
    List<Item> acme = new ArrayList<>();
    old.stream().filter(i -> i.getString("tenant").equals("acme")).forEach(acme::add);
    acme.add(fresh);
    assertThat(after.queryAll(byAcme).toList())
        .as("after the backfill")
        .containsExactlyElementsOf(acme);
    assertThat(after.queryAll(Query.index("byOwner").partition(str("zeta")).build()).toList())
        .containsExactlyElementsOf(
            old.stream().filter(i -> i.getString("tenant").equals("zeta")).toList());
    String newCursor = after.query(byAcme).after().orElseThrow();
    assertThat(after.page(newCursor).items()).hasSize(2);
  }

  @Test
  void unknownIndexesAreNotFoundAndMalformedIndexQueriesAreInvalid() {
    Table t = table(ordersSpec());
    assertThatThrownBy(() -> t.query(Query.index("noSuchIndex").partition(str("t1")).build()))
        .as("an index name not in the table spec")
        .isInstanceOf(NotFoundException.class);
    List<Query> bad =
        List.of(
            Query.index("byTenantStatus").partition(str("t1")).build(),
            Query.index("byTenantStatus").partition(str("t1"), str("open"), str("extra")).build(),
            Query.index("byTenantStatus")
                .partition(str("t1"), str("open"))
                .sort(SortCondition.eq(str("2026-11-01"), str("o-1"), str("too many")))
                .build());
    for (Query q : bad) {
      assertThatThrownBy(() -> t.query(q)).as("%s", q).isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void valuesLongerThanAnyStoredValueAnswerTheSameOnEveryBackend() {
    int limit = (int) driver().limits().maxIndexedValueBytes();
    Table t =
        table(
            TableSpec.builder("ixlong", KeySchema.of("id", AttributeType.STRING))
                .index("byTag", List.of("tag"), List.of("rank"))
                .build());
    Item a = Item.builder().put("id", "a").put("tag", "t").put("rank", "a").build();
    Item z = Item.builder().put("id", "z").put("tag", "t").put("rank", "z".repeat(limit)).build();
    t.put(a);
    t.put(z);
    String tooLong = "z".repeat(limit + 50);
    // A partition value no stored value can equal: an empty page, not an error.
    assertThat(t.query(Query.index("byTag").partition(str(tooLong)).build()).items()).isEmpty();
    assertThat(t.query(Query.partition(tooLong.repeat(40)).build()).items())
        .as("a primary partition key longer than any key")
        .isEmpty();
    // Sort bounds longer than any stored value still order against the stored ones.
    Query.Builder byTag = Query.index("byTag").partition(str("t"));
    assertThat(t.queryAll(byTag.sort(SortCondition.lt(str(tooLong))).build()).toList())
        .containsExactly(a, z);
    assertThat(t.queryAll(byTag.sort(SortCondition.le(str(tooLong))).build()).toList())
        .containsExactly(a, z);
    assertThat(t.queryAll(byTag.sort(SortCondition.gt(str(tooLong))).build()).toList()).isEmpty();
    assertThat(t.queryAll(byTag.sort(SortCondition.ge(str(tooLong))).build()).toList()).isEmpty();
    assertThat(t.queryAll(byTag.sort(SortCondition.eq(str(tooLong))).build()).toList()).isEmpty();
    assertThat(t.queryAll(byTag.sort(SortCondition.beginsWith(tooLong)).build()).toList())
        .isEmpty();
    assertThat(
            t.queryAll(byTag.sort(SortCondition.between(str("b"), str(tooLong))).build()).toList())
        .containsExactly(z);
    assertThat(
            t.queryAll(byTag.sort(SortCondition.gt(str("z".repeat(limit - 1)))).build()).toList())
        .as("a bound within the limit still compares exactly")
        .containsExactly(z);
  }

  /** One case of {@link #indexedValuesAtTheDeclaredLimitAreStoredAndOneByteMoreIsRefused}. */
  private record Sized(String what, Item atLimit, Item over, Query find) {}

  @Test
  void indexedValuesAtTheDeclaredLimitAreStoredAndOneByteMoreIsRefused() {
    int limit = (int) driver().limits().maxIndexedValueBytes();
    Table t =
        table(
            TableSpec.builder("ixlimit", KeySchema.of("id", AttributeType.STRING))
                .index("byTag", List.of("tag"), List.of("rank"))
                .index("byPair", List.of("a", "b"), List.of())
                .build());
    String ascii = "t".repeat(limit);
    String utf8 = "é".repeat(limit / 2) + "x".repeat(limit % 2);
    byte[] ff = new byte[limit];
    java.util.Arrays.fill(ff, (byte) 0xFF);
    byte[] ffMore = java.util.Arrays.copyOf(ff, limit + 1);
    ffMore[limit] = (byte) 0xFF;
    // A zero byte is stored escaped and counts twice.
    byte[] zeros = new byte[limit / 2];
    byte[] zerosMore = new byte[limit / 2 + 1];
    // Two values on one side share the limit, the second costing 3 bytes more.
    String a = "a".repeat(limit / 2);
    String b = "b".repeat(limit - 3 - limit / 2);
    List<Sized> cases =
        List.of(
            sized("string partition", "tag", str(ascii), str(ascii + "t"), "rank", str("r")),
            sized("UTF-8 partition", "tag", str(utf8), str(utf8 + "x"), "rank", str("r")),
            sized("string sort", "rank", str(ascii), str(ascii + "r"), "tag", str("s")),
            sized("binary partition", "tag", bin(ff), bin(ffMore), "rank", str("r")),
            sized("binary sort", "rank", bin(ff), bin(ffMore), "tag", str("b")),
            sized("zero bytes", "tag", bin(zeros), bin(zerosMore), "rank", str("r")),
            sized("two values", "b", str(b), str(b + "b"), "a", str(a)));
    for (Sized c : cases) {
      t.put(c.atLimit());
      Key key = t.spec().keySchema().keyOf(c.atLimit());
      assertThat(t.get(key, ReadOptions.CONSISTENT)).as(c.what()).contains(c.atLimit());
      assertThat(t.queryAll(c.find()).toList()).as(c.what()).contains(c.atLimit());
      Key overKey = t.spec().keySchema().keyOf(c.over());
      assertThatThrownBy(() -> t.put(c.over()))
          .as(c.what() + ", one byte more")
          .isInstanceOf(ItemTooLargeException.class)
          .hasMessageContaining(String.valueOf(limit));
      assertThatThrownBy(() -> t.batchPut(List.of(c.over())))
          .isInstanceOf(ItemTooLargeException.class);
      Update.Builder u = Update.builder();
      c.over()
          .attributes()
          .forEach(
              (n, v) -> {
                if (!n.equals("id")) {
                  u.set(n, v);
                }
              });
      assertThatThrownBy(() -> t.update(overKey, u.build()))
          .isInstanceOf(ItemTooLargeException.class);
      assertThat(t.get(overKey, ReadOptions.CONSISTENT)).isEmpty();
    }
  }

  private static Sized sized(
      String what,
      String attribute,
      KeyValue atLimit,
      KeyValue over,
      String other,
      KeyValue otherValue) {
    String id = what.replace(' ', '-');
    Item at =
        Item.builder()
            .put("id", id)
            .put("a", "a")
            .put("b", "b")
            .put("tag", "tag")
            .put("rank", "rank")
            .put(other, otherValue)
            .put(attribute, atLimit)
            .build();
    Item o = at.toBuilder().put("id", id + "-over").put(attribute, over).build();
    Query find =
        attribute.equals("tag") || other.equals("tag")
            ? Query.index("byTag").partition((KeyValue) at.get("tag")).build()
            : Query.index("byPair")
                .partition((KeyValue) at.get("a"), (KeyValue) at.get("b"))
                .build();
    return new Sized(what, at, o, find);
  }

  private static KeyValue bin(byte[] bytes) {
    return AttributeValue.of(Bytes.wrap(bytes));
  }
}
