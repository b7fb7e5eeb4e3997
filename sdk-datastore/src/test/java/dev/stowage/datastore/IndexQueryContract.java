package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every query shape the driver issues: partition queries in both directions with bounds, and index
 * queries on the synthesized {@code stowage:ix:<name>:p}/{@code _s} attributes with ties in the
 * sort value, bounds, sparse items, and paging in both directions. Run against the Firestore
 * emulator and against the legacy emulator that requires every composite index to be declared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IndexQueryContract {
  static final IndexLayout BY_GROUP =
      IndexLayout.of(IndexSpec.of("byGroup", List.of("g"), List.of("v")));
  static final IndexLayout BY_OTHER =
      IndexLayout.of(IndexSpec.of("other", List.of("h"), List.of("w")));

  /** The tables this contract uses, for index.yaml generation. */
  static List<TableLayout> layouts(String namespace) {
    return List.of(
        new TableLayout(
            new TableRef(namespace, "orders"),
            KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER),
            List.of(BY_GROUP, BY_OTHER)),
        new TableLayout(
            new TableRef(namespace, "users"),
            KeySchema.of("pk", AttributeType.BINARY),
            List.of(BY_GROUP)),
        new TableLayout(
            new TableRef(namespace, "adopted"),
            KeySchema.of("pk", AttributeType.STRING),
            List.of(BY_GROUP),
            "AdoptedOrders"));
  }

  abstract DatastoreDriver driver();

  private TableLayout orders;
  private final List<Item> items = new ArrayList<>();

  @BeforeAll
  void load() {
    for (TableLayout t : layouts("")) {
      driver().dropTable(t.ref());
      driver().ensureTable(t);
    }
    orders = layouts("").get(0);
    List<WriteOp> writes = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      m.put("pk", AttributeValue.of("p" + (i % 7)));
      m.put("sk", AttributeValue.of(i));
      if (i % 10 != 9) { // sparse: every tenth item is not in the index
        m.put(BY_GROUP.partitionAttribute(), bin(i % 2));
        m.put(BY_GROUP.sortAttribute(), bin(0xF0 + i % 5, i % 3 == 0 ? 0 : 0xFF));
      }
      m.put("note", AttributeValue.of("x".repeat(2000))); // unindexed, longer than 1500 bytes
      Item it = StoredItems.of(m);
      items.add(it);
      writes.add(new WriteOp.Put(orders.keySchema().keyOf(it), it));
    }
    driver().batchWrite(orders, writes);
  }

  static AttributeValue.BinaryValue bin(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return AttributeValue.of(b);
  }

  private List<Item> expected(int group, KeyRange range, boolean desc) {
    Comparator<Item> order =
        Comparator.<Item, Bytes>comparing(it -> it.getBinary(BY_GROUP.sortAttribute()))
            .thenComparing(it -> orders.keySchema().keyOf(it));
    List<Item> out = new ArrayList<>();
    for (Item it : items) {
      if (it.has(BY_GROUP.partitionAttribute())
          && it.get(BY_GROUP.partitionAttribute()).equals(bin(group))
          && range.contains((KeyValue) it.get(BY_GROUP.sortAttribute()))) {
        out.add(it);
      }
    }
    out.sort(order);
    if (desc) {
      Collections.reverse(out);
    }
    return out;
  }

  private List<Item> pageThroughIndex(int group, KeyRange range, boolean desc, int pageSize) {
    List<Item> out = new ArrayList<>();
    Position after = null;
    while (true) {
      QueryResult r =
          driver()
              .query(
                  orders,
                  new DriverQuery(BY_GROUP.name(), bin(group), range, desc, pageSize, after, true));
      r.items().stream().map(StoredItem::item).forEach(out::add);
      assertThat(r.items().size()).isLessThanOrEqualTo(pageSize);
      if (!r.more()) {
        return out;
      }
      Item last = r.items().get(r.items().size() - 1).item();
      after =
          new Position(
              orders.keySchema().keyOf(last), (KeyValue) last.get(BY_GROUP.sortAttribute()));
    }
  }

  @Test
  void wholeIndexPartitionInBothDirections() {
    for (int g = 0; g < 2; g++) {
      assertThat(pageThroughIndex(g, KeyRange.ALL, false, 100))
          .containsExactlyElementsOf(expected(g, KeyRange.ALL, false));
      assertThat(pageThroughIndex(g, KeyRange.ALL, true, 100))
          .containsExactlyElementsOf(expected(g, KeyRange.ALL, true));
    }
  }

  @Test
  void pagingThroughTiesNeitherSkipsNorRepeats() {
    for (boolean desc : new boolean[] {false, true}) {
      assertThat(pageThroughIndex(1, KeyRange.ALL, desc, 4))
          .containsExactlyElementsOf(expected(1, KeyRange.ALL, desc));
    }
  }

  @Test
  void boundsAndPrefixes() {
    KeyRange exclusive = new KeyRange(bin(0xF1, 0xFF), false, bin(0xF3, 0), true, null);
    KeyRange prefix = new KeyRange(bin(0xF2), true, bin(0xF3), false, bin(0xF2));
    for (KeyRange r : List.of(exclusive, prefix)) {
      for (boolean desc : new boolean[] {false, true}) {
        assertThat(pageThroughIndex(0, r, desc, 3)).containsExactlyElementsOf(expected(0, r, desc));
      }
    }
  }

  @Test
  void partitionQueriesInBothDirections() {
    KeyRange r = new KeyRange(AttributeValue.of(10), true, AttributeValue.of(50), false, null);
    for (boolean desc : new boolean[] {false, true}) {
      List<Item> got = new ArrayList<>();
      Position after = null;
      while (true) {
        QueryResult res =
            driver()
                .query(
                    orders,
                    new DriverQuery(null, AttributeValue.of("p3"), r, desc, 2, after, true));
        res.items().forEach(s -> got.add(s.item()));
        if (!res.more()) {
          break;
        }
        after =
            new Position(
                orders.keySchema().keyOf(res.items().get(res.items().size() - 1).item()), null);
      }
      List<Item> want = new ArrayList<>();
      for (Item it : items) {
        if (it.getString("pk").equals("p3") && r.contains((KeyValue) it.get("sk"))) {
          want.add(it);
        }
      }
      want.sort(Comparator.comparing(it -> orders.keySchema().keyOf(it)));
      if (desc) {
        Collections.reverse(want);
      }
      assertThat(got).containsExactlyElementsOf(want);
    }
  }

  @Test
  void emptyIndexPartition() {
    QueryResult r =
        driver()
            .query(
                orders,
                new DriverQuery(BY_OTHER.name(), bin(1), KeyRange.ALL, true, 5, null, true));
    assertThat(r.items()).isEmpty();
    assertThat(r.more()).isFalse();
  }

  @Test
  void adoptedKindIndexQueriesScansAndPartitions() {
    TableLayout adopted = layouts("").get(2);
    List<Item> written = new ArrayList<>();
    List<WriteOp> writes = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      m.put("pk", AttributeValue.of(String.format("k%02d", i)));
      m.put(BY_GROUP.partitionAttribute(), bin(i % 2));
      m.put(BY_GROUP.sortAttribute(), bin(0xF0 + i % 3)); // ties, ordered by key name
      Item it = StoredItems.of(m);
      written.add(it);
      writes.add(new WriteOp.Put(adopted.keySchema().keyOf(it), it));
    }
    driver().batchWrite(adopted, writes);
    for (boolean desc : new boolean[] {false, true}) {
      List<Item> want = new ArrayList<>();
      for (Item it : written) {
        if (it.get(BY_GROUP.partitionAttribute()).equals(bin(1))) {
          want.add(it);
        }
      }
      want.sort(
          Comparator.<Item, Bytes>comparing(it -> it.getBinary(BY_GROUP.sortAttribute()))
              .thenComparing(it -> adopted.keySchema().keyOf(it)));
      if (desc) {
        Collections.reverse(want);
      }
      List<Item> got = new ArrayList<>();
      Position after = null;
      while (true) {
        QueryResult r =
            driver()
                .query(
                    adopted,
                    new DriverQuery(BY_GROUP.name(), bin(1), KeyRange.ALL, desc, 4, after, true));
        r.items().forEach(s -> got.add(s.item()));
        if (!r.more()) {
          break;
        }
        Item last = r.items().get(r.items().size() - 1).item();
        after =
            new Position(
                adopted.keySchema().keyOf(last), (KeyValue) last.get(BY_GROUP.sortAttribute()));
      }
      assertThat(got).containsExactlyElementsOf(want);
      // A partition of an adopted kind is its one entity, in either direction.
      assertThat(
              driver()
                  .query(
                      adopted,
                      new DriverQuery(
                          null, AttributeValue.of("k05"), KeyRange.ALL, desc, 5, null, true))
                  .items())
          .extracting(StoredItem::item)
          .containsExactly(written.get(5));
    }
    List<Item> scanned = new ArrayList<>();
    Key after = null;
    while (true) {
      QueryResult r = driver().scan(adopted, new dev.stowage.spi.DriverScan(7, after, true));
      r.items().forEach(s -> scanned.add(s.item()));
      if (!r.more()) {
        break;
      }
      after = adopted.keySchema().keyOf(r.items().get(r.items().size() - 1).item());
    }
    assertThat(scanned).containsExactlyElementsOf(written);
  }

  @Test
  void partitionOnlyTableQuery() {
    TableLayout users = layouts("").get(1);
    Item u = StoredItems.of(Map.of("pk", bin(1, 2), "name", AttributeValue.of("ann")));
    driver().put(users, u, dev.stowage.spi.Expectation.ANY, false);
    for (boolean desc : new boolean[] {false, true}) {
      QueryResult r =
          driver()
              .query(users, new DriverQuery(null, bin(1, 2), KeyRange.ALL, desc, 5, null, true));
      assertThat(r.items()).extracting(StoredItem::item).containsExactly(u);
    }
    assertThat(driver().get(users, Key.of(bin(1, 2)), true)).isPresent();
  }
}
