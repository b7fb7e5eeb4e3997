package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.SizeModel;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The size model against DynamoDB Local, which enforces the 400 KB item limit. */
class ItemSizeLimitTest extends DriverTestBase {
  private static final long LIMIT = DynamoDbDriver.MAX_ITEM_BYTES;

  /** An item of exactly {@code bytes} by the model: "pk" plus filler attributes. */
  private static Item sized(long bytes, Map<String, AttributeValue> extra) {
    SizeModel model = driver.limits().sizeModel();
    Map<String, AttributeValue> m = new HashMap<>(extra);
    m.put("pk", AttributeValue.of("k"));
    long used = model.itemBytes(StoredItems.of(m));
    m.put("fill", AttributeValue.of("x".repeat((int) (bytes - used - 4))));
    Item item = StoredItems.of(m);
    assertThat(model.itemBytes(item)).isEqualTo(bytes);
    return item;
  }

  @Test
  void anItemAtTheModelsLimitIsAccepted() {
    TableLayout t = newTable(null);
    Map<String, AttributeValue> extra = new HashMap<>();
    List<AttributeValue> nested = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      extra.put(
          "n" + i,
          AttributeValue.of(new BigDecimal("1234567890.123456789").add(BigDecimal.valueOf(i))));
      nested.add(
          AttributeValue.map(Map.of("k", AttributeValue.of(i), "b", AttributeValue.of(true))));
    }
    extra.put("nested", AttributeValue.list(nested));
    extra.put("ns", AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("-2.5E+40"))));
    Item item = sized(LIMIT, extra);
    driver.put(t, item, Expectation.ANY, false);
    assertThat(driver.get(t, Key.of("k"), true).orElseThrow().item()).isEqualTo(item);
  }

  @Test
  void indexKeysBeyondDynamoDbsKeyLimitsAreItemTooLarge() {
    dev.stowage.spi.IndexLayout ix = Fixtures.index("big", dev.stowage.IndexSpec.Projection.ALL);
    TableLayout t = newTable(null, ix);
    byte[] sortValue = new byte[1025];
    byte[] partitionValue = new byte[2049];
    Item bigSort =
        StoredItems.of(
            Map.of(
                "pk",
                AttributeValue.of("a"),
                ix.partitionAttribute(),
                Fixtures.bin(1),
                ix.sortAttribute(),
                AttributeValue.of(sortValue)));
    assertThatThrownBy(() -> driver.put(t, bigSort, Expectation.ANY, false))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("key");
    Item bigPartition =
        StoredItems.of(
            Map.of(
                "pk",
                AttributeValue.of("b"),
                ix.partitionAttribute(),
                AttributeValue.of(partitionValue),
                ix.sortAttribute(),
                Fixtures.bin(1)));
    assertThatThrownBy(() -> driver.put(t, bigPartition, Expectation.ANY, false))
        .isInstanceOf(ItemTooLargeException.class);
    assertThat(driver.get(t, Key.of("a"), true)).isEmpty();
    sortValue = new byte[1024];
    Item atLimit =
        StoredItems.of(
            Map.of(
                "pk",
                AttributeValue.of("c"),
                ix.partitionAttribute(),
                AttributeValue.of(new byte[2048]),
                ix.sortAttribute(),
                AttributeValue.of(sortValue)));
    driver.put(t, atLimit, Expectation.ANY, false);
  }

  @Test
  void stringsAreCountedExactlySoOneByteMoreIsRejected() {
    TableLayout t = newTable(null);
    driver.put(t, sized(LIMIT, Map.of()), Expectation.ANY, false);
    assertThatThrownBy(() -> driver.put(t, sized(LIMIT + 1, Map.of()), Expectation.ANY, false))
        .isInstanceOf(ItemTooLargeException.class);
  }
}
