package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.datastore.internal.KeyNamesAccess;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The emulator's {@code __key__} order over encoded key names equals Stowage's key order (strings
 * by UTF-8 bytes, numbers numerically, binary unsigned), partitions never bleed into each other,
 * and paging with positions neither skips nor repeats, in both directions.
 */
class KeyOrderPropertyTest {
  private static final AtomicInteger TABLES = new AtomicInteger();
  private static DatastoreDriver driver;

  @BeforeContainer
  static void start() {
    driver = DatastoreDriver.of(Emulators.shared().datastore().client());
  }

  @AfterContainer
  static void stop() {
    driver.close();
  }

  @Property(tries = 6)
  void stringSortKeys(
      @ForAll("strings") List<String> sorts, @ForAll("strings") List<String> parts) {
    check(
        AttributeType.STRING,
        sorts.stream().map(s -> (KeyValue) AttributeValue.of(s)).toList(),
        parts);
  }

  @Property(tries = 6)
  void numberSortKeys(@ForAll("numbers") List<BigDecimal> sorts) {
    check(
        AttributeType.NUMBER,
        sorts.stream().map(n -> (KeyValue) AttributeValue.of(n)).toList(),
        List.of("a"));
  }

  @Property(tries = 6)
  void binarySortKeys(
      @ForAll("binaries") List<byte[]> sorts, @ForAll("strings") List<String> parts) {
    check(
        AttributeType.BINARY,
        sorts.stream().map(b -> (KeyValue) AttributeValue.of(b)).toList(),
        parts);
  }

