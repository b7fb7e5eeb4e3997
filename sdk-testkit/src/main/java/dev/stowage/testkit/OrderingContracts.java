package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.bin;
import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Table;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Keys of every type order the same way on every backend: strings by UTF-8 bytes, numbers
 * numerically, binary as unsigned bytes; in both directions, whole and paged, under every sort
 * condition.
 */
abstract class OrderingContracts extends Contract {

  /**
   * Strings whose UTF-8 order differs from UTF-16 order, and characters backends like to escape.
   */
  static final List<KeyValue> STRINGS =
      List.of(
          str("b"),
          str("a"),
          str("ab"),
          str("B"),
          str("0"),
          str("~"),
          str("a/b"),
          str("a#b"),
          str("a?b"),
          str("a\\b"),
          str("a\tb"),
          str("a\u0001"),
          str("a b"),
          str("\u007f"),
          str("\u0080"),
          str("é"),
          str("\u07ff"),
          str("\u0800"),
          str("\ud7ff"),
          str("\ue000"),
          str("\ufffd"),
          str("😀"),
          str("𝄞"),
          str("\udbff\udfff"),
          str("a😀"),
          str("a\uffff"),
          str("aa"),
          str("%"),
          str("'"),
          str("\""));

  static final List<KeyValue> NUMBERS =
      List.of(
          num("-9.9999999999999999999999999999999999999E+125"),
          num("-1000"),
          num("-100"),
          num("-10"),
          num("-9"),
          num("-1.5"),
          num("-1"),
          num("-0.001"),
          num("-1E-130"),
          num(0),
          num("1E-130"),
          num("0.001"),
          num("0.5"),
          num(1),
          num("1.5"),
          num(2),
          num(9),
          num(10),
          num(11),
          num(100),
          num(1000),
          num("123456789012345678901234567890"),
          num("12345678901234567890.123456789"),
          num("9.9999999999999999999999999999999999999E+125"));

  static final List<KeyValue> BINARIES =
      List.of(
          bin(0),
          bin(0, 0),
          bin(0, 1),
          bin(1),
          bin(0x7f),
          bin(0x7f, 0xff),
          bin(0x80),
          bin(0x80, 0),
          bin(0xfe),
          bin(0xff),
          bin(0xff, 0),
          bin(0xff, 0xff),
          bin(0x41, 0x42),
          bin(0xc3, 0xa9));

  @Test
  void stringSortKeysOrderByUtf8BytesBothWays() {
    checkOrder(
        table(Helpers.spec("strorder", AttributeType.STRING, AttributeType.STRING)),
        str("P"),
        STRINGS);
  }

  @Test
  void numberSortKeysOrderNumericallyBothWays() {
    checkOrder(
        table(Helpers.spec("numorder", AttributeType.STRING, AttributeType.NUMBER)),
        str("P"),
        NUMBERS);
  }

  @Test
  void binarySortKeysOrderAsUnsignedBytesBothWays() {
    checkOrder(
        table(Helpers.spec("binorder", AttributeType.STRING, AttributeType.BINARY)),
        str("P"),
        BINARIES);
  }

  @Test
  void everyKeyTypeWorksAsPartitionKey() {
    for (AttributeType type :
        List.of(AttributeType.STRING, AttributeType.NUMBER, AttributeType.BINARY)) {
      List<KeyValue> values =
          type == AttributeType.STRING
              ? STRINGS
              : type == AttributeType.NUMBER ? NUMBERS : BINARIES;
      Table t = table(Helpers.spec("part" + type.name().toLowerCase(), type, AttributeType.NUMBER));
      for (KeyValue p : values) {
        t.put(Item.builder().put("p", p).put("s", 1).put("v", p).build());
      }
      for (KeyValue p : values) {
        Item got = t.get(Key.of(p, num(1)), ReadOptions.CONSISTENT).orElseThrow();
        assertThat(got.get("v")).as("partition %s", p).isEqualTo(p);
        assertThat(t.queryAll(Query.partition(p).consistentRead(true).build()))
            .as("partition %s holds only its own item", p)
            .containsExactly(got);
      }
      assertThat(Helpers.scanAll(t)).hasSize(values.size());
    }
  }

