package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Items the size model accepts at the very edge of the limits are accepted by the emulator. */
class LimitsTest {
  static AzureTablesDriver driver;
  static TableLayout table;
  static DriverLimits limits;

  @BeforeAll
  static void start() {
    driver =
        AzureTablesDriver.fromConnectionString(Emulators.shared().azurite().connectionString());
    limits = driver.limits();
    // Declared descending, so items are written in entity-group transactions: Azurite's
    // single-entity writes measure a string property in UTF-8 bytes (32,768 'é' are refused with
    // PropertyValueTooLarge), where the service, and Azurite's transactions, count the UTF-16 code
    // units Azure's 64 KiB limit is about.
    table =
        Layouts.descending(KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.STRING));
    driver.ensureTable(table);
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  static Map<String, AttributeValue> key(String sk) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("pk", AttributeValue.of("p"));
    m.put("sk", AttributeValue.of(sk));
    return m;
  }

  /** The largest n for which the size model accepts the attribute. */
  static int largestAccepted(String name, IntFunction<AttributeValue> make, int max) {
    int lo = 0;
    int hi = max;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (limits.sizeModel().attributeBytes(name, make.apply(mid)) <= limits.maxAttributeBytes()) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  @Test
  void largestAcceptedStringAndBinaryAttributesAreStored() {
    IntFunction<AttributeValue> str = n -> AttributeValue.of("é".repeat(n));
    IntFunction<AttributeValue> bin = n -> AttributeValue.of(new byte[n]);
    IntFunction<AttributeValue> list = n -> AttributeValue.list(AttributeValue.of("x".repeat(n)));
    Map<String, AttributeValue> m = key("attrs");
    m.put("s", str.apply(largestAccepted("s", str, 200_000)));
    m.put("b", bin.apply(largestAccepted("b", bin, 200_000)));
    m.put("l", list.apply(largestAccepted("l", list, 200_000)));
    Item item = StoredItems.of(m);
    assertThat(limits.sizeModel().itemBytes(item)).isLessThanOrEqualTo(limits.maxItemBytes());
    driver.put(table, item, Expectation.ANY, false);
    assertThat(driver.get(table, table.keySchema().keyOf(item), true).orElseThrow().item())
        .isEqualTo(item);
  }

  @Test
  void largestAcceptedItemIsStored() {
    Map<String, AttributeValue> m = key("big");
    int i = 0;
    while (true) {
      Map<String, AttributeValue> next = new HashMap<>(m);
      next.put("a" + i, AttributeValue.of(new byte[30_000]));
      if (limits.sizeModel().itemBytes(StoredItems.of(next)) > limits.maxItemBytes()) {
        break;
      }
      m = next;
      i++;
    }
    // Fill the remaining room with a string sized by the model.
    for (int n = 30_000; n > 0; n /= 2) {
      Map<String, AttributeValue> next = new HashMap<>(m);
      next.put("fill" + n, AttributeValue.of("y".repeat(n)));
      if (limits.sizeModel().itemBytes(StoredItems.of(next)) <= limits.maxItemBytes()) {
        m = next;
      }
    }
    Item item = StoredItems.of(m);
    driver.put(table, item, Expectation.ANY, false);
    assertThat(driver.get(table, table.keySchema().keyOf(item), true).orElseThrow().item())
        .isEqualTo(item);
  }

  @Test
  void widestAcceptedItemIsStored() {
    Map<String, AttributeValue> m = key("wide");
    for (int i = m.size(); i < limits.maxAttributes(); i++) {
      m.put("attribute_" + i, AttributeValue.of(i));
    }
    Item item = StoredItems.of(m);
    assertThat(item.size()).isEqualTo(limits.maxAttributes());
    driver.put(table, item, Expectation.ANY, false);
    var read = driver.get(table, table.keySchema().keyOf(item), true).orElseThrow();
    assertThat(read.item()).isEqualTo(item);
  }

  @Test
  void longestKeysFitEvenInIndexEntries() {
    TableLayout indexed =
        Layouts.layout(
            KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.STRING),
            Layouts.index("byA"));
    driver.ensureTable(indexed);
    byte[] ix = new byte[(int) limits.maxIndexTupleBytes()];
    java.util.Arrays.fill(ix, (byte) 0xFF);
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("pk", AttributeValue.of("p".repeat(limits.maxPartitionKeyBytes())));
    m.put("sk", AttributeValue.of("€".repeat(limits.maxSortKeyBytes() / 3)));
    m.put("stowage:ix:byA:p", AttributeValue.of(ix));
    m.put("stowage:ix:byA:s", AttributeValue.of(ix));
    Item item = StoredItems.of(m);
    driver.put(indexed, item, Expectation.ANY, false);
    var q =
        new dev.stowage.spi.DriverQuery(
            "byA", AttributeValue.of(ix), dev.stowage.spi.KeyRange.ALL, true, 10, null, true);
    assertThat(driver.query(indexed, q).items()).hasSize(1);
  }
}
