package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.bin;
import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.spi.Capability;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Native indexes: the backend's own secondary indexes declared as Stowage indexes ({@link
 * IndexSpec#nativeIndex}). Half the items are written through the driver's SPI, as another
 * application would write them (plain attributes, nothing of Stowage's index machinery), half
 * through Stowage; index queries find both, in the order of the plain values (strings by UTF-8
 * bytes, numbers numerically with integers and fractions mixed, binary unsigned), equal values by
 * primary key, through filters, projections and cursors in both directions. Writes are checked
 * against the declared types before anything is written. Gated on {@link
 * Capability#NATIVE_INDEXES}: a driver without it must refuse the table.
 */
abstract class NativeIndexContracts extends Contract {
  private static final KeySchema KEYS =
      KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER);

  private static final List<String> CREATED =
      List.of("10", "-3", "2.5", "5", "10", "0", "19.5", "5", "100", "-0.25", "10", "12345678901");

  private static final List<String> NAMES =
      List.of("alpha", "alpine", "beta", "z\uFFFF", "z\uD83D\uDE00", "alp", "b");

  static TableSpec spec() {
    return TableSpec.builder("natives", KEYS)
        .nativeIndex(
            "byStatus",
            "status-created",
            KeySchema.of("status", AttributeType.STRING, "created", AttributeType.NUMBER))
        .nativeIndex("byTag", "tag-only", KeySchema.of("tag", AttributeType.STRING))
        .index(
            IndexSpec.nativeIndex(
                "byLevel",
                "level-name",
                KeySchema.of("level", AttributeType.NUMBER, "name", AttributeType.STRING),
                IndexSpec.Projection.KEYS_ONLY))
        .nativeIndex(
            "byRegion",
            "region-code",
            KeySchema.of("region", AttributeType.STRING, "code", AttributeType.BINARY))
        // An index Stowage maintains, next to the native ones, over some of the same attributes.
        .index("byTagCreated", List.of("tag"), List.of("created"))
        .build();
  }

  /**
   * 36 items over three table partitions. Some lack status, tag or name, so the indexes naming them
   * are sparse; created values mix integers, fractions and negatives with ties; names hold
   * characters whose UTF-8 and UTF-16 orders differ; codes hold 0x00 and 0xFF bytes.
   */
  static List<Item> items() {
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < 36; i++) {
      Item.Builder b =
          Item.builder()
              .put("p", String.valueOf((char) ('a' + i % 3)))
              .put("s", i)
              .put("created", new BigDecimal(CREATED.get(i % CREATED.size())))
              .put("level", i % 3 == 0 ? num(1) : num("2.5"))
              .put("region", i % 2 == 0 ? "eu" : "us")
              .put("code", bin(i % 4 == 0 ? 0xFF : i % 4 == 1 ? 0x00 : 0x7F, i % 5))
              .put("payload", "item " + i);
      if (i % 5 != 4) {
        b.put("status", i % 2 == 0 ? "open" : "closed");
      }
      if (i % 4 != 3) {
        b.put("tag", "t" + (i % 2));
      }
      if (i % 8 != 7) {
        b.put("name", NAMES.get(i % NAMES.size()));
      }
      out.add(b.build());
    }
    return out;
  }

  private static Key keyOf(Item i) {
    return KEYS.keyOf(i);
  }

  private static Comparator<Item> by(String attribute) {
    return Comparator.comparing(
            (Item i) -> (KeyValue) i.get(attribute), (a, b) -> KeyValue.compare(a, b))
        .thenComparing(NativeIndexContracts::keyOf);
  }

  private static final Comparator<Item> BY_KEY = Comparator.comparing(NativeIndexContracts::keyOf);

  private static TableLayout layout(String namespace, TableSpec spec) {
    return new TableLayout(
        new TableRef(namespace, spec.name()),
        spec.keySchema(),
        spec.indexes().stream().map(IndexLayout::of).toList());
  }

  /**
   * Creates the table with its native indexes as the application's tools would, opens it with
   * Stowage, and writes the even items through the driver's SPI (as another application) and the
   * odd ones through Stowage.
   */
  private Table filled(List<Item> items) {
    TableSpec spec = spec();
    TableLayout layout = layout(store.namespace(), spec);
    kit().fixture().createNativeIndexes(layout);
    Table t = table(spec);
    List<Item> viaStowage = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (i % 2 == 0) {
        driver().put(layout, items.get(i), Expectation.ANY, false);
      } else {
        viaStowage.add(items.get(i));
      }
    }
    t.batchPut(viaStowage);
    return t;
  }

  private static List<Item> expected(
      List<Item> items, Predicate<Item> match, Comparator<Item> order) {
    return items.stream().filter(match).sorted(order).toList();
  }

  private static void checkBothWays(Table t, Query.Builder q, List<Item> ascending) {
    Query asc = q.build();
    assertThat(t.queryAll(asc).toList()).as("%s", asc).containsExactlyElementsOf(ascending);
    List<Item> reversed = new ArrayList<>(ascending);
    Collections.reverse(reversed);
    Query desc = asc.toBuilder().descending().build();
    assertThat(t.queryAll(desc).toList()).as("%s", desc).containsExactlyElementsOf(reversed);
  }

  private static Function<Item, Item> keysAnd(String... attributes) {
    Set<String> keep = new java.util.HashSet<>(Set.of(attributes));
    keep.add("p");
    keep.add("s");
    return i -> i.project(keep);
  }

  @Test
  void aNativeIndexFindsItemsWrittenWithoutStowageInTheValuesOwnOrder() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          List<Item> all = items();
          Table t = filled(all);
          for (String status : List.of("open", "closed")) {
            checkBothWays(
                t,
                Query.index("byStatus").partition(str(status)).limit(4),
                expected(
                    all,
                    i -> i.has("status") && i.getString("status").equals(status),
                    by("created")));
          }
          for (String tag : List.of("t0", "t1")) {
            checkBothWays(
                t,
                Query.index("byTag").partition(str(tag)).limit(3),
                expected(all, i -> i.has("tag") && i.getString("tag").equals(tag), BY_KEY));
          }
          for (KeyValue level : List.of(num(1), num("2.5"))) {
            checkBothWays(
                t,
                Query.index("byLevel").partition(level).limit(5),
                expected(all, i -> i.has("name") && i.get("level").equals(level), by("name"))
                    .stream()
                    .map(keysAnd("level", "name"))
                    .toList());
          }
          checkBothWays(
              t,
              Query.index("byRegion").partition(str("us")).limit(4),
              expected(all, i -> i.getString("region").equals("us"), by("code")));
          assertThat(t.queryAll(Query.index("byStatus").partition(str("none")).build()).toList())
              .isEmpty();
          assertThat(t.queryAll(Query.index("byLevel").partition(num(3)).build()).toList())
              .isEmpty();
          // An index Stowage maintains over the same attributes holds only what Stowage wrote (the
          // odd items, all tagged t1) until a backfill; native indexes need none.
          Query.Builder t0 = Query.index("byTagCreated").partition(str("t0")).limit(4);
          Query.Builder t1 = Query.index("byTagCreated").partition(str("t1")).limit(4);
          assertThat(t.queryAll(t0.build()).toList()).isEmpty();
          checkBothWays(
              t,
              t1,
              expected(all, i -> i.has("tag") && i.getString("tag").equals("t1"), by("created")));
          t.backfillIndexes(dev.stowage.MaintenanceJob.Options.DEFAULT).run();
          checkBothWays(
              t,
              t0,
              expected(all, i -> i.has("tag") && i.getString("tag").equals("t0"), by("created")));
        });
  }

  @Test
  void sortConditionsOnNativeIndexesCompareThePlainValues() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          List<Item> all = items();
          Table t = filled(all);
          Predicate<Item> open = i -> i.has("status") && i.getString("status").equals("open");
          List<Object[]> numeric =
              List.of(
                  new Object[] {SortCondition.eq(num(10)), range("10", true, "10", true)},
                  new Object[] {SortCondition.eq(num("2.5")), range("2.5", true, "2.5", true)},
                  new Object[] {SortCondition.eq(num(7)), range("7", true, "7", true)},
                  new Object[] {SortCondition.lt(num(5)), range(null, false, "5", false)},
                  new Object[] {SortCondition.le(num(5)), range(null, false, "5", true)},
                  new Object[] {SortCondition.gt(num(5)), range("5", false, null, false)},
                  new Object[] {SortCondition.ge(num("-0.25")), range("-0.25", true, null, false)},
                  new Object[] {SortCondition.gt(num("2.4")), range("2.4", false, null, false)},
                  new Object[] {SortCondition.lt(num("10.5")), range(null, false, "10.5", false)},
                  new Object[] {
                    SortCondition.between(num(0), num(10)), range("0", true, "10", true)
                  },
                  new Object[] {
                    SortCondition.between(num("-3"), num("2.5")), range("-3", true, "2.5", true)
                  });
          for (Object[] c : numeric) {
            @SuppressWarnings("unchecked")
            Predicate<Item> in = (Predicate<Item>) c[1];
            checkBothWays(
                t,
                Query.index("byStatus").partition(str("open")).sort((SortCondition) c[0]).limit(3),
                expected(all, open.and(in), by("created")));
          }
          Predicate<Item> levelOne = i -> i.has("name") && i.get("level").equals(num(1));
          for (String prefix : List.of("alp", "z", "b", "zz", "")) {
            checkBothWays(
                t,
                Query.index("byLevel")
                    .partition(num(1))
                    .sort(SortCondition.beginsWith(prefix))
                    .limit(2),
                expected(all, levelOne.and(i -> i.getString("name").startsWith(prefix)), by("name"))
                    .stream()
                    .map(keysAnd("level", "name"))
                    .toList());
          }
          checkBothWays(
              t,
              Query.index("byLevel").partition(num(1)).sort(SortCondition.gt(str("b"))).limit(2),
              expected(
                      all,
                      levelOne.and(
                          i -> dev.stowage.item.Utf8Order.compare(i.getString("name"), "b") > 0),
                      by("name"))
                  .stream()
                  .map(keysAnd("level", "name"))
                  .toList());
          Predicate<Item> eu = i -> i.getString("region").equals("eu");
          checkBothWays(
              t,
              Query.index("byRegion")
                  .partition(str("eu"))
                  .sort(SortCondition.beginsWith(bin(0x7F))),
              expected(
                  all,
                  eu.and(i -> (i.getBinary("code").toByteArray()[0] & 0xFF) == 0x7F),
                  by("code")));
          checkBothWays(
              t,
              Query.index("byRegion").partition(str("eu")).sort(SortCondition.lt(bin(0x7F))),
              expected(
                  all,
                  eu.and(i -> (i.getBinary("code").toByteArray()[0] & 0xFF) < 0x7F),
                  by("code")));
          checkBothWays(
              t,
              Query.index("byRegion").partition(str("eu")).sort(SortCondition.ge(bin(0xFF, 2))),
              expected(
                  all,
                  eu.and(
                      i ->
                          i.getBinary("code")
                                  .compareTo(((AttributeValue.BinaryValue) bin(0xFF, 2)).value())
                              >= 0),
                  by("code")));
        });
  }

  /** Items whose created value lies in the range; null bounds are open. */
  private static Predicate<Item> range(
      String low, boolean lowInclusive, String high, boolean highInclusive) {
    return i -> {
      BigDecimal c = i.getNumber("created");
      if (low != null) {
        int x = c.compareTo(new BigDecimal(low));
        if (x < 0 || (x == 0 && !lowInclusive)) {
          return false;
        }
      }
      if (high != null) {
        int x = c.compareTo(new BigDecimal(high));
        return x < 0 || (x == 0 && highInclusive);
      }
      return true;
    };
  }

  @Test
  void cursorsPageThroughNativeIndexesBothWays() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          List<Item> all = items();
          Table t = filled(all);
          PageWalker walker = new PageWalker(t);
          List<Item> open =
              expected(
                  all, i -> i.has("status") && i.getString("status").equals("open"), by("created"));
          for (int limit : List.of(1, 2, 5)) {
            walker.walkBothWays(
                Query.index("byStatus").partition(str("open")).limit(limit).build(), open);
            List<Item> reversed = new ArrayList<>(open);
            Collections.reverse(reversed);
            walker.walkBothWays(
                Query.index("byStatus").partition(str("open")).descending().limit(limit).build(),
                reversed);
          }
          walker.walkBothWays(
              Query.index("byTag").partition(str("t1")).limit(2).build(),
              expected(all, i -> i.has("tag") && i.getString("tag").equals("t1"), BY_KEY));
          walker.walkBothWays(
              Query.index("byStatus")
                  .partition(str("closed"))
                  .sort(SortCondition.between(num(0), num(10)))
                  .limit(2)
                  .build(),
              expected(
                  all,
                  i ->
                      i.has("status")
                          && i.getString("status").equals("closed")
                          && range("0", true, "10", true).test(i),
                  by("created")));
        });
  }

  @Test
  void filtersAndProjectionsApplyToNativeIndexQueries() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          List<Item> all = items();
          Table t = filled(all);
          checkBothWays(
              t,
              Query.index("byStatus")
                  .partition(str("open"))
                  .filter(Condition.eq("tag", "t0"))
                  .limit(2),
              expected(
                  all,
                  i ->
                      i.has("status")
                          && i.getString("status").equals("open")
                          && i.has("tag")
                          && i.getString("tag").equals("t0"),
                  by("created")));
          checkBothWays(
              t,
              Query.index("byRegion").partition(str("us")).project("payload").limit(3),
              expected(all, i -> i.getString("region").equals("us"), by("code")).stream()
                  .map(keysAnd("payload"))
                  .toList());
        });
  }

  @Test
  void writesAreCheckedAgainstTheDeclaredTypesAndTheIndexesFollowThem() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          List<Item> all = items();
          Table t = filled(all);
          Item wrong =
              Item.builder().put("p", "x").put("s", 1).put("status", 5).put("created", 1).build();
          Throwable e = catchThrowable(() -> t.put(wrong));
          assertThat(e)
              .isInstanceOf(InvalidRequestException.class)
              .hasMessageContaining("status")
              .hasMessageContaining("byStatus")
              .hasMessageContaining("STRING");
          Item wrongSort =
              Item.builder()
                  .put("p", "x")
                  .put("s", 2)
                  .put("status", "open")
                  .put("created", "yesterday")
                  .build();
          assertThatThrownBy(() -> t.batchPut(List.of(wrongSort)))
              .isInstanceOf(InvalidRequestException.class)
              .hasMessageContaining("created");
          assertThat(t.get(Key.of("x", 1), ReadOptions.CONSISTENT)).as("nothing written").isEmpty();
          assertThat(t.get(Key.of("x", 2), ReadOptions.CONSISTENT)).as("nothing written").isEmpty();

          // An update moves the item within the index, removing an attribute takes it out.
          Item first = all.get(0);
          Item moved = t.update(keyOf(first), Update.builder().set("created", 1000).build());
          List<Item> open =
              t.queryAll(Query.index("byStatus").partition(str("open")).build()).toList();
          assertThat(open.get(open.size() - 1)).isEqualTo(moved);
          Item second = all.get(2);
          t.update(keyOf(second), Update.builder().remove("status").build());
          t.delete(keyOf(all.get(4)));
          List<Item> expected =
              new ArrayList<>(
                  expected(
                      all,
                      i ->
                          i.has("status")
                              && i.getString("status").equals("open")
                              && !keyOf(i).equals(keyOf(first))
                              && !keyOf(i).equals(keyOf(second))
                              && !keyOf(i).equals(keyOf(all.get(4))),
                      by("created")));
          expected.add(moved);
          assertThat(t.queryAll(Query.index("byStatus").partition(str("open")).build()).toList())
              .containsExactlyElementsOf(expected);
        });
  }

  @Test
  void malformedNativeIndexQueriesAreRefused() {
    whereSupported(
        Capability.NATIVE_INDEXES,
        () -> {
          Table t = filled(List.of());
          List<Query> bad =
              List.of(
                  Query.index("byStatus").partition(num(1)).build(),
                  Query.index("byStatus").partition(str("open"), str("x")).build(),
                  Query.index("byStatus")
                      .partition(str("open"))
                      .sort(SortCondition.eq(str("x")))
                      .build(),
                  Query.index("byStatus")
                      .partition(str("open"))
                      .sort(SortCondition.eq(num(1), num(2)))
                      .build(),
                  Query.index("byTag").partition(str("t0")).sort(SortCondition.eq(num(1))).build(),
                  Query.index("byLevel").partition(str("1")).build());
          for (Query q : bad) {
            assertThatThrownBy(() -> t.query(q))
                .as("%s", q)
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining(q.index().orElseThrow());
          }
        });
  }
}