  @Test
  void sortConditionsSelectTheRightItemsBothWays() {
    Table numbers = table(Helpers.spec("numcond", AttributeType.STRING, AttributeType.NUMBER));
    List<KeyValue> ns = new ArrayList<>();
    for (int i = -5; i <= 20; i++) {
      ns.add(num(i));
    }
    ns.add(num("2.5"));
    ns.add(num("-0.5"));
    put(numbers, str("P"), ns);
    check(numbers, SortCondition.eq(num(5)), ns, v -> cmp(v, num(5)) == 0);
    check(numbers, SortCondition.eq(num(99)), ns, v -> false);
    check(numbers, SortCondition.lt(num(2)), ns, v -> cmp(v, num(2)) < 0);
    check(numbers, SortCondition.le(num("2.5")), ns, v -> cmp(v, num("2.5")) <= 0);
    check(numbers, SortCondition.gt(num(-1)), ns, v -> cmp(v, num(-1)) > 0);
    check(numbers, SortCondition.ge(num(15)), ns, v -> cmp(v, num(15)) >= 0);
    check(
        numbers,
        SortCondition.between(num("-0.5"), num(3)),
        ns,
        v -> cmp(v, num("-0.5")) >= 0 && cmp(v, num(3)) <= 0);
    check(numbers, SortCondition.between(num(7), num(7)), ns, v -> cmp(v, num(7)) == 0);

    Table strings = table(Helpers.spec("strcond", AttributeType.STRING, AttributeType.STRING));
    put(strings, str("P"), STRINGS);
    check(strings, SortCondition.beginsWith("a"), STRINGS, v -> s(v).startsWith("a"));
    check(strings, SortCondition.beginsWith("a😀"), STRINGS, v -> s(v).startsWith("a😀"));
    check(strings, SortCondition.beginsWith("\ud7ff"), STRINGS, v -> s(v).startsWith("\ud7ff"));
    check(strings, SortCondition.beginsWith("zz"), STRINGS, v -> false);
    check(strings, SortCondition.lt(str("a")), STRINGS, v -> cmp(v, str("a")) < 0);
    check(strings, SortCondition.ge(str("é")), STRINGS, v -> cmp(v, str("é")) >= 0);
    check(
        strings,
        SortCondition.between(str("a"), str("b")),
        STRINGS,
        v -> cmp(v, str("a")) >= 0 && cmp(v, str("b")) <= 0);

    Table binaries = table(Helpers.spec("bincond", AttributeType.STRING, AttributeType.BINARY));
    put(binaries, str("P"), BINARIES);
    check(
        binaries,
        SortCondition.beginsWith(bin(0xff)),
        BINARIES,
        v ->
            ((AttributeValue.BinaryValue) v)
                .value()
                .startsWith(((AttributeValue.BinaryValue) bin(0xff)).value()));
    check(binaries, SortCondition.gt(bin(0x7f)), BINARIES, v -> cmp(v, bin(0x7f)) > 0);
    check(binaries, SortCondition.le(bin(0x80)), BINARIES, v -> cmp(v, bin(0x80)) <= 0);
  }

  private static String s(KeyValue v) {
    return ((AttributeValue.StringValue) v).value();
  }

  private static int cmp(KeyValue a, KeyValue b) {
    return KeyValue.compare(a, b);
  }

  private static void put(Table t, KeyValue partition, List<KeyValue> sorts) {
    List<Item> items = new ArrayList<>();
    for (KeyValue s : sorts) {
      items.add(Item.builder().put("p", partition).put("s", s).put("v", s).build());
    }
    t.batchPut(items);
  }

  private void checkOrder(Table t, KeyValue partition, List<KeyValue> sorts) {
    List<KeyValue> shuffled = new ArrayList<>(sorts);
    Collections.shuffle(shuffled, new java.util.Random(7));
    for (KeyValue s : shuffled) {
      t.put(Item.builder().put("p", partition).put("s", s).build());
    }
    List<KeyValue> expected = new ArrayList<>(sorts);
    expected.sort(KeyValue::compare);
    for (int limit : new int[] {1, 3, 100}) {
      Query q = Query.partition(partition).limit(limit).consistentRead(true).build();
      assertThat(sortValues(t.queryAll(q).toList()))
          .as("ascending, pages of %d", limit)
          .containsExactlyElementsOf(expected);
      List<KeyValue> reversed = new ArrayList<>(expected);
      Collections.reverse(reversed);
      assertThat(sortValues(t.queryAll(q.toBuilder().descending().build()).toList()))
          .as("descending, pages of %d", limit)
          .containsExactlyElementsOf(reversed);
    }
  }

  private static void check(
      Table t, SortCondition c, List<KeyValue> all, Predicate<KeyValue> matches) {
    List<KeyValue> expected = new ArrayList<>(all.stream().filter(matches).toList());
    expected.sort(KeyValue::compare);
    for (boolean descending : new boolean[] {false, true}) {
      Query q =
          Query.partition(str("P"))
              .sort(c)
              .descending(descending)
              .limit(2)
              .consistentRead(true)
              .build();
      List<KeyValue> want = new ArrayList<>(expected);
      if (descending) {
        Collections.reverse(want);
      }
      assertThat(sortValues(t.queryAll(q).toList()))
          .as("%s %s", c, descending ? "descending" : "ascending")
          .containsExactlyElementsOf(want);
    }
  }

  private static List<KeyValue> sortValues(List<Item> items) {
    return items.stream().map(i -> (KeyValue) i.get("s")).toList();
  }
}