  @Property(tries = 300)
  void partitionGroupsPreserveOrderAndArePrefixFree(@ForAll("binaries") List<byte[]> raws) {
    List<Bytes> sorted = new ArrayList<>(raws.stream().map(Bytes::of).toList());
    Collections.sort(sorted);
    for (int i = 1; i < sorted.size(); i++) {
      int c = sorted.get(i - 1).compareTo(sorted.get(i));
      Bytes a = Bytes.of(KeyNamesAccess.sevenBitGroups(sorted.get(i - 1).toByteArray()));
      Bytes b = Bytes.of(KeyNamesAccess.sevenBitGroups(sorted.get(i).toByteArray()));
      assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(c));
      assertThat(c == 0 || !b.startsWith(a)).isTrue();
    }
  }

  @Property(tries = 300)
  void namesAreNeverReservedAndAlwaysAscii(
      @ForAll("strings") List<String> parts, @ForAll("binaries") List<byte[]> sorts) {
    for (String p : parts) {
      for (byte[] s : sorts) {
        String name =
            dev.stowage.datastore.internal.KeyNames.name(
                Key.of(AttributeValue.of(p), AttributeValue.of(s)));
        assertThat(name).doesNotStartWith("__").matches("[-0-9A-Z_a-z]+");
      }
    }
  }

  @Property(tries = 300)
  void namesPreserveOrder(@ForAll("binaries") List<byte[]> raws) {
    List<Bytes> sorted = new ArrayList<>(raws.stream().map(Bytes::of).toList());
    Collections.sort(sorted);
    for (int i = 1; i < sorted.size(); i++) {
      int c = sorted.get(i - 1).compareTo(sorted.get(i));
      String a = KeyNamesAccess.toName(sorted.get(i - 1).toByteArray());
      String b = KeyNamesAccess.toName(sorted.get(i).toByteArray());
      assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(c));
    }
  }

  private void check(AttributeType sortType, List<KeyValue> sorts, List<String> partitions) {
    TableLayout t =
        new TableLayout(
            new TableRef("", "k" + TABLES.incrementAndGet() + "-order"),
            KeySchema.of("pk", AttributeType.STRING, "sk", sortType),
            List.of());
    driver.ensureTable(t);
    LinkedHashSet<String> partSet = new LinkedHashSet<>(partitions);
    partSet.add("");
    List<String> parts = new ArrayList<>(partSet);
    List<KeyValue> distinct = distinct(sorts);
    List<WriteOp> writes = new ArrayList<>();
    for (String p : parts) {
      for (KeyValue s : distinct) {
        Item it = StoredItems.of(Map.of("pk", AttributeValue.of(p), "sk", s));
        writes.add(new WriteOp.Put(Key.of(AttributeValue.of(p), s), it));
      }
    }
    for (int i = 0; i < writes.size(); i += 500) {
      driver.batchWrite(t, writes.subList(i, Math.min(writes.size(), i + 500)));
    }
    List<KeyValue> expected = new ArrayList<>(distinct);
    expected.sort(KeyValue::compare);
    String p = parts.get(0);
    assertThat(page(t, p, false, KeyRange.ALL)).containsExactlyElementsOf(expected);
    List<KeyValue> reversed = new ArrayList<>(expected);
    Collections.reverse(reversed);
    assertThat(page(t, p, true, KeyRange.ALL)).containsExactlyElementsOf(reversed);
    if (expected.size() >= 3) {
      KeyValue lo = expected.get(1);
      KeyValue hi = expected.get(expected.size() - 2);
      assertThat(page(t, p, false, new KeyRange(lo, false, hi, true, null)))
          .containsExactlyElementsOf(expected.subList(2, expected.size() - 1));
      assertThat(page(t, p, true, new KeyRange(lo, true, hi, false, null)))
          .containsExactlyElementsOf(reversed.subList(2, reversed.size() - 1));
    }
    List<Key> scanned = new ArrayList<>();
    driver
        .scan(t, new dev.stowage.spi.DriverScan(writes.size() + 1, null, true))
        .items()
        .forEach(it -> scanned.add(t.keySchema().keyOf(it.item())));
    List<Key> keys = new ArrayList<>(writes.stream().map(WriteOp::key).toList());
    Collections.sort(keys);
    assertThat(scanned).containsExactlyElementsOf(keys);
    driver.dropTable(t.ref());
  }

  /** Pages through a partition three items at a time. */
  private static List<KeyValue> page(TableLayout t, String p, boolean desc, KeyRange range) {
    List<KeyValue> out = new ArrayList<>();
    Position after = null;
    while (true) {
      QueryResult r =
          driver.query(t, new DriverQuery(null, AttributeValue.of(p), range, desc, 3, after, true));
      for (StoredItem s : r.items()) {
        assertThat(s.item().getString("pk")).isEqualTo(p);
        out.add((KeyValue) s.item().get("sk"));
      }
      if (!r.more()) {
        return out;
      }
      after = new Position(t.keySchema().keyOf(r.items().get(r.items().size() - 1).item()), null);
    }
  }

  private static List<KeyValue> distinct(List<KeyValue> values) {
    List<KeyValue> out = new ArrayList<>();
    for (KeyValue v : values) {
      if (out.stream().noneMatch(o -> KeyValue.compare(o, v) == 0)) {
        out.add(v);
      }
    }
    return out;
  }

  @Provide
  Arbitrary<List<String>> strings() {
    Arbitrary<String> s =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(4),
            Arbitraries.strings().withChars('a', 'b', '\u0000', '\uffff', 'é').ofMaxLength(4),
            Arbitraries.strings().all().ofMaxLength(3),
            Arbitraries.of("😀", "\uD83D\uDE00a", "\uffff", "\uE000", "a\u0000", "a"));
    return s.filter(KeyOrderPropertyTest::validUtf16).list().ofMinSize(1).ofMaxSize(25);
  }

  @Provide
  Arbitrary<List<BigDecimal>> numbers() {
    Arbitrary<BigDecimal> n =
        Arbitraries.oneOf(
            Arbitraries.bigDecimals()
                .between(new BigDecimal("-1000"), new BigDecimal("1000"))
                .ofScale(3),
            Arbitraries.longs().map(BigDecimal::valueOf),
            Arbitraries.integers()
                .between(-130, 125)
                .flatMap(
                    e ->
                        Arbitraries.integers()
                            .between(-99, 99)
                            .map(m -> new BigDecimal(m).scaleByPowerOfTen(e))),
            Arbitraries.of(
                BigDecimal.ZERO,
                new BigDecimal("1E-130"),
                new BigDecimal("-1E-130"),
                new BigDecimal("9.9999999999999999999999999999999999999E+125"),
                new BigDecimal("-9.9999999999999999999999999999999999999E+125"),
                new BigDecimal("0.1"),
                new BigDecimal("0.11"),
                new BigDecimal("-0.1"),
                new BigDecimal("-0.11")));
    return n.filter(KeyOrderPropertyTest::portable).list().ofMinSize(1).ofMaxSize(25);
  }

  @Provide
  Arbitrary<List<byte[]>> binaries() {
    Arbitrary<byte[]> b =
        Arbitraries.oneOf(
            Arbitraries.bytes().array(byte[].class).ofMaxSize(5),
            Arbitraries.of((byte) 0, (byte) -1, (byte) 1, (byte) 0x7F, (byte) 0x80)
                .array(byte[].class)
                .ofMaxSize(4));
    return b.list().ofMinSize(1).ofMaxSize(25);
  }

  private static boolean validUtf16(String s) {
    try {
      AttributeValue.of(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean portable(BigDecimal n) {
    try {
      AttributeValue.of(n);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
