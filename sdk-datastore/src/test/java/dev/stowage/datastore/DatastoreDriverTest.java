package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The driver's primitives against the Firestore emulator in Datastore mode. */
class DatastoreDriverTest extends DriverTestBase {

  static Item item(String pk, String sk, Map<String, AttributeValue> more) {
    Map<String, AttributeValue> m = new LinkedHashMap<>(more);
    m.put("pk", AttributeValue.of(pk));
    if (sk != null) {
      m.put("sk", AttributeValue.of(sk));
    }
    return StoredItems.of(m);
  }

  static Map<String, AttributeValue> everyType() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("s", AttributeValue.of("héllo 🌍"));
    m.put("empty", AttributeValue.of(""));
    m.put("int", AttributeValue.of(-42));
    m.put("bigint", AttributeValue.of(new BigDecimal("123456789012345678901234567890")));
    m.put("dec", AttributeValue.of(new BigDecimal("0.1")));
    m.put("tiny", AttributeValue.of(new BigDecimal("-1E-130")));
    m.put("huge", AttributeValue.of(new BigDecimal("9.99E+125")));
    m.put("bin", AttributeValue.of(new byte[] {0, (byte) 0xFF, 7}));
    m.put("emptybin", AttributeValue.of(new byte[0]));
    m.put("t", AttributeValue.of(true));
    m.put("f", AttributeValue.of(false));
    m.put("nul", AttributeValue.nullValue());
    m.put("emptylist", AttributeValue.list());
    m.put("emptymap", AttributeValue.map(Map.of()));
    m.put(
        "list",
        AttributeValue.list(
            AttributeValue.of("a"),
            AttributeValue.list(AttributeValue.of(1), AttributeValue.list()),
            AttributeValue.map(Map.of("k", AttributeValue.list(AttributeValue.of(2)))),
            AttributeValue.stringSet("x", "y"),
            AttributeValue.nullValue()));
    m.put(
        "map",
        AttributeValue.map(
            Map.of(
                "", AttributeValue.of("empty key"),
                "__x__", AttributeValue.of("reserved-looking key"),
                "~t", AttributeValue.of("tilde"),
                "a.b c", AttributeValue.of(new BigDecimal("1.5")),
                "nested",
                    AttributeValue.map(
                        Map.of("deep", AttributeValue.list(AttributeValue.list()))))));
    m.put("ss", AttributeValue.stringSet("b", "a", ""));
    m.put(
        "ns",
        AttributeValue.numberSet(
            List.of(BigDecimal.ONE, new BigDecimal("2.5"), new BigDecimal("-1E+100"))));
    m.put("bs", AttributeValue.binarySet(List.of(Bytes.of(new byte[] {1}), Bytes.empty())));
    m.put("listofsets", AttributeValue.list(AttributeValue.numberSet(List.of(BigDecimal.TEN))));
    m.put("stowage:ovf", AttributeValue.of(new byte[] {9, 9}));
    m.put("stowage:rq", AttributeValue.list(AttributeValue.of("r1")));
    return m;
  }

  @Test
  void everyValueTypeRoundTripsExactly() {
    TableLayout t = table("", AttributeType.STRING);
    Item item = item("p", "s", everyType());
    WriteResult w = driver.put(t, item, Expectation.ANY, false);
    StoredItem got = driver.get(t, Key.of("p", "s"), true).orElseThrow();
    assertThat(got.item()).isEqualTo(item);
    assertThat(got.token()).isEqualTo(w.token());
    // Sets stay sets, lists stay lists.
    assertThat(got.item().get("ss")).isInstanceOf(AttributeValue.StringSetValue.class);
    assertThat(got.item().get("emptylist")).isInstanceOf(AttributeValue.ListValue.class);
  }

  @Test
  void expectationsAbsentAndTokenAreEnforced() {
    TableLayout t = table("", AttributeType.STRING);
    Item v1 = item("p", "1", Map.of("n", AttributeValue.of(1)));
    Item v2 = item("p", "1", Map.of("n", AttributeValue.of(2)));
    String t1 = driver.put(t, v1, Expectation.ABSENT, false).token();
    assertThatThrownBy(() -> driver.put(t, v2, Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> driver.put(t, v2, Expectation.token("nope"), false))
        .isInstanceOf(ConditionFailedException.class);
    WriteResult w2 = driver.put(t, v2, Expectation.token(t1), true);
    assertThat(w2.previous()).map(StoredItem::item).contains(v1);
    assertThat(w2.token()).isNotEqualTo(t1);
    assertThatThrownBy(() -> driver.delete(t, Key.of("p", "1"), Expectation.token(t1), false))
        .isInstanceOf(ConditionFailedException.class);
    WriteResult d = driver.delete(t, Key.of("p", "1"), Expectation.token(w2.token()), true);
    assertThat(d.previous()).map(StoredItem::item).contains(v2);
    assertThat(driver.get(t, Key.of("p", "1"), true)).isEmpty();
    assertThatThrownBy(() -> driver.delete(t, Key.of("p", "1"), Expectation.token("x"), false))
        .isInstanceOf(ConditionFailedException.class);
    driver.delete(t, Key.of("p", "1"), Expectation.ANY, false);
  }

  @Test
  void batchesAtTheLimits() {
    TableLayout t = table("", AttributeType.NUMBER);
    List<WriteOp> puts = new ArrayList<>();
    for (int i = 0; i < DatastoreDriver.MAX_MUTATIONS; i++) {
      Item it =
          StoredItems.of(
              Map.of(
                  "pk", AttributeValue.of("p" + (i % 3)),
                  "sk", AttributeValue.of(i),
                  "x", AttributeValue.of("v" + i)));
      puts.add(new WriteOp.Put(t.keySchema().keyOf(it), it));
    }
    assertThat(driver.batchWrite(t, puts).unprocessed()).isEmpty();
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < DatastoreDriver.MAX_LOOKUP_KEYS; i++) {
      keys.add(Key.of(AttributeValue.of("p" + (i % 3)), AttributeValue.of(i)));
    }
    BatchGetResult got = driver.batchGet(t, keys, true);
    assertThat(got.items()).hasSize(DatastoreDriver.MAX_MUTATIONS);
    assertThat(got.unprocessed()).isEmpty();
    List<WriteOp> deletes = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      deletes.add(new WriteOp.Delete(keys.get(i)));
    }
    driver.batchWrite(t, deletes);
    assertThat(driver.batchGet(t, keys, true).items()).hasSize(250);
  }

  @Test
  void scanResumesWithoutSkipsOrRepeats() {
    TableLayout t = table("", AttributeType.STRING);
    Set<Item> written = new HashSet<>();
    for (int i = 0; i < 23; i++) {
      Item it = item("p" + (i % 4), "s" + i, Map.of());
      driver.put(t, it, Expectation.ANY, false);
      written.add(it);
    }
    Set<Item> seen = new HashSet<>();
    Key after = null;
    while (true) {
      QueryResult r = driver.scan(t, new DriverScan(5, after, true));
      r.items().forEach(s -> assertThat(seen.add(s.item())).isTrue());
      if (!r.more()) {
        break;
      }
      after = t.keySchema().keyOf(r.items().get(r.items().size() - 1).item());
    }
    assertThat(seen).isEqualTo(written);
  }

  @Test
  void namespacesAreIsolated() {
    TableLayout prod = table("prod", AttributeType.STRING);
    TableLayout staging =
        new TableLayout(new TableRef("staging", prod.ref().table()), prod.keySchema(), List.of());
    driver.ensureTable(staging);
    driver.put(
        prod, item("p", "s", Map.of("env", AttributeValue.of("prod"))), Expectation.ANY, false);
    assertThat(driver.get(staging, Key.of("p", "s"), true)).isEmpty();
    assertThat(driver.scan(staging, new DriverScan(10, null, true)).items()).isEmpty();
    assertThat(driver.scan(prod, new DriverScan(10, null, true)).items()).hasSize(1);
  }

  @Test
  void transactionsAreAllOrNothing() {
    TableLayout a = table("", AttributeType.STRING);
    TableLayout b = table("", AttributeType.STRING);
    Item x = item("x", "1", Map.of());
    String tx = driver.put(a, x, Expectation.ANY, false).token();
    Item y = item("y", "1", Map.of());
    List<TxOp> failing =
        List.of(
            new TxOp.Put(b.ref(), Key.of("y", "1"), y, Expectation.ABSENT),
            new TxOp.Check(a.ref(), Key.of("x", "1"), Expectation.token("stale")));
    assertThatThrownBy(() -> driver.transactWrite(List.of(a, b), failing))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.get(b, Key.of("y", "1"), true)).isEmpty();
    driver.transactWrite(
        List.of(a, b),
        List.of(
            new TxOp.Put(b.ref(), Key.of("y", "1"), y, Expectation.ABSENT),
            new TxOp.Delete(a.ref(), Key.of("x", "1"), Expectation.token(tx))));
    assertThat(driver.get(b, Key.of("y", "1"), true)).isPresent();
    assertThat(driver.get(a, Key.of("x", "1"), true)).isEmpty();
  }

  @Test
  void tablesAreRecordedAndChecked() {
    TableLayout t = table("", AttributeType.STRING);
    driver.ensureTable(t); // idempotent
    TableLayout other =
        new TableLayout(t.ref(), dev.stowage.KeySchema.of("pk", AttributeType.STRING), List.of());
    assertThatThrownBy(() -> driver.ensureTable(other)).isInstanceOf(InvalidRequestException.class);
    driver.put(t, item("p", "s", Map.of()), Expectation.ANY, false);
    driver.dropTable(t.ref());
    assertThatThrownBy(() -> driver.get(t, Key.of("p", "s"), true))
        .isInstanceOf(NotFoundException.class);
    driver.ensureTable(t);
    assertThat(driver.get(t, Key.of("p", "s"), true)).isEmpty();
  }

  @Test
  void oversizedEntitiesAreItemTooLarge() {
    TableLayout t = table("", AttributeType.STRING);
    Item big = item("p", "s", Map.of("blob", AttributeValue.of(new byte[1_100_000])));
    assertThat(driver.limits().sizeModel().itemBytes(big))
        .isGreaterThan(driver.limits().maxItemBytes());
    assertThatThrownBy(() -> driver.put(t, big, Expectation.ANY, false))
        .isInstanceOf(ItemTooLargeException.class);
  }

  @Test
  void anEntityTheSizeModelAcceptsIsStored() {
    TableLayout t = table("", AttributeType.STRING);
    int n = 1_000;
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put("a" + i, AttributeValue.of("x".repeat(1000)));
    }
    Item base = item("p", "s", m);
    long room = driver.limits().maxItemBytes() - driver.limits().sizeModel().itemBytes(base);
    assertThat(room).isPositive();
    Map<String, AttributeValue> all = new LinkedHashMap<>(m);
    all.put("fill", AttributeValue.of("y".repeat((int) Math.max(0, room - 30))));
    Item edge = item("p", "s", all);
    assertThat(driver.limits().sizeModel().itemBytes(edge))
        .isLessThanOrEqualTo(driver.limits().maxItemBytes());
    driver.put(t, edge, Expectation.ANY, false);
    assertThat(driver.get(t, Key.of("p", "s"), true).orElseThrow().item()).isEqualTo(edge);
  }

  @Test
  void keysAtTheLimitsAreStoredAndLongerOnesRefused() {
    TableLayout t = table("", AttributeType.BINARY);
    int pMax = driver.limits().maxPartitionKeyBytes();
    int sMax = driver.limits().maxSortKeyBytes();
    String p = "\u00e9".repeat(pMax / 2);
    byte[] s = new byte[sMax];
    java.util.Arrays.fill(s, (byte) 0xFF);
    Item it = StoredItems.of(Map.of("pk", AttributeValue.of(p), "sk", AttributeValue.of(s)));
    driver.put(t, it, Expectation.ANY, false);
    Key key = Key.of(AttributeValue.of(p), AttributeValue.of(s));
    assertThat(driver.get(t, key, true).orElseThrow().item()).isEqualTo(it);
    assertThatThrownBy(
            () ->
                driver.get(
                    t, Key.of(AttributeValue.of(p + "x"), AttributeValue.of(new byte[1])), true))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(
            () ->
                driver.get(
                    t, Key.of(AttributeValue.of("p"), AttributeValue.of(new byte[sMax + 1])), true))
        .isInstanceOf(InvalidRequestException.class);
  }
}
