package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IndexQueryTest extends DriverTestBase {
  static final IndexLayout BY_A = Fixtures.index("byA", IndexSpec.Projection.ALL);
  static final IndexLayout KEYS = Fixtures.index("ko", IndexSpec.Projection.KEYS_ONLY);
  static TableLayout table;

  /** 12 items in index partition 0x01 with sort values 0x10..0x15, two items per value. */
  @BeforeAll
  static void fill() {
    table = newTable(AttributeType.STRING, BY_A, KEYS);
    for (int i = 0; i < 12; i++) {
      Map<String, AttributeValue> m = new HashMap<>();
      m.put("sk", AttributeValue.of(String.format("%02d", i)));
      m.put("payload", AttributeValue.of("item" + i));
      m.put(BY_A.partitionAttribute(), Fixtures.bin(1));
      m.put(BY_A.sortAttribute(), Fixtures.bin(0x10 + i / 2));
      m.put(KEYS.partitionAttribute(), Fixtures.bin(2));
      m.put(KEYS.sortAttribute(), Fixtures.bin(0x20 + i));
      driver.put(table, Fixtures.item("p" + (i % 3), m), Expectation.ANY, false);
    }
    // Not indexed: lacks the synthesized attributes.
    driver.put(
        table, Fixtures.item("p0", Map.of("sk", AttributeValue.of("zz"))), Expectation.ANY, false);
  }

  private static List<StoredItem> all(
      IndexLayout ix, KeyValue part, KeyRange r, boolean desc, int page) {
    List<StoredItem> out = new ArrayList<>();
    Position start = null;
    while (true) {
      QueryResult res =
          driver.query(table, new DriverQuery(ix.name(), part, r, desc, page, start, false));
      out.addAll(res.items());
      if (!res.more()) {
        return out;
      }
      Item last = res.items().get(res.items().size() - 1).item();
      start = new Position(table.keySchema().keyOf(last), (KeyValue) last.get(ix.sortAttribute()));
    }
  }

  private static List<Integer> sortBytes(List<StoredItem> items, IndexLayout ix) {
    List<Integer> out = new ArrayList<>();
    items.forEach(i -> out.add(i.item().getBinary(ix.sortAttribute()).byteAt(0) & 0xff));
    return out;
  }

  @Test
  void indexQueryPagesInSortOrderWithoutSkippingOrRepeating() {
    List<StoredItem> asc = all(BY_A, Fixtures.bin(1), KeyRange.ALL, false, 5);
    assertThat(asc).hasSize(12);
    assertThat(sortBytes(asc, BY_A)).isSorted();
    assertThat(asc).isSortedAccordingTo(IndexQueryTest::indexOrder);
    for (int page : new int[] {1, 2, 3}) {
      assertThat(all(BY_A, Fixtures.bin(1), KeyRange.ALL, false, page))
          .containsExactlyElementsOf(asc);
      List<StoredItem> reversed = new ArrayList<>(asc);
      java.util.Collections.reverse(reversed);
      assertThat(all(BY_A, Fixtures.bin(1), KeyRange.ALL, true, page))
          .containsExactlyElementsOf(reversed);
    }
    assertThat(asc.stream().map(i -> table.keySchema().keyOf(i.item())).distinct().count())
        .isEqualTo(12);
    List<StoredItem> desc = all(BY_A, Fixtures.bin(1), KeyRange.ALL, true, 4);
    List<Integer> d = sortBytes(desc, BY_A);
    assertThat(d).hasSize(12).first().isEqualTo(0x15);
    assertThat(d).last().isEqualTo(0x10);
  }

  /** Index order: sort value, then primary key. */
  private static int indexOrder(StoredItem a, StoredItem b) {
    int c =
        a.item()
            .getBinary(BY_A.sortAttribute())
            .compareTo(b.item().getBinary(BY_A.sortAttribute()));
    return c != 0
        ? c
        : table.keySchema().keyOf(a.item()).compareTo(table.keySchema().keyOf(b.item()));
  }

  @Test
  void tiesBeyondOnePageStayInPrimaryKeyOrder() {
    TableLayout t = newTable(AttributeType.STRING, BY_A);
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      Map<String, AttributeValue> m = new HashMap<>();
      m.put("sk", AttributeValue.of("s" + (i * 7919 % 30)));
      m.put(BY_A.partitionAttribute(), Fixtures.bin(1));
      m.put(BY_A.sortAttribute(), Fixtures.bin(i < 25 ? 5 : 6));
      Item item = Fixtures.item("q" + (i * 31 % 7), m);
      keys.add(t.keySchema().keyOf(item));
      driver.put(t, item, Expectation.ANY, false);
    }
    List<Key> expected = new ArrayList<>(keys.subList(0, 25));
    expected.sort(null);
    List<Key> tail = new ArrayList<>(keys.subList(25, 30));
    tail.sort(null);
    expected.addAll(tail);
    for (int page : new int[] {4, 25, 100}) {
      List<Key> got = new ArrayList<>();
      Position start = null;
      while (true) {
        QueryResult res =
            driver.query(
                t,
                new DriverQuery(
                    BY_A.name(), Fixtures.bin(1), KeyRange.ALL, false, page, start, false));
        res.items().forEach(s -> got.add(t.keySchema().keyOf(s.item())));
        if (!res.more()) {
          break;
        }
        Item last = res.items().get(res.items().size() - 1).item();
        start = new Position(t.keySchema().keyOf(last), (KeyValue) last.get(BY_A.sortAttribute()));
      }
      assertThat(got).as("page size " + page).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void indexRangesAndExclusiveBounds() {
    KeyRange r = new KeyRange(Fixtures.bin(0x11), false, Fixtures.bin(0x14), false, null);
    assertThat(sortBytes(all(BY_A, Fixtures.bin(1), r, false, 1), BY_A))
        .containsExactly(0x12, 0x12, 0x13, 0x13);
    KeyRange prefix =
        new KeyRange(Fixtures.bin(0x13), true, Fixtures.bin(0x14), false, Fixtures.bin(0x13));
    assertThat(all(BY_A, Fixtures.bin(1), prefix, false, 10)).hasSize(2);
    assertThat(all(BY_A, Fixtures.bin(1), prefix, false, 1)).hasSize(2);
    assertThat(all(BY_A, Fixtures.bin(1), prefix, true, 1)).hasSize(2);
    assertThat(all(BY_A, Fixtures.bin(9), KeyRange.ALL, false, 10)).isEmpty();
  }

  @Test
  void indexResultsCarryTokensAndFullItems() {
    List<StoredItem> items = all(BY_A, Fixtures.bin(1), KeyRange.ALL, false, 100);
    for (StoredItem i : items) {
      Key k = table.keySchema().keyOf(i.item());
      StoredItem direct = driver.get(table, k, true).orElseThrow();
      assertThat(i).isEqualTo(direct);
    }
  }

  @Test
  void keysOnlyIndexReturnsKeysIndexAttributesAndToken() {
    // Drivers may return more than a KEYS_ONLY index needs; this one projects ALL.
    List<StoredItem> items = all(KEYS, Fixtures.bin(2), KeyRange.ALL, true, 7);
    assertThat(items).hasSize(12);
    StoredItem first = items.get(0);
    assertThat(first.item().names()).contains("pk", "sk", "payload", KEYS.sortAttribute());
    assertThat(first.token())
        .isEqualTo(
            driver.get(table, table.keySchema().keyOf(first.item()), true).orElseThrow().token());
  }
}
