package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ItemRoundTripTest extends DriverTestBase {

  static Map<String, AttributeValue> everyType() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("s", AttributeValue.of("héllo 🌍"));
    m.put("empty", AttributeValue.of(""));
    m.put("n", AttributeValue.of(42));
    m.put("neg", AttributeValue.of(new BigDecimal("-0.000123")));
    m.put("exact", AttributeValue.of(new BigDecimal("12345678901234567890123456789012345678")));
    m.put("huge", AttributeValue.of(new BigDecimal("9.99E+125")));
    m.put("tiny", AttributeValue.of(new BigDecimal("1E-130")));
    m.put("zero", AttributeValue.of(0));
    m.put("b", AttributeValue.of(new byte[] {0, -1, 7}));
    m.put("emptyBin", AttributeValue.of(new byte[0]));
    m.put("t", AttributeValue.of(true));
    m.put("f", AttributeValue.of(false));
    m.put("nul", AttributeValue.nullValue());
    m.put(
        "list",
        AttributeValue.list(
            AttributeValue.of("x"), AttributeValue.of(1), AttributeValue.nullValue()));
    m.put("emptyList", AttributeValue.list(List.of()));
    m.put("emptyMap", AttributeValue.map(Map.of()));
    m.put(
        "nested",
        AttributeValue.map(
            Map.of(
                "inner",
                AttributeValue.list(
                    AttributeValue.map(Map.of("deep", AttributeValue.of(new BigDecimal("1.5")))),
                    AttributeValue.list(List.of())),
                "odd name.with #chars",
                AttributeValue.of(""),
                "",
                AttributeValue.of("empty key"),
                "\uE000",
                AttributeValue.of("escape character key"),
                "\uE000\uE000x",
                AttributeValue.of(1))));
    m.put("ss", AttributeValue.stringSet("a", "b", ""));
    m.put(
        "ns",
        AttributeValue.numberSet(
            List.of(BigDecimal.ONE, new BigDecimal("2.5"), new BigDecimal("-3"))));
    m.put(
        "bs",
        AttributeValue.binarySet(List.of(Bytes.of(new byte[] {1}), Bytes.of(new byte[] {2, 3}))));
    m.put("status", AttributeValue.of("reserved word as a name"));
    return m;
  }

  @Test
  void everyValueTypeRoundTripsExactly() {
    TableLayout t = newTable(AttributeType.NUMBER);
    Map<String, AttributeValue> attrs = everyType();
    attrs.put("sk", AttributeValue.of(new BigDecimal("-1.25")));
    Item item = Fixtures.item("p", attrs);
    var written = driver.put(t, item, Expectation.ANY, false);
    StoredItem read =
        driver
            .get(
                t, Key.of(AttributeValue.of("p"), AttributeValue.of(new BigDecimal("-1.25"))), true)
            .orElseThrow();
    assertThat(read.item()).isEqualTo(item);
    assertThat(read.token()).isEqualTo(written.token());
    assertThat(read.item().has("stowage:tok")).isFalse();
  }

  @Test
  void binaryAndNumberKeysAndReservedAttributesRoundTrip() {
    TableLayout t = newTable(AttributeType.BINARY);
    Item item =
        StoredItems.of(
            Map.of(
                "pk", AttributeValue.of("p"),
                "sk", Fixtures.bin(0xff, 0),
                "stowage:ovf", Fixtures.bin(1, 2, 3),
                "stowage:rq", AttributeValue.list(AttributeValue.of("r1"))));
    driver.put(t, item, Expectation.ANY, false);
    assertThat(driver.get(t, Key.of(AttributeValue.of("p"), Fixtures.bin(0xff, 0)), false))
        .map(StoredItem::item)
        .contains(item);
  }

  @Test
  void missingItemIsEmpty() {
    TableLayout t = newTable(null);
    assertThat(driver.get(t, Key.of("nope"), true)).isEmpty();
  }
}
