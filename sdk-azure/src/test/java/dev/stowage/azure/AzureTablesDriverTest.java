package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AzureTablesDriverTest {
  static AzureTablesDriver driver;
  static final KeySchema STRING_SORT =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.STRING);
  static final KeySchema NUMBER_SORT =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);
  static final KeySchema BINARY_SORT =
      KeySchema.of("pk", AttributeType.BINARY, "sk", AttributeType.BINARY);
  static final KeySchema PARTITION_ONLY = KeySchema.of("id", AttributeType.NUMBER);

  @BeforeAll
  static void start() {
    driver =
        AzureTablesDriver.fromConnectionString(Emulators.shared().azurite().connectionString());
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  static TableLayout table(KeySchema schema) {
    TableLayout layout = Layouts.layout(schema);
    driver.ensureTable(layout);
    return layout;
  }

  static Item item(String pk, AttributeValue sk, Map<String, AttributeValue> more) {
    Map<String, AttributeValue> m = new java.util.HashMap<>(more);
    m.put("pk", AttributeValue.of(pk));
    m.put("sk", sk);
    return StoredItems.of(m);
  }

  @Test
  void nativeIndexesAreRefusedWithTheReasonAndNothingIsCreated() {
    TableLayout layout =
        Layouts.layout(
            NUMBER_SORT,
            dev.stowage.IndexSpec.nativeIndex(
                "byStatus", "status-index", KeySchema.of("status", AttributeType.STRING)));
    assertThat(driver.capabilities()).doesNotContain(dev.stowage.spi.Capability.NATIVE_INDEXES);
    for (Runnable call :
        List.<Runnable>of(() -> driver.ensureTable(layout), () -> driver.openTable(layout))) {
      assertThatThrownBy(call::run)
          .isInstanceOf(UnsupportedCapabilityException.class)
          .hasMessageContaining("NATIVE_INDEXES")
          .hasMessageContaining("only PartitionKey and RowKey")
          .hasMessageContaining("byStatus");
    }
    TableLayout plain = new TableLayout(layout.ref(), NUMBER_SORT, List.of());
    assertThatThrownBy(() -> driver.openTable(plain)).isInstanceOf(NotFoundException.class);
  }

  @Test
  void everyValueTypeRoundTripsExactly() {
    TableLayout t = table(PARTITION_ONLY);
    Map<String, AttributeValue> attrs = new java.util.HashMap<>();
    attrs.put("id", AttributeValue.of(new BigDecimal("-12.5")));
    attrs.put("s", AttributeValue.of("héllo ☃ 𝄞 \"quoted\" \\ /"));
    attrs.put("empty", AttributeValue.of(""));
    attrs.put("long", AttributeValue.of(Long.MIN_VALUE));
    attrs.put("big", AttributeValue.of(new BigDecimal("123456789012345678901234567890.12345678")));
    attrs.put("tiny", AttributeValue.of(new BigDecimal("1E-130")));
    attrs.put("huge", AttributeValue.of(new BigDecimal("9.99E+125")));
    attrs.put("bin", AttributeValue.of(new byte[] {0, -1, 7}));
    attrs.put("emptyBin", AttributeValue.of(new byte[0]));
    attrs.put("t", AttributeValue.of(true));
    attrs.put("f", AttributeValue.of(false));
    attrs.put("nul", AttributeValue.nullValue());
    attrs.put("emptyList", AttributeValue.list());
    attrs.put("emptyMap", AttributeValue.map(Map.of()));
    attrs.put(
        "nested",
        AttributeValue.map(
            Map.of(
                "l",
                AttributeValue.list(
                    AttributeValue.of(1), AttributeValue.nullValue(), AttributeValue.of("x")),
                "m",
                AttributeValue.map(Map.of("deep", AttributeValue.of(new BigDecimal("0.1")))))));
    attrs.put("ss", AttributeValue.stringSet("b", "a"));
    attrs.put("ns", AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("2.5"))));
    attrs.put("bs", AttributeValue.binarySet(List.of(Bytes.of(new byte[] {1}), Bytes.empty())));
    attrs.put("odd name.with-dots and spaces_", AttributeValue.of("v"));
    attrs.put("9starts with digit", AttributeValue.of("v"));
    attrs.put("PartitionKey", AttributeValue.of("not the key"));
    attrs.put("ünïcødé", AttributeValue.of(1));
    attrs.put("stowage:ovf", AttributeValue.of(new byte[] {9}));
    attrs.put("x".repeat(200) + "..........", AttributeValue.of("long escaped name"));
    attrs.put("é".repeat(120), AttributeValue.list(AttributeValue.of("hashed name")));
    Item item = StoredItems.of(attrs);
    WriteResult w = driver.put(t, item, Expectation.ANY, false);
    StoredItem read = driver.get(t, t.keySchema().keyOf(item), true).orElseThrow();
    assertThat(read.item()).isEqualTo(item);
    assertThat(read.token()).isEqualTo(w.token());
  }

  @Test
  void expectationsAndPreviousItems() {
    TableLayout t = table(STRING_SORT);
    Item v1 = item("p", AttributeValue.of("s"), Map.of("n", AttributeValue.of(1)));
    Item v2 = item("p", AttributeValue.of("s"), Map.of("n", AttributeValue.of(2)));
    Key key = t.keySchema().keyOf(v1);
    String t1 = driver.put(t, v1, Expectation.ABSENT, false).token();
    assertThatThrownBy(() -> driver.put(t, v2, Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> driver.put(t, v2, Expectation.token("W/\"nope\""), false))
        .isInstanceOf(ConditionFailedException.class);
    WriteResult w2 = driver.put(t, v2, Expectation.token(t1), true);
    assertThat(w2.previous().orElseThrow().item()).isEqualTo(v1);
    assertThat(w2.token()).isNotEqualTo(t1);
    assertThatThrownBy(() -> driver.delete(t, key, Expectation.token(t1), false))
        .isInstanceOf(ConditionFailedException.class);
    WriteResult d = driver.delete(t, key, Expectation.token(w2.token()), true);
    assertThat(d.previous().orElseThrow().item()).isEqualTo(v2);
    assertThat(driver.get(t, key, true)).isEmpty();
    driver.delete(t, key, Expectation.ANY, false);
    assertThatThrownBy(() -> driver.delete(t, key, Expectation.token(w2.token()), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.query(t, query(AttributeValue.of("p"), KeyRange.ALL, true, 10, null)).items())
        .isEmpty();
  }

  static DriverQuery query(
      AttributeValue partition, KeyRange range, boolean desc, int limit, Position start) {
    return new DriverQuery(
        null, (dev.stowage.item.KeyValue) partition, range, desc, limit, start, true);
  }

  @ParameterizedTest(name = "descendingQueries declared: {0}")
  @ValueSource(booleans = {false, true})
  void numberSortKeysInBothDirectionsWithRangesAndResume(boolean declared) {
    TableLayout t = declared ? Layouts.descending(NUMBER_SORT) : Layouts.layout(NUMBER_SORT);
    driver.ensureTable(t);
    List<BigDecimal> values = new ArrayList<>();
    for (String v :
        List.of("-1000", "-2.5", "-2", "-0.001", "0", "0.001", "1", "1.5", "10", "1E+20")) {
      values.add(AttributeValue.of(new BigDecimal(v)).value());
    }
    List<WriteOp> ops = new ArrayList<>();
    for (BigDecimal v : values) {
      ops.add(
          new WriteOp.Put(
              Key.of(AttributeValue.of("p"), AttributeValue.of(v)),
              item("p", AttributeValue.of(v), Map.of())));
    }
    driver.batchWrite(t, ops);
    KeyRange range =
        new KeyRange(
            AttributeValue.of(new BigDecimal("-2")),
            true,
            AttributeValue.of(new BigDecimal("1.5")),
            false,
            null);
    List<BigDecimal> expected = values.subList(2, 7);
    assertThat(pageAll(t, AttributeValue.of("p"), range, false, 2))
        .containsExactlyElementsOf(expected);
    List<BigDecimal> reversed = new ArrayList<>(expected);
    java.util.Collections.reverse(reversed);
    assertThat(pageAll(t, AttributeValue.of("p"), range, true, 2))
        .containsExactlyElementsOf(reversed);
    List<BigDecimal> all = new ArrayList<>(values);
    java.util.Collections.reverse(all);
    assertThat(pageAll(t, AttributeValue.of("p"), KeyRange.ALL, true, 3))
        .containsExactlyElementsOf(all);
  }

  static List<BigDecimal> pageAll(
      TableLayout t, AttributeValue p, KeyRange range, boolean desc, int limit) {
    List<BigDecimal> out = new ArrayList<>();
    Position start = null;
    while (true) {
      QueryResult r = driver.query(t, query(p, range, desc, limit, start));
      for (StoredItem s : r.items()) {
        out.add(s.item().getNumber("sk"));
      }
      if (!r.more() || r.items().isEmpty()) {
        return out;
      }
      StoredItem last = r.items().get(r.items().size() - 1);
      start = new Position(t.keySchema().keyOf(last.item()), null);
    }
  }

  @ParameterizedTest(name = "descendingQueries declared: {0}")
  @ValueSource(booleans = {false, true})
  void batchesOverTheTransactionLimitAndMissingDeletes(boolean declared) {
    TableLayout t = declared ? Layouts.descending(BINARY_SORT) : Layouts.layout(BINARY_SORT);
    driver.ensureTable(t);
    AttributeValue p = AttributeValue.of(new byte[] {1, 2});
    List<WriteOp> ops = new ArrayList<>();
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Key k =
          Key.of(
              (dev.stowage.item.KeyValue) p,
              AttributeValue.of(new byte[] {(byte) i, (byte) (255 - i)}));
      keys.add(k);
      Map<String, AttributeValue> m = new java.util.HashMap<>();
      m.put("pk", p);
      m.put("sk", k.sortOrNull());
      ops.add(new WriteOp.Put(k, StoredItems.of(m)));
    }
    ops.add(
        new WriteOp.Delete(
            Key.of((dev.stowage.item.KeyValue) p, AttributeValue.of(new byte[] {(byte) 200}))));
    assertThat(driver.batchWrite(t, ops).unprocessed()).isEmpty();
    assertThat(driver.batchGet(t, keys, true).items()).hasSize(100);
    List<WriteOp> deletes =
        keys.subList(0, 60).stream().map(k -> (WriteOp) new WriteOp.Delete(k)).toList();
    driver.batchWrite(t, deletes);
    assertThat(driver.batchGet(t, keys, true).items()).hasSize(40);
    QueryResult desc = driver.query(t, query(p, KeyRange.ALL, true, 100, null));
    assertThat(desc.items()).hasSize(40);
    assertThat(desc.items().get(0).item().getBinary("sk").byteAt(0)).isEqualTo((byte) 99);
  }

  @Test
  void batchGetsOfSparseKeysFallBackToPointReads() {
    TableLayout t = table(NUMBER_SORT);
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Item it = item("p", AttributeValue.of(i), Map.of());
      ops.add(new WriteOp.Put(t.keySchema().keyOf(it), it));
    }
    driver.batchWrite(t, ops);
    List<Key> keys = new ArrayList<>();
    for (int i : new int[] {0, 1, 2, 30, 59, 100, 101, 102}) {
      keys.add(Key.of(AttributeValue.of("p"), AttributeValue.of(i)));
    }
    keys.add(Key.of(AttributeValue.of("other"), AttributeValue.of(1)));
    List<BigDecimal> found =
        driver.batchGet(t, keys, true).items().stream()
            .map(s -> s.item().getNumber("sk"))
            .sorted()
            .toList();
    assertThat(found).extracting(BigDecimal::intValue).containsExactly(0, 1, 2, 30, 59);
  }

  @Test
  void scanResumesWithoutSkipsOrRepeats() {
    TableLayout t = table(STRING_SORT);
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      Item it = item("p" + (i % 4), AttributeValue.of("s" + i), Map.of());
      ops.add(new WriteOp.Put(t.keySchema().keyOf(it), it));
    }
    driver.batchWrite(t, ops);
    List<Key> seen = new ArrayList<>();
    Key start = null;
    while (true) {
      QueryResult r = driver.scan(t, new DriverScan(7, start, true));
      r.items().forEach(s -> seen.add(t.keySchema().keyOf(s.item())));
      if (!r.more()) {
        break;
      }
      start = seen.get(seen.size() - 1);
    }
    assertThat(seen).hasSize(25).doesNotHaveDuplicates();
  }

  @Test
  void namespacesAreIsolated() {
    TableLayout root = new TableLayout(new TableRef("", "shared_name"), PARTITION_ONLY, List.of());
    TableLayout prod =
        new TableLayout(new TableRef("prod", "shared_name"), PARTITION_ONLY, List.of());
    driver.ensureTable(root);
    driver.ensureTable(prod);
    Item it = StoredItems.of(Map.of("id", AttributeValue.of(1)));
    driver.put(root, it, Expectation.ANY, false);
    assertThat(driver.get(prod, Key.of(AttributeValue.of(1)), true)).isEmpty();
    assertThat(driver.get(root, Key.of(AttributeValue.of(1)), true)).isPresent();
    driver.dropTable(root.ref());
    driver.dropTable(prod.ref());
  }

  @Test
  void errorsAreTranslated() {
    TableLayout t = table(STRING_SORT);
    Item longKey = item("p", AttributeValue.of("x".repeat(400)), Map.of());
    assertThatThrownBy(() -> driver.put(t, longKey, Expectation.ANY, false))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("1 KiB");
    Item tooBig =
        item("p", AttributeValue.of("s"), Map.of("v", AttributeValue.of("x".repeat(40_000))));
    assertThatThrownBy(() -> driver.put(t, tooBig, Expectation.ANY, false))
        .isInstanceOf(ItemTooLargeException.class);
    TableLayout missing = Layouts.layout(STRING_SORT);
    assertThatThrownBy(
            () ->
                driver.put(
                    missing, item("p", AttributeValue.of("s"), Map.of()), Expectation.ANY, false))
        .isInstanceOf(NotFoundException.class);
    TableLayout other = new TableLayout(t.ref(), PARTITION_ONLY, List.of());
    assertThatThrownBy(() -> driver.ensureTable(other)).isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void transactionsStayInOnePartition() {
    TableLayout t = table(STRING_SORT);
    Item a = item("p", AttributeValue.of("a"), Map.of());
    Item b = item("p", AttributeValue.of("b"), Map.of());
    Item c = item("q", AttributeValue.of("c"), Map.of());
    String ta = driver.put(t, a, Expectation.ANY, false).token();
    driver.transactWrite(
        List.of(t),
        List.of(
            new TxOp.Check(t.ref(), t.keySchema().keyOf(a), Expectation.token(ta)),
            new TxOp.Put(t.ref(), t.keySchema().keyOf(b), b, Expectation.ABSENT)));
    assertThat(driver.get(t, t.keySchema().keyOf(b), true)).isPresent();
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(t),
                    List.of(
                        new TxOp.Delete(t.ref(), t.keySchema().keyOf(b), Expectation.ANY),
                        new TxOp.Put(t.ref(), t.keySchema().keyOf(a), a, Expectation.ABSENT))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.get(t, t.keySchema().keyOf(b), true)).isPresent();
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(t),
                    List.of(
                        new TxOp.Put(t.ref(), t.keySchema().keyOf(b), b, Expectation.ANY),
                        new TxOp.Put(t.ref(), t.keySchema().keyOf(c), c, Expectation.ANY))))
        .isInstanceOf(UnsupportedCapabilityException.class);
  }
}
