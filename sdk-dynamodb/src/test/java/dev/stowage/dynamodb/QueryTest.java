package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryTest extends DriverTestBase {
  private static final KeyValue P = AttributeValue.of("p");

  private static TableLayout tableWith(AttributeType type, List<KeyValue> sorts) {
    TableLayout t = newTable(type);
    List<WriteOp> ops = new ArrayList<>();
    for (KeyValue s : sorts) {
      ops.add(new WriteOp.Put(Key.of(P, s), Fixtures.item("p", Map.of("sk", s))));
      if (ops.size() == 25) {
        assertThat(driver.batchWrite(t, ops).unprocessed()).isEmpty();
        ops.clear();
      }
    }
    if (!ops.isEmpty()) {
      assertThat(driver.batchWrite(t, ops).unprocessed()).isEmpty();
    }
    return t;
  }

  private static List<KeyValue> all(TableLayout t, KeyRange r, boolean desc, int pageSize) {
    List<KeyValue> out = new ArrayList<>();
    Position start = null;
    while (true) {
      QueryResult res =
          driver.query(t, new DriverQuery(null, P, r, desc, pageSize, start, true));
      assertThat(res.items().size()).isLessThanOrEqualTo(pageSize);
      for (StoredItem i : res.items()) {
        out.add((KeyValue) i.item().get("sk"));
      }
      if (!res.more()) {
        return out;
      }
      assertThat(res.items()).hasSize(pageSize);
      Key last = t.keySchema().keyOf(res.items().get(res.items().size() - 1).item());
      start = new Position(last, null);
    }
  }

  private static void assertOrder(AttributeType type, List<KeyValue> values) {
    TableLayout t = tableWith(type, values);
    List<KeyValue> sorted = new ArrayList<>(values);
    sorted.sort(KeyValue::compare);
    assertThat(all(t, KeyRange.ALL, false, 3)).containsExactlyElementsOf(sorted);
    java.util.Collections.reverse(sorted);
    assertThat(all(t, KeyRange.ALL, true, 4)).containsExactlyElementsOf(sorted);
  }

  @Test
  void stringKeysOrderByUtf8Bytes() {
    assertOrder(
        AttributeType.STRING,
        List.of(s("b"), s("a"), s("ab"), s("Z"), s("é"), s("😀"), s("\uffff"), s("a\u0000")));
  }

  @Test
  void numberKeysOrderNumerically() {
    assertOrder(
        AttributeType.NUMBER,
        List.of(n("10"), n("9"), n("-1"), n("-10.5"), n("0"), n("1E+100"), n("-1E-100"), n("2.25")));
  }

  @Test
  void binaryKeysOrderUnsigned() {
    assertOrder(
        AttributeType.BINARY,
        List.of(
            Fixtures.bin(0xff), Fixtures.bin(0x7f), Fixtures.bin(0), Fixtures.bin(0, 0),
            Fixtures.bin(0x80, 1), Fixtures.bin(1)));
  }

  @Test
  void rangesHonourInclusiveAndExclusiveBounds() {
    List<KeyValue> vals = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      vals.add(AttributeValue.of(i));
    }
    TableLayout t = tableWith(AttributeType.NUMBER, vals);
    KeyValue three = AttributeValue.of(3);
    KeyValue six = AttributeValue.of(6);
    assertThat(all(t, new KeyRange(three, true, six, false, null), false, 1))
        .containsExactly(n("3"), n("4"), n("5"));
    assertThat(all(t, new KeyRange(three, false, six, true, null), true, 2))
        .containsExactly(n("6"), n("5"), n("4"));
    assertThat(all(t, new KeyRange(three, false, six, false, null), false, 10))
        .containsExactly(n("4"), n("5"));
    assertThat(all(t, new KeyRange(three, false, null, false, null), false, 100)).hasSize(6);
    assertThat(all(t, new KeyRange(null, false, three, true, null), false, 100)).hasSize(4);
    assertThat(all(t, new KeyRange(six, true, three, true, null), false, 5)).isEmpty();
    assertThat(all(t, new KeyRange(three, true, three, false, null), false, 5)).isEmpty();
    assertThat(all(t, new KeyRange(three, true, three, true, null), false, 5)).containsExactly(n("3"));
  }

  @Test
  void prefixRangesUseBeginsWith() {
    TableLayout t =
        tableWith(AttributeType.STRING, List.of(s("a"), s("ab"), s("abc"), s("abd"), s("b")));
    assertThat(all(t, new KeyRange(s("ab"), true, s("ac"), false, s("ab")), false, 2))
        .containsExactly(s("ab"), s("abc"), s("abd"));
  }

  @Test
  void scanResumesWithoutSkippingOrRepeating() {
    TableLayout t = newTable(null);
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      ops.add(new WriteOp.Put(Key.of("k" + i), Fixtures.item("k" + i, Map.of())));
    }
    driver.batchWrite(t, ops);
    Set<Key> seen = new HashSet<>();
    Key start = null;
    int pages = 0;
    while (true) {
      QueryResult r = driver.scan(t, new DriverScan(5, start, true));
      pages++;
      for (StoredItem i : r.items()) {
        assertThat(seen.add(t.keySchema().keyOf(i.item()))).isTrue();
      }
      if (!r.more()) {
        break;
      }
      start = t.keySchema().keyOf(r.items().get(r.items().size() - 1).item());
    }
    assertThat(seen).hasSize(23);
    assertThat(pages).isBetween(5, 6);
  }

  private static KeyValue s(String v) {
    return AttributeValue.of(v);
  }

  private static KeyValue n(String v) {
    return AttributeValue.of(new BigDecimal(v));
  }
}
