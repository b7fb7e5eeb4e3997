package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The key encoding's order, checked against Azure's own: random sort keys are stored through the
 * driver, read back in Azure's RowKey order (and through the mirror rows in reverse) and compared
 * with Stowage's order (strings by UTF-8 bytes, numbers numerically, binary unsigned).
 */
class KeyOrderOnAzuriteProperties {
  private static AzureTablesDriver driver;

  private static synchronized AzureTablesDriver driver() {
    if (driver == null) {
      driver =
          AzureTablesDriver.fromConnectionString(Emulators.shared().azurite().connectionString());
    }
    return driver;
  }

  @AfterContainer
  static void close() {
    if (driver != null) {
      driver.close();
      driver = null;
    }
  }

  @Property(tries = 4)
  void stringKeys(@ForAll @Size(min = 1, max = 60) List<@From("strings") String> values) {
    check(AttributeType.STRING, values.stream().map(v -> (KeyValue) AttributeValue.of(v)).toList());
  }

  @Property(tries = 4)
  void numberKeys(@ForAll @Size(min = 1, max = 60) List<@From("numbers") BigDecimal> values) {
    check(AttributeType.NUMBER, values.stream().map(v -> (KeyValue) AttributeValue.of(v)).toList());
  }

  @Property(tries = 4)
  void binaryKeys(@ForAll @Size(min = 1, max = 60) List<@From("bytes") byte[]> values) {
    check(AttributeType.BINARY, values.stream().map(v -> (KeyValue) AttributeValue.of(v)).toList());
  }

  @Provide
  Arbitrary<String> strings() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(12),
        Arbitraries.strings().withChars("aAzZ09 -_/\\#?~!").ofMaxLength(6),
        Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(5),
        Arbitraries.integers()
            .between(0x10000, 0x10FFFF)
            .map(cp -> new String(Character.toChars(cp)) + "x"));
  }

  @Provide
  Arbitrary<BigDecimal> numbers() {
    Arbitrary<BigInteger> unscaled =
        Arbitraries.bigIntegers()
            .between(
                new BigInteger("-99999999999999999999"), new BigInteger("99999999999999999999"));
    Arbitrary<Integer> scale = Arbitraries.integers().between(-20, 40);
    return Combinators.combine(unscaled, scale).as(BigDecimal::new);
  }

  @Provide
  Arbitrary<byte[]> bytes() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(12);
  }

  private static void check(AttributeType type, List<KeyValue> values) {
    KeySchema schema = KeySchema.of("pk", AttributeType.STRING, "sk", type);
    // Declared descending: read back in reverse through the mirror rows, whose reversed encoding
    // this checks (undeclared tables read descending pages in forward RowKey order).
    TableLayout table = Layouts.descending(schema);
    driver().ensureTable(table);
    TreeMap<KeyValue, Key> expected = new TreeMap<>(KeyValue::compare);
    Map<Key, WriteOp> ops = new LinkedHashMap<>();
    for (KeyValue v : values) {
      Key key = Key.of(AttributeValue.of("p"), v);
      expected.put(v, key);
      ops.put(key, new WriteOp.Put(key, StoredItems.of(Map.of("pk", key.partition(), "sk", v))));
    }
    driver().batchWrite(table, new ArrayList<>(ops.values()));
    List<KeyValue> ascending = read(table, false);
    assertThat(ascending).containsExactlyElementsOf(expected.keySet());
    List<KeyValue> descending = read(table, true);
    List<KeyValue> reversed = new ArrayList<>(expected.keySet());
    Collections.reverse(reversed);
    assertThat(descending).containsExactlyElementsOf(reversed);
    driver().dropTable(table.ref());
  }

  private static List<KeyValue> read(TableLayout table, boolean descending) {
    DriverQuery q =
        new DriverQuery(null, AttributeValue.of("p"), KeyRange.ALL, descending, 1000, null, true);
    return driver().query(table, q).items().stream()
        .map(s -> (KeyValue) s.item().get("sk"))
        .toList();
  }
}
