package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.bin;
import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.pnSpec;
import static dev.stowage.testkit.Helpers.scanAll;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Capability;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Items come back exactly as written, and bad items are refused before anything is written. */
abstract class ItemContracts extends Contract {
  private static final KeySchema SCHEMA =
      KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER);

  private List<Item> generated() {
    Map<Key, Item> byKey = new LinkedHashMap<>();
    for (Item i : Generators.samples(Generators.items(SCHEMA), scale().roundTripSamples(), 2026)) {
      byKey.put(SCHEMA.keyOf(i), i);
    }
    return new ArrayList<>(byKey.values());
  }

  @Test
  void generatedItemsRoundTripExactlyThroughPutGetAndQuery() {
    Table t = table(TableSpec.builder("roundtrip", SCHEMA).build());
    List<Item> items = generated();
    for (Item i : items) {
      t.put(i);
      assertThat(t.get(SCHEMA.keyOf(i), ReadOptions.CONSISTENT)).contains(i);
    }
    Map<KeyValue, List<Item>> byPartition =
        items.stream().collect(Collectors.groupingBy(i -> SCHEMA.keyOf(i).partition()));
    for (var e : byPartition.entrySet()) {
      List<Item> expected = new ArrayList<>(e.getValue());
      expected.sort(Comparator.comparing(i -> SCHEMA.keyOf(i)));
      List<Item> got =
          t.queryAll(Query.partition(e.getKey()).limit(3).consistentRead(true).build()).toList();
      assertThat(got).as("query of partition %s", e.getKey()).isEqualTo(expected);
    }
  }

  @Test
  void generatedItemsRoundTripExactlyThroughBatchPutAndBatchGet() {
    Table t = table(TableSpec.builder("roundtripb", SCHEMA).build());
    List<Item> items = generated();
    t.batchPut(items);
    Map<Key, Item> expected = new LinkedHashMap<>();
    items.forEach(i -> expected.put(SCHEMA.keyOf(i), i));
    assertThat(t.batchGet(expected.keySet(), ReadOptions.CONSISTENT)).isEqualTo(expected);
  }

  @Test
  void everyValueTypeRoundTrips() {
    Table t = table(pnSpec("types"));
    Item item =
        Item.builder()
            .put("p", "types")
            .put("s", 1)
            .put("string", "héllo 𝄞 wörld")
            .put("emptyString", "")
            .put("number", new BigDecimal("-12345.678900"))
            .put("binary", new byte[] {0, 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff})
            .put("emptyBinary", new byte[0])
            .put("true", true)
            .put("false", false)
            .put("null", AttributeValue.nullValue())
            .put("emptyList", AttributeValue.list(List.of()))
            .put("emptyMap", AttributeValue.map(Map.of()))
            .put(
                "list",
                AttributeValue.list(
                    str("a"),
                    num(1),
                    AttributeValue.nullValue(),
                    AttributeValue.list(AttributeValue.list(), AttributeValue.map(Map.of())),
                    AttributeValue.map(Map.of("k", AttributeValue.of(true)))))
            .put(
                "map",
                AttributeValue.map(
                    Map.of(
                        "nested",
                        AttributeValue.map(Map.of("deeper", AttributeValue.list(num("0.5")))),
                        "",
                        str("empty key"),
                        "__notReservedInsideMaps",
                        num(7))))
            .put("stringSet", AttributeValue.stringSet("b", "a", "", "𝄞"))
            .put(
                "numberSet",
                AttributeValue.numberSet(
                    List.of(new BigDecimal("1"), new BigDecimal("-1E-130"), new BigDecimal("2.5"))))
            .put(
                "binarySet",
                AttributeValue.binarySet(
                    List.of(
                        Bytes.empty(),
                        Bytes.wrap(new byte[] {(byte) 0xff}),
                        Bytes.wrap(new byte[] {0}))))
            .build();
    t.put(item);
    Item got = t.get(key("types", 1), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(got).isEqualTo(item);
    assertThat(got.getString("string")).isEqualTo("héllo 𝄞 wörld");
    assertThat(got.getNumber("number")).isEqualByComparingTo("-12345.6789");
    assertThat(got.getBinary("binary").toByteArray()).containsExactly(0, 1, 0x7f, 0x80, 0xff);
    assertThat(got.get("null").type()).isEqualTo(AttributeType.NULL);
    assertThat(got.getStringSet("stringSet")).containsExactly("", "a", "b", "𝄞");
    assertThat(got.getMap("emptyMap")).isEmpty();
    assertThat(got.getList("emptyList")).isEmpty();
  }

  @Test
  void decimalArithmeticIsExact() {
    Table t = table(pnSpec("decimals"));
    BigDecimal sum = new BigDecimal("0.1").add(new BigDecimal("0.2"));
    t.put(Item.builder().put("p", "d").put("s", 1).put("sum", sum).build());
    assertThat(t.get(key("d", 1), ReadOptions.CONSISTENT).orElseThrow().getNumber("sum"))
        .isEqualTo(new BigDecimal("0.3"));
    t.update(key("d", 2), Update.builder().increment("acc", new BigDecimal("0.1")).build());
    Item after =
        t.update(key("d", 2), Update.builder().increment("acc", new BigDecimal("0.2")).build());
    assertThat(after.getNumber("acc")).isEqualTo(new BigDecimal("0.3"));
    assertThat(t.get(key("d", 2), ReadOptions.CONSISTENT).orElseThrow().getNumber("acc"))
        .isEqualTo(new BigDecimal("0.3"));
  }

  @Test
  void bigAndSmallMagnitudesRoundTripAsAttributesAndKeys() {
    Table t = table(pnSpec("magnitudes"));
    List<BigDecimal> edges = Generators.edgeNumbers();
    Item.Builder b = Item.builder().put("p", "m").put("s", 0);
    for (int i = 0; i < edges.size(); i++) {
      b.put("n" + i, edges.get(i));
    }
    b.put("set", AttributeValue.numberSet(edges));
    Item item = b.build();
    t.put(item);
    assertThat(t.get(key("m", 0), ReadOptions.CONSISTENT)).contains(item);
    for (BigDecimal n : edges) {
      Item k = Item.builder().put("p", "k").put("s", n).put("v", n).build();
      t.put(k);
      assertThat(t.get(Key.of(str("k"), AttributeValue.of(n)), ReadOptions.CONSISTENT))
          .as("number key %s", n)
          .contains(k);
    }
  }

  @Test
  void invalidAttributeNamesAreRejectedBeforeAnythingIsWritten() {
    Table t = table(pnSpec("names"));
    String tooLong = "x".repeat(256);
    String longest = "y".repeat(255);
    assertThatThrownBy(() -> Item.builder().put("stowage:mine", "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Item.builder().put("", "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Item.builder().put(tooLong, "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Item.of(Map.of("stowage:ovf", str("forged"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Update.builder().set("stowage:rq", "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Update.builder().increment("", 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ReadOptions.project("stowage:ix:a:p"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Query.partition("x").project(tooLong))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.exists("")).isInstanceOf(IllegalArgumentException.class);
    assertThat(scanAll(t)).isEmpty();

    Item edge = item("names", 1).toBuilder().put(longest, "longest name").put("𝄞 ü", "x").build();
    t.put(edge);
    assertThat(t.get(key("names", 1), ReadOptions.CONSISTENT)).contains(edge);
  }

  @Test
  void mapKeysRoundTripExactlyAndKeysWithAnUnpairedSurrogateAreRefused() {
    Table t = table(pnSpec("mapkeys"));
    Map<String, AttributeValue> keys = new LinkedHashMap<>();
    for (String k : List.of("", "~", "~~x", "__x__", "__", "𝄞", "a𝄞b", "é", "x y")) {
      keys.put(k, str("value of " + k));
    }
    AttributeValue map = AttributeValue.map(keys);
    Item item =
        Item.builder()
            .put("p", "mk")
            .put("s", 1)
            .put("map", map)
            .put("nested", AttributeValue.list(AttributeValue.map(Map.of("𝄞", map))))
            .build();
    t.put(item);
    assertThat(t.get(key("mk", 1), ReadOptions.CONSISTENT)).contains(item);
    for (String bad : List.of("\uD800", "a\uDC00b", "\uDE00\uD83D")) {
      assertThatThrownBy(() -> AttributeValue.map(Map.of(bad, num(1))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unpaired surrogate");
      assertThatThrownBy(() -> Update.builder().set("m", AttributeValue.map(Map.of(bad, num(1)))))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void valuesNestedToTheLimitRoundTripAndOneLevelMoreIsRefusedBeforeAnythingIsWritten() {
    int max = AttributeValue.MAX_NESTING;
    Table t = table(pnSpec("nesting"));
    Item deep =
        Item.builder()
            .put("p", "deep")
            .put("s", 1)
            .put("maps", Helpers.nestedMaps(max, Helpers.decimalSet()))
            .put("lists", Helpers.nestedLists(max, Helpers.decimalSet()))
            .put("odd", Helpers.nestedLists(max - 1, AttributeValue.map(Map.of("n", num("0.25")))))
            .put("sets", Helpers.nestedMaps(max, AttributeValue.stringSet("a", "𝄞")))
            .build();
    t.put(deep);
    assertThat(t.get(key("deep", 1), ReadOptions.CONSISTENT)).contains(deep);
    assertThat(t.queryAll(Query.partition("deep").build()).toList()).containsExactly(deep);
    Item second = deep.toBuilder().put("s", 2).build();
    t.batchPut(List.of(second));
    assertThat(t.batchGet(List.of(key("deep", 2)), ReadOptions.CONSISTENT))
        .containsEntry(key("deep", 2), second);
    AttributeValue setLater = Helpers.nestedLists(max, num(7));
    Item updated = t.update(key("deep", 1), Update.builder().set("later", setLater).build());
    assertThat(updated.get("later")).isEqualTo(setLater);
    assertThat(t.get(key("deep", 1), ReadOptions.CONSISTENT)).contains(updated);

    for (AttributeValue over :
        List.of(
            Helpers.nestedMaps(max + 1, num(1)),
            Helpers.nestedLists(max + 1, num(1)),
            Helpers.nestedLists(max + 2, AttributeValue.list()))) {
      Item bad = Item.builder().put("p", "bad").put("s", 1).put("tooDeep", over).build();
      assertThatThrownBy(() -> t.put(bad))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("'tooDeep'")
          .hasMessageContaining(String.valueOf(max));
      assertThatThrownBy(() -> t.put(bad, WriteOptions.idempotent("nest-1")))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.batchPut(List.of(item("bad", 2), bad)))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(
              () -> t.update(key("bad", 1), Update.builder().set("tooDeep", over).build()))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("'tooDeep'");
      whereSupported(
          Capability.TRANSACTIONS,
          () ->
              assertThatThrownBy(() -> store.transaction().put(t, bad, null).commit())
                  .isInstanceOf(InvalidRequestException.class));
    }
    // Within the limit alone, one level too deep once appended inside the list.
    assertThatThrownBy(
            () ->
                t.update(
                    key("deep", 1),
                    Update.builder().appendToList("odd", Helpers.nestedMaps(max, num(1))).build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'odd'");
    assertThat(scanAll(t)).containsExactlyInAnyOrder(updated, second);
  }

  @Test
  void reservedAttributesAreRefusedOnEveryWritePath() {
    Table t =
        table(
            TableSpec.builder("reserved", SCHEMA)
                .index("byTag", List.of("tag"), List.of())
                .build());
    Key k = key("r", 1);
    for (String name :
        List.of(
            "stowage:rq",
            "stowage:ovf",
            "stowage:ix:byTag:p",
            "stowage:ix:byTag:s",
            "stowage:tok",
            "stowage:anything")) {
      Map<String, AttributeValue> attrs = new LinkedHashMap<>();
      attrs.put("p", str("r"));
      attrs.put("s", num(1));
      attrs.put("tag", str("real"));
      attrs.put(name, AttributeValue.list(str("req-1")));
      Item planted = StoredItems.of(attrs);
      assertThatThrownBy(() -> t.put(planted))
          .as("put with %s", name)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("'" + name + "'")
          .hasMessageContaining("reserved");
      assertThatThrownBy(() -> t.put(planted, WriteOptions.idempotent("req-2")))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.put(planted, WriteOptions.when(Condition.notExists("p"))))
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.putIfAbsent(planted)).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.batchPut(List.of(planted)))
          .isInstanceOf(InvalidRequestException.class);
      // A stored item's builder keeps what it holds; the write still refuses it.
      assertThatThrownBy(() -> t.put(planted.toBuilder().put("extra", "x").build()))
          .isInstanceOf(InvalidRequestException.class);
      whereSupported(
          Capability.TRANSACTIONS,
          () ->
              assertThatThrownBy(() -> store.transaction().put(t, planted, null).commit())
                  .isInstanceOf(InvalidRequestException.class));
    }
    assertThat(scanAll(t)).as("nothing was written").isEmpty();
    // Nothing planted: the request id applies once, and the index shows only real values.
    Item first =
        t.update(k, Update.builder().increment("n", 1).build(), WriteOptions.idempotent("req-1"));
    assertThat(first.getLong("n")).isEqualTo(1);
    assertThat(
            t.update(
                    k, Update.builder().increment("n", 1).build(), WriteOptions.idempotent("req-1"))
                .getLong("n"))
        .isEqualTo(1);
    assertThat(t.queryAll(Query.index("byTag").partition(str("forged")).build()).toList())
        .isEmpty();
  }

  @Test
  void keyTypeMismatchesAndMissingKeyAttributesAreInvalidRequests() {
    Table t = table(pnSpec("keytypes"));
    Item numberPartition = Item.builder().put("p", 5).put("s", 1).build();
    Item stringSort = Item.builder().put("p", "a").put("s", "1").build();
    Item noSort = Item.builder().put("p", "a").put("x", "y").build();
    Item noPartition = Item.builder().put("s", 1).build();
    for (Item bad : List.of(numberPartition, stringSort, noSort, noPartition)) {
      assertThatThrownBy(() -> t.put(bad))
          .as("put %s", bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.putIfAbsent(bad))
          .as("putIfAbsent %s", bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.batchPut(List.of(item("ok", 1), bad)))
          .as("batchPut %s", bad)
          .isInstanceOf(InvalidRequestException.class);
    }
    List<Key> badKeys =
        List.of(
            Key.of("a"),
            Key.of(str("a"), str("1")),
            Key.of(num(1), num(1)),
            Key.of(bin(1), num(1)));
    for (Key bad : badKeys) {
      assertThatThrownBy(() -> t.get(bad))
          .as("get %s", bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.delete(bad))
          .as("delete %s", bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.update(bad, Update.builder().set("x", "y").build()))
          .as("update %s", bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> t.batchGet(List.of(key("ok", 1), bad)))
          .as("batchGet %s", bad)
          .isInstanceOf(InvalidRequestException.class);
    }
    assertThatThrownBy(() -> t.query(Query.partition(num(1)).build()))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(scanAll(t)).as("nothing was written").isEmpty();
  }

  @Test
  void keysAtTheDeclaredLimitsRoundTrip() {
    var limits = driver().limits();
    Table strings = table(Helpers.spec("limitkeys", AttributeType.STRING, AttributeType.STRING));
    String maxP = "p".repeat(limits.maxPartitionKeyBytes());
    String maxS = "s".repeat(limits.maxSortKeyBytes());
    Item atLimit = Item.builder().put("p", maxP).put("s", maxS).put("v", "fits").build();
    strings.put(atLimit);
    assertThat(strings.get(Key.of(maxP, maxS), ReadOptions.CONSISTENT)).contains(atLimit);
    assertThat(strings.queryAll(Query.partition(maxP).build())).containsExactly(atLimit);
    Table binaries =
        table(Helpers.spec("limitbinkeys", AttributeType.BINARY, AttributeType.BINARY));
    byte[] maxBinP = new byte[limits.maxPartitionKeyBytes()];
    java.util.Arrays.fill(maxBinP, (byte) 0xff);
    Item binAtLimit =
        Item.builder().put("p", maxBinP).put("s", new byte[limits.maxSortKeyBytes()]).build();
    binaries.put(binAtLimit);
    assertThat(scanAll(binaries)).containsExactly(binAtLimit);
  }

  @Test
  void oversizedKeysAreInvalidRequestsAndNothingIsWritten() {
    var limits = driver().limits();
    Table strings = table(Helpers.spec("bigkeys", AttributeType.STRING, AttributeType.STRING));
    String maxP = "p".repeat(limits.maxPartitionKeyBytes());
    String maxS = "s".repeat(limits.maxSortKeyBytes());
    Item bigPartition = Item.builder().put("p", maxP + "p").put("s", "s").build();
    Item bigSort = Item.builder().put("p", "p").put("s", maxS + "s").build();
    // A multi-byte character pushes a key over its limit in bytes, not in characters.
    Item bigUtf8Sort =
        Item.builder().put("p", "p").put("s", "é".repeat(limits.maxSortKeyBytes() / 2 + 1)).build();
    for (Item bad : List.of(bigPartition, bigSort, bigUtf8Sort)) {
      assertThatThrownBy(() -> strings.put(bad))
          .as("put with a key over the limit")
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> strings.batchPut(List.of(bad)))
          .isInstanceOf(InvalidRequestException.class);
    }
    assertThatThrownBy(() -> strings.get(Key.of(maxP + "p", "s")))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(scanAll(strings)).isEmpty();

    Table binaries = table(Helpers.spec("bigbinkeys", AttributeType.BINARY, AttributeType.BINARY));
    Item bigBinary =
        Item.builder()
            .put("p", new byte[limits.maxPartitionKeyBytes() + 1])
            .put("s", new byte[] {1})
            .build();
    assertThatThrownBy(() -> binaries.put(bigBinary)).isInstanceOf(InvalidRequestException.class);
    assertThat(scanAll(binaries)).isEmpty();
  }

  @Test
  void getWithProjectionReturnsKeysAndTheNamedAttributes() {
    Table t = table(pnSpec("projection"));
    Item full = item("pr", 1, "a", "1", "b", "2", "c", "3");
    t.put(full);
    assertThat(t.get(key("pr", 1), new ReadOptions(java.util.Set.of("a", "c"), true)))
        .contains(item("pr", 1, "a", "1", "c", "3"));
    assertThat(t.get(key("pr", 1), new ReadOptions(java.util.Set.of("missing"), true)))
        .contains(item("pr", 1));
    assertThat(t.batchGet(List.of(key("pr", 1)), new ReadOptions(java.util.Set.of("b"), true)))
        .containsEntry(key("pr", 1), item("pr", 1, "b", "2"));
    assertThat(t.query(Query.partition("pr").project("c").consistentRead(true).build()).items())
        .containsExactly(item("pr", 1, "c", "3"));
    t.put(item("pr", 2, "a", "1", "b", "2", "c", "4"));
    var first = t.query(Query.partition("pr").project("c").limit(1).consistentRead(true).build());
    assertThat(t.page(first.after().orElseThrow()).items())
        .as("the projection travels in the cursor")
        .containsExactly(item("pr", 2, "c", "4"));
  }

  @Test
  void consistentReadsSeeTheLatestWrite() {
    Table t = table(pnSpec("consistent"));
    for (int i = 0; i < 20; i++) {
      Item v = item("c", 1, "v", Integer.toString(i));
      t.put(v);
      assertThat(t.get(key("c", 1), ReadOptions.CONSISTENT)).contains(v);
      assertThat(t.query(Query.partition("c").consistentRead(true).build()).items())
          .containsExactly(v);
    }
    assertThat(t.delete(key("c", 1))).isTrue();
    assertThat(t.get(key("c", 1), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(t.delete(key("c", 1))).isFalse();
  }

  @Test
  void putReplacesTheWholeItemAndPutIfAbsentKeepsTheFirst() {
    Table t = table(pnSpec("replace"));
    t.put(item("r", 1, "a", "1", "b", "2"));
    t.put(item("r", 1, "c", "3"));
    assertThat(t.get(key("r", 1), ReadOptions.CONSISTENT)).contains(item("r", 1, "c", "3"));
    assertThat(t.putIfAbsent(item("r", 1, "d", "4"))).isFalse();
    assertThat(t.putIfAbsent(item("r", 2, "d", "4"))).isTrue();
    assertThat(t.get(key("r", 1), ReadOptions.CONSISTENT)).contains(item("r", 1, "c", "3"));
    assertThat(t.get(key("r", 2), ReadOptions.CONSISTENT)).contains(item("r", 2, "d", "4"));
  }

  @Test
  void readsDuringConcurrentOverwritesAlwaysSeeAWholeItem() {
    Table t = table(pnSpec("overwrites"));
    int versions = 2_000;
    t.put(item("o", 1, "v", "0", "w", "0"));
    java.util.concurrent.atomic.AtomicBoolean writing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    // The writer starts once both readers are reading, so reads and overwrites really overlap.
    java.util.concurrent.CountDownLatch readersStarted = new java.util.concurrent.CountDownLatch(2);
    List<java.util.concurrent.Callable<Integer>> tasks = new ArrayList<>();
    tasks.add(
        () -> {
          try {
            readersStarted.await(30, java.util.concurrent.TimeUnit.SECONDS);
            for (int v = 1; v < versions; v++) {
              t.put(item("o", 1, "v", Integer.toString(v), "w", Integer.toString(v)));
            }
            return versions;
          } finally {
            writing.set(false);
          }
        });
    for (int r = 0; r < 2; r++) {
      final boolean viaQuery = r == 1;
      tasks.add(
          () -> {
            int reads = 0;
            do {
              Item got =
                  viaQuery
                      ? t.query(Query.partition("o").consistentRead(true).build()).items().stream()
                          .findFirst()
                          .orElse(null)
                      : t.get(key("o", 1), ReadOptions.CONSISTENT).orElse(null);
              assertThat(got)
                  .as("an overwritten item never disappears (read %d)", reads)
                  .isNotNull();
              assertThat(got.getString("v"))
                  .as("never a mix of two writes")
                  .isEqualTo(got.getString("w"));
              reads++;
              if (reads == 1) {
                readersStarted.countDown();
              }
            } while (writing.get());
            return reads;
          });
    }
    Helpers.runConcurrently(tasks);
  }
}
