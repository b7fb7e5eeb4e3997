package dev.stowage.spi;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link StoredItems#withIndexValues}: the index attributes the core writes, from stored forms. */
class StoredItemsIndexValuesTest {
  static final KeySchema KEY = KeySchema.of("id", STRING, "line", NUMBER);
  static final TableSpec SPEC =
      TableSpec.builder("orders", KEY)
          .index("byStatus", List.of("status"), List.of("total", "line"))
          .index("byShop", List.of("shop", "id"), List.of())
          .compressed("notes")
          .build();

  /** What the core stores for {@code item}, read back raw from the memory driver. */
  static Item storedByTheCore(Item item) {
    MemoryDriver driver = MemoryDriver.create();
    Stowage.builder(driver).build().ensureTable(SPEC).put(item);
    TableLayout layout =
        new TableLayout(
            new TableRef("", "orders"), KEY, SPEC.indexes().stream().map(IndexLayout::of).toList());
    return driver.scan(layout, new DriverScan(10, null, true)).items().get(0).item();
  }

  static Item without(Item stored, String prefix) {
    Map<String, AttributeValue> m = new LinkedHashMap<>(stored.attributes());
    m.keySet().removeIf(n -> n.startsWith(prefix));
    return StoredItems.of(m);
  }

  static Item with(Item stored, String name, AttributeValue value) {
    Map<String, AttributeValue> m = new LinkedHashMap<>(stored.attributes());
    m.put(name, value);
    return StoredItems.of(m);
  }

  @Test
  void computesExactlyWhatTheCoreWrites() {
    Item item =
        Item.builder()
            .put("id", "o-1")
            .put("line", 3)
            .put("status", "shipped")
            .put("total", new BigDecimal("19.99"))
            .put("shop", "berlin")
            .put("notes", "gift wrap ".repeat(100))
            .build();
    Item stored = storedByTheCore(item);
    assertThat(stored.attributes().keySet())
        .contains("stowage:ix:byStatus:p", "stowage:ix:byStatus:s", "stowage:ix:byShop:p");
    Item bare = without(stored, IndexLayout.ATTRIBUTE_PREFIX);

    Item computed = StoredItems.withIndexValues(SPEC, MemoryLimits.dynamoDb(), bare);

    assertThat(computed).isEqualTo(stored);
    // the compressed attribute is copied as it is stored, without keys or codecs
    assertThat(computed.attributes().get("notes")).isEqualTo(stored.attributes().get("notes"));
  }

  @Test
  void replacesStaleValuesAndDropsThoseOfIndexesTheSpecDoesNotDeclare() {
    Item stored =
        storedByTheCore(
            Item.builder()
                .put("id", "o-2")
                .put("line", 1)
                .put("status", "open")
                .put("total", 5)
                .put("shop", "paris")
                .build());
    Item planted =
        with(
            with(stored, "stowage:ix:byStatus:p", AttributeValue.of(new byte[] {2, 0, 0, 0, 0})),
            "stowage:ix:gone:p",
            AttributeValue.of(new byte[] {1}));

    assertThat(StoredItems.withIndexValues(SPEC, MemoryLimits.dynamoDb(), planted))
        .isEqualTo(stored);
  }

  @Test
  void anItemLackingAnIndexedAttributeGetsNoValuesForThatIndex() {
    Item stored =
        storedByTheCore(Item.builder().put("id", "o-3").put("line", 1).put("shop", "rome").build());
    assertThat(stored.attributes().keySet())
        .noneMatch(n -> n.startsWith("stowage:ix:byStatus"))
        .contains("stowage:ix:byShop:p");

    Item computed =
        StoredItems.withIndexValues(
            SPEC, MemoryLimits.dynamoDb(), without(stored, IndexLayout.ATTRIBUTE_PREFIX));

    assertThat(computed).isEqualTo(stored);
  }

  @Test
  void refusesValuesAnIndexCannotHold() {
    Item wrongType =
        StoredItems.of(
            Map.of(
                "id", AttributeValue.of("o-4"),
                "line", AttributeValue.of(1),
                "status", AttributeValue.of(true),
                "total", AttributeValue.of(1)));
    assertThatThrownBy(() -> StoredItems.withIndexValues(SPEC, MemoryLimits.dynamoDb(), wrongType))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'status'")
        .hasMessageContaining("byStatus")
        .hasMessageContaining("BOOLEAN");

    Item tooLong =
        StoredItems.of(
            Map.of(
                "id", AttributeValue.of("o-5"),
                "line", AttributeValue.of(1),
                "status", AttributeValue.of("x".repeat(2100)),
                "total", AttributeValue.of(1)));
    assertThatThrownBy(() -> StoredItems.withIndexValues(SPEC, MemoryLimits.azure(), tooLong))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("byStatus");
    Item longOnAzure =
        StoredItems.of(
            Map.of(
                "id", AttributeValue.of("o-6"),
                "line", AttributeValue.of(1),
                "status", AttributeValue.of("x".repeat(300)),
                "total", AttributeValue.of(1)));
    assertThat(StoredItems.withIndexValues(SPEC, MemoryLimits.azure(), longOnAzure).attributes())
        .as("a value longer than Azure indexes takes the long form")
        .containsKey("stowage:ix:byStatus:p");

    Item keyless = StoredItems.of(Map.of("status", AttributeValue.of("open")));
    assertThatThrownBy(() -> StoredItems.withIndexValues(SPEC, MemoryLimits.dynamoDb(), keyless))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'id'");
  }

  /** The same items under another spec: one index, on another attribute. */
  static final TableSpec BY_SHOP =
      TableSpec.builder("orders", KEY)
          .index("byShopOnly", List.of("shop"), List.of("line"))
          .compressed("notes")
          .build();

  static Item storedByTheCore(TableSpec spec, Item item) {
    MemoryDriver driver = MemoryDriver.create();
    Stowage.builder(driver).build().ensureTable(spec).put(item);
    TableLayout layout =
        new TableLayout(
            new TableRef("", "orders"), KEY, spec.indexes().stream().map(IndexLayout::of).toList());
    return driver.scan(layout, new DriverScan(10, null, true)).items().get(0).item();
  }

  @Test
  void specsAndLimitsTakenInTurnsFromManyThreadsEachGiveTheirOwnValues() throws Exception {
    // The form of the last spec and limits is reused: calls alternating between specs and
    // limits, from several threads at once, must each get what the core writes for their spec.
    Item item =
        Item.builder()
            .put("id", "o-9")
            .put("line", 7)
            .put("status", "open")
            .put("total", new BigDecimal("2.50"))
            .put("shop", "oslo")
            .build();
    Item bySpec = storedByTheCore(SPEC, item);
    Item byShop = storedByTheCore(BY_SHOP, item);
    assertThat(byShop.attributes().keySet())
        .contains("stowage:ix:byShopOnly:p")
        .noneMatch(n -> n.startsWith("stowage:ix:byStatus"));
    Item bare = without(bySpec, IndexLayout.ATTRIBUTE_PREFIX);
    List<dev.stowage.spi.DriverLimits> limits =
        List.of(MemoryLimits.dynamoDb(), MemoryLimits.datastore(), MemoryLimits.azure());
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 2000; i++) {
                    boolean first = (i + thread) % 2 == 0;
                    Item computed =
                        StoredItems.withIndexValues(
                            first ? SPEC : BY_SHOP, limits.get((i / 2 + thread) % 3), bare);
                    assertThat(computed).isEqualTo(first ? bySpec : byShop);
                  }
                }));
      }
      for (var f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
