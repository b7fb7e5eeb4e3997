package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.ConditionFailedException;
import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Adopting an Azure table that other tools wrote: a data set written with the plain {@link
 * TableClient} (hundreds of entities, every EDM type, property names with {@code _}, {@code __} and
 * digits, properties at Azure's 64 KiB limit, keys with quotes, spaces and characters beyond the
 * BMP) reads exactly through Stowage, in Azure's key order, survives Stowage's read-modify-writes
 * property by property and type by type, and is never joined by rows of Stowage's.
 */
class AdoptedTableTest {
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final DateTimeFormatter TICKS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final OffsetDateTime EPOCH =
      OffsetDateTime.of(2024, 3, 1, 8, 0, 0, 0, ZoneOffset.UTC);

  /** Partition keys: plain, accented, CJK, beyond the BMP, with a quote, with space, % and +. */
  private static final List<String> CUSTOMERS =
      List.of("cust-001", "Zoë-Müller", "客户42", "emoji-🌍", "it's", "space and %+");

  /**
   * Row keys: 50 plain ones and ten that Azure's UTF-16 order sorts differently from code point
   * order ({@code 😀} is a surrogate pair, below U+E000 and U+FFFD in UTF-16, above them as a code
   * point), with a quote, with space.
   */
  private static final List<String> SPECIAL_ORDERS =
      List.of(
          "ü-1", "Ω", "\uE000-private", "😀-smile", "\uFFFD", "a'b", "with space", "ä", "Z", "0");

  private static final int PLAIN_ORDERS = 50;
  private static final String SMALL = "a".repeat(1000);

  private static String conn;
  private static TableServiceClient service;
  private static Stowage stowage;
  private static String physical;
  private static TableClient native_;
  private static TableSpec spec;
  private static Table orders;

  /** What each native entity reads as, by key. */
  private static final Map<Key, Item> EXPECTED = new LinkedHashMap<>();

  @BeforeAll
  static void writeNativeDataSet() {
    conn = Emulators.shared().azurite().connectionString();
    service = new TableServiceClientBuilder().connectionString(conn).buildClient();
    String namespace = "ad" + Long.toString(System.nanoTime() % 1_000_000, 36);
    stowage =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn)).namespace(namespace).build();
    physical = freshName("Orders");
    native_ = service.createTableIfNotExists(physical);
    if (native_ == null) {
      native_ = service.getTableClient(physical);
    }
    int serial = 0;
    for (int c = 0; c < CUSTOMERS.size(); c++) {
      List<TableTransactionAction> batch = new ArrayList<>();
      List<String> rowKeys = new ArrayList<>();
      for (int i = 0; i < PLAIN_ORDERS; i++) {
        rowKeys.add(String.format("o-%04d", i));
      }
      rowKeys.addAll(SPECIAL_ORDERS);
      for (String rk : rowKeys) {
        TableEntity e = nativeOrder(CUSTOMERS.get(c), rk, serial++);
        EXPECTED.put(orderKey(CUSTOMERS.get(c), rk), expected(e));
        if (e.getProperty("blob_big") != null) {
          native_.createEntity(e);
          continue;
        }
        // Small bodies: see nativeOrder on Azurite and multi-byte characters.
        batch.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
        if (batch.size() == 10) {
          native_.submitTransaction(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        native_.submitTransaction(batch);
      }
    }
    spec = ordersSpec().build();
    orders = stowage.table(spec);
  }

  @AfterAll
  static void tearDown() {
    stowage.close();
  }

  private static String freshName(String base) {
    return base + Long.toString(System.nanoTime() % 100_000_000L, 36) + COUNTER.incrementAndGet();
  }

  private static TableSpec.Builder ordersSpec() {
    return TableSpec.builder(
            "orders",
            KeySchema.of("customer", AttributeType.STRING, "orderId", AttributeType.STRING))
        .adopt(physical);
  }

  private static Key orderKey(String customer, String orderId) {
    return Key.of(AttributeValue.of(customer), AttributeValue.of(orderId));
  }

  /**
   * An order as an application using the Tables client writes it: every EDM type. Some orders of
   * customers whose names are ASCII carry properties at Azure's 64 KiB limit; those orders are
   * ASCII throughout, because Azurite corrupts a multi-byte character that straddles two chunks of
   * a request body (Azure/Azurite#2670), which large bodies have.
   */
  private static TableEntity nativeOrder(String customer, String orderId, int n) {
    boolean big = n % 40 == 0 && customer.chars().allMatch(ch -> ch < 128);
    TableEntity e = new TableEntity(customer, orderId);
    e.addProperty("status", List.of("open", "shipped", "cancelled").get(n % 3));
    e.addProperty("customer_name", big ? "Zoe " + n : "Zoë " + n + " 🌍");
    e.addProperty("line_total", n + 0.25);
    e.addProperty("item2_count", n);
    e.addProperty("Order2024_total", 10_000_000_000L + n);
    e.addProperty("__meta", "m" + n);
    e.addProperty("a__b", n % 2 == 0);
    if (n % 5 == 0) {
      // A copy of the key, as applications often keep: it reads as the key attribute.
      e.addProperty("orderId", orderId);
    }
    e.addProperty("_private", UUID.nameUUIDFromBytes(("g" + n).getBytes(StandardCharsets.UTF_8)));
    // Unique per entity, with 100 ns ticks Azure keeps.
    e.addProperty("placed_at", EPOCH.plusSeconds(n).plusNanos(100L * (n % 10_000_000)));
    e.addProperty("photo", new byte[] {(byte) n, 0, -1});
    e.addProperty("x_", n % 4 == 0 ? "" : "x");
    if (big) {
      // At Azure's property limit, 64 KiB: 32768 UTF-16 characters, 65536 bytes.
      e.addProperty("notes_big", "n".repeat(32_768));
      byte[] blob = new byte[65_536];
      java.util.Arrays.fill(blob, (byte) n);
      e.addProperty("blob_big", blob);
    }
    return e;
  }

  /** What a native entity reads as through Stowage. */
  private static Item expected(TableEntity e) {
    Item.Builder b =
        Item.builder().put("customer", e.getPartitionKey()).put("orderId", e.getRowKey());
    e.getProperties()
        .forEach(
            (name, v) -> {
              if (name.equals("PartitionKey")
                  || name.equals("RowKey")
                  || name.equals("orderId")
                  || name.contains(".")) {
                return;
              }
              if (v instanceof String s) {
                b.put(name, s);
              } else if (v instanceof Integer i) {
                b.put(name, i);
              } else if (v instanceof Long l) {
                b.put(name, l);
              } else if (v instanceof Double d) {
                b.put(name, new BigDecimal(Double.toString(d)));
              } else if (v instanceof Boolean z) {
                b.put(name, z);
              } else if (v instanceof UUID u) {
                b.put(name, u.toString());
              } else if (v instanceof OffsetDateTime t) {
                b.put(name, TICKS.format(t));
              } else if (v instanceof byte[] bytes) {
                b.put(name, bytes);
              } else {
                throw new AssertionError(name + " " + v);
              }
            });
    return b.build();
  }

  /** The entity's properties as the Tables client reads them, without the service's own. */
  private static Map<String, Object> nativeProperties(TableClient t, String pk, String rk) {
    TableEntity e = t.getEntity(pk, rk);
    Map<String, Object> out = new TreeMap<>();
    e.getProperties()
        .forEach(
            (k, v) -> {
              if (!k.contains("odata.")
                  && !k.contains("@")
                  && !List.of("PartitionKey", "RowKey", "Timestamp").contains(k)) {
                out.put(k, v instanceof byte[] b ? Bytes.of(b) : v);
              }
            });
    return out;
  }

  /** Stowage's own properties: its bookkeeping and its reserved {@code stowage:} attributes. */
  private static boolean stowageProperty(String name) {
    return name.startsWith("_0_") || name.startsWith("_3_stowage_3a_");
  }

  private static Map<String, Object> withoutStowage(Map<String, Object> props) {
    Map<String, Object> out = new TreeMap<>(props);
    out.keySet().removeIf(AdoptedTableTest::stowageProperty);
    return out;
  }

  private static Set<String> tableNames() {
    return service.listTables().stream().map(TableItem::getName).collect(Collectors.toSet());
  }

  private static List<Item> scanAll(Table t) {
    List<Item> out = new ArrayList<>();
    Page page = t.scan(Scan.all().withLimit(97));
    out.addAll(page.items());
    while (page.after().isPresent()) {
      page = t.page(page.after().get());
      out.addAll(page.items());
    }
    return out;
  }

  /** The native order of a partition's RowKeys, as the Tables client lists them. */
  private static List<String> nativeRowKeys(String customer) {
    List<String> out = new ArrayList<>();
    String filter = "PartitionKey eq '" + customer.replace("'", "''") + "'";
    native_
        .listEntities(new ListEntitiesOptions().setFilter(filter), null, null)
        .forEach(e -> out.add(e.getRowKey()));
    return out;
  }

  private static List<String> orderIds(List<Item> items) {
    return items.stream().map(i -> i.getString("orderId")).toList();
  }

  @Test
  void everyNativeEntityReadsExactly() {
    List<Item> scanned = scanAll(orders);
    Map<Key, Item> byKey = new LinkedHashMap<>();
    for (Item i : scanned) {
      Key k = orderKey(i.getString("customer"), i.getString("orderId"));
      if (EXPECTED.containsKey(k)) {
        byKey.put(k, i);
      }
    }
    assertThat(byKey).hasSize(EXPECTED.size()).hasSize(CUSTOMERS.size() * 60);
    EXPECTED.forEach((k, v) -> assertThat(diff(v, byKey.get(k))).as(k.toString()).isEmpty());
    for (Key k : List.copyOf(EXPECTED.keySet()).subList(0, 70)) {
      assertThat(orders.get(k)).as(k.toString()).contains(EXPECTED.get(k));
    }
    assertThat(orders.batchGet(EXPECTED.keySet())).isEqualTo(EXPECTED);
  }

  @Test
  void queriesFollowAzuresOrderBothWays() {
    for (String customer : CUSTOMERS) {
      List<String> azureOrder = nativeRowKeys(customer);
      // Azure compares UTF-16 code units: the surrogate pair of 😀 sorts below U+E000.
      assertThat(azureOrder).isSortedAccordingTo(Comparator.naturalOrder());
      List<Item> ascending = orders.queryAll(Query.partition(customer).limit(9).build()).toList();
      assertThat(orderIds(ascending)).isEqualTo(azureOrder);
      for (Item i : ascending) {
        assertThat(diff(EXPECTED.get(orderKey(customer, i.getString("orderId"))), i)).isEmpty();
      }
      List<Item> descending =
          orders.queryAll(Query.partition(customer).descending().limit(7).build()).toList();
      List<String> reversed = new ArrayList<>(azureOrder);
      java.util.Collections.reverse(reversed);
      assertThat(orderIds(descending)).isEqualTo(reversed);
    }
    String c = CUSTOMERS.get(1);
    assertThat(
            orderIds(
                orders
                    .queryAll(
                        Query.partition(c)
                            .sort(
                                SortCondition.between(
                                    AttributeValue.of("o-0010"), AttributeValue.of("o-0019")))
                            .descending()
                            .limit(3)
                            .build())
                    .toList()))
        .containsExactly(
            "o-0019", "o-0018", "o-0017", "o-0016", "o-0015", "o-0014", "o-0013", "o-0012",
            "o-0011", "o-0010");
    List<String> prefixed = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      prefixed.add(String.format("o-000%d", i));
    }
    assertThat(
            orderIds(
                orders
                    .queryAll(
                        Query.partition(c).sort(SortCondition.beginsWith("o-000")).limit(4).build())
                    .toList()))
        .isEqualTo(prefixed);
    assertThat(
            orderIds(
                orders
                    .queryAll(
                        Query.partition(c)
                            .sort(SortCondition.beginsWith("o-000"))
                            .descending()
                            .limit(4)
                            .build())
                    .toList()))
        .isEqualTo(reversed(prefixed));
    // Beyond the BMP: the prefix range follows Azure's order too.
    assertThat(
            orderIds(
                orders
                    .queryAll(Query.partition(c).sort(SortCondition.beginsWith("😀")).build())
                    .toList()))
        .containsExactly("😀-smile");
    assertThat(
            orderIds(
                orders
                    .queryAll(
                        Query.partition(c)
                            .sort(SortCondition.gt(AttributeValue.of("😀-smile")))
                            .build())
                    .toList()))
        .as("Azure's order: U+E000 and U+FFFD sort above the surrogate pair")
        .containsExactly("\uE000-private", "\uFFFD");
    Page first = orders.query(Query.partition(c).descending().limit(5).build());
    assertThat(first.hasBefore()).as("descending pages continue before").isTrue();
    assertThat(orderIds(first.items()))
        .containsExactly("\uFFFD", "\uE000-private", "😀-smile", "Ω", "ü-1");
    assertThat(orderIds(orders.page(first.before().orElseThrow()).items()))
        .containsExactly("ä", "with space", "o-0049", "o-0048", "o-0047");
  }

  @Test
  void readModifyWritesLeaveEveryOtherPropertyAsItWas() {
    for (int c = 0; c < CUSTOMERS.size(); c++) {
      String customer = CUSTOMERS.get(c);
      // Some of these have properties at the 64 KiB limit (see nativeOrder).
      for (String rk : List.of("o-0000", SPECIAL_ORDERS.get(c), "o-0020")) {
        Key key = orderKey(customer, rk);
        Map<String, Object> before = nativeProperties(native_, customer, rk);
        Item read = orders.get(key).orElseThrow();
        assertThat(diff(EXPECTED.get(key), read)).as("read " + key).isEmpty();
        orders.put(read);
        assertThat(diff(before, nativeProperties(native_, customer, rk)))
            .as("get and put of " + key)
            .isEmpty();
        orders.batchPut(List.of(read));
        assertThat(diff(before, nativeProperties(native_, customer, rk)))
            .as("batchPut of " + key)
            .isEmpty();
        Item updated =
            orders.update(
                key,
                Update.builder().set("status", "returned").increment("item2_count", 1).build());
        Map<String, Object> after = nativeProperties(native_, customer, rk);
        assertThat(after.get("status")).isEqualTo("returned");
        assertThat(after.get("item2_count"))
            .as("an Int32 stays Int32")
            .isEqualTo((Integer) before.get("item2_count") + 1);
        Map<String, Object> unchanged = withoutStowage(after);
        unchanged.remove("status");
        unchanged.remove("item2_count");
        Map<String, Object> expectedRest = new TreeMap<>(before);
        expectedRest.remove("status");
        expectedRest.remove("item2_count");
        assertThat(diff(expectedRest, unchanged)).as("update of " + key).isEmpty();
        assertThat(after.keySet().stream().filter(AdoptedTableTest::stowageProperty).toList())
            .as("Stowage adds only its write id to the application's entity")
            .allMatch(n -> n.equals("_3_stowage_3a_w"));
        // Put the entity back as the application wrote it, for the other tests.
        native_.upsertEntityWithResponse(
            nativeOrder(customer, rk, (Integer) before.get("item2_count")),
            TableEntityUpdateMode.REPLACE,
            null,
            null);
        assertThat(updated.getString("status")).isEqualTo("returned");
      }
    }
  }

  @Test
  void stowageWritesAreNativeEntities() {
    Key key = orderKey("new-cust 'é'", "n-1");
    Item item =
        Item.builder()
            .put("customer", "new-cust 'é'")
            .put("orderId", "n-1")
            .put("status", "open")
            .put("qty", 3)
            .put("price", new BigDecimal("19.99"))
            .put("first_name", "Ann")
            .put("tags", AttributeValue.list(AttributeValue.of("a")))
            .build();
    assertThat(orders.putIfAbsent(item)).isTrue();
    assertThat(orders.putIfAbsent(item)).isFalse();
    Map<String, Object> raw = nativeProperties(native_, "new-cust 'é'", "n-1");
    assertThat(raw.get("status")).isEqualTo("open");
    assertThat(raw.get("qty")).isEqualTo(3L);
    assertThat(raw.get("price")).isEqualTo(19.99);
    assertThat(raw.get("first_name")).isEqualTo("Ann");
    assertThat(raw).containsKey("_1_tags");
    assertThat(orders.get(key)).contains(item);
    Throwable failed =
        catchThrowable(
            () ->
                orders.put(
                    item.toBuilder().put("status", "shipped").build(),
                    WriteOptions.when(Condition.eq("status", "cancelled"))));
    assertThat(failed).isInstanceOf(ConditionFailedException.class);
    orders.put(
        item.toBuilder().put("status", "shipped").build(),
        WriteOptions.when(Condition.eq("status", "open")));
    assertThat(nativeProperties(native_, "new-cust 'é'", "n-1").get("status")).isEqualTo("shipped");
    assertThat(
            catchThrowable(
                () -> orders.delete(key, WriteOptions.when(Condition.eq("status", "open")))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(orders.delete(key)).isTrue();
    assertThat(catchThrowable(() -> native_.getEntity("new-cust 'é'", "n-1")))
        .isInstanceOf(TableServiceException.class);

    List<Item> batch = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      batch.add(
          Item.builder()
              .put("customer", "batch-cust")
              .put("orderId", "b-" + i)
              .put("n", i)
              .build());
    }
    orders.batchPut(batch);
    assertThat(nativeRowKeys("batch-cust")).hasSize(30);
    assertThat(orders.queryAll(Query.partition("batch-cust").build()).toList())
        .containsExactlyInAnyOrderElementsOf(batch);
    orders.batchDelete(
        batch.stream().map(i -> orderKey("batch-cust", i.getString("orderId"))).toList());
    assertThat(nativeRowKeys("batch-cust")).isEmpty();

    var tx = stowage.transaction();
    tx.put(orders, Item.builder().put("customer", "tx").put("orderId", "1").build(), null);
    tx.put(orders, Item.builder().put("customer", "tx").put("orderId", "2").build(), null);
    tx.commit();
    assertThat(nativeRowKeys("tx")).containsExactly("1", "2");
  }

  @Test
  void tokensAreTheEntitiesETagsSoNativeWritesAreSeen() {
    AzureTablesDriver driver = AzureTablesDriver.fromConnectionString(conn);
    try {
      TableLayout layout =
          new TableLayout(
              new TableRef("", "tokens"),
              KeySchema.of("customer", AttributeType.STRING, "orderId", AttributeType.STRING),
              List.of(),
              physical);
      driver.openTable(layout);
      Key key = orderKey("tok", "1");
      Item item = Item.builder().put("customer", "tok").put("orderId", "1").put("v", 1).build();
      String token = driver.put(layout, item, Expectation.ABSENT, false).token();
      StoredItem read = driver.get(layout, key, true).orElseThrow();
      assertThat(read.token()).isEqualTo(token);
      native_.upsertEntityWithResponse(
          new TableEntity("tok", "1").addProperty("v", 2), TableEntityUpdateMode.MERGE, null, null);
      assertThat(catchThrowable(() -> driver.put(layout, item, Expectation.token(token), false)))
          .as("the native write changed the ETag")
          .isInstanceOf(ConditionFailedException.class);
      StoredItem now = driver.get(layout, key, true).orElseThrow();
      assertThat(now.item().find("v")).contains(AttributeValue.of(2));
      driver.put(layout, item, Expectation.token(now.token()), false);
      assertThat(catchThrowable(() -> driver.put(layout, item, Expectation.ABSENT, false)))
          .isInstanceOf(ConditionFailedException.class);
      driver.delete(layout, key, Expectation.ANY, false);
    } finally {
      driver.close();
    }
  }

  @Test
  void keysAzureRefusesAreRefusedBeforeSending() {
    long before = native_.listEntities().stream().count();
    for (String bad : List.of("a/b", "a\\b", "a#b", "a?b", "tab\there", "bell\u0007", "c1\u0085")) {
      Item item = Item.builder().put("customer", bad).put("orderId", "1").build();
      Throwable e = catchThrowable(() -> orders.put(item));
      assertThat(e).as(bad).isInstanceOf(InvalidRequestException.class);
      assertThat(e.getMessage()).contains("refuses").contains("PartitionKey and RowKey");
      Throwable asSort =
          catchThrowable(
              () -> orders.put(Item.builder().put("customer", "c").put("orderId", bad).build()));
      assertThat(asSort).as(bad).isInstanceOf(InvalidRequestException.class);
    }
    Throwable tooLong =
        catchThrowable(
            () ->
                orders.put(
                    Item.builder().put("customer", "c").put("orderId", "x".repeat(513)).build()));
    assertThat(tooLong).isInstanceOf(InvalidRequestException.class).hasMessageContaining("512");
    assertThat(native_.listEntities().stream().count()).isEqualTo(before);

    // Azure's limit is 512 UTF-16 code units, not bytes: 512 CJK characters are 1536 UTF-8 bytes.
    String longest = "键".repeat(512);
    Item item = Item.builder().put("customer", "long").put("orderId", longest).put("v", 1).build();
    orders.put(item);
    assertThat(native_.getEntity("long", longest).getProperty("v")).isEqualTo(1L);
    assertThat(orders.get(orderKey("long", longest))).contains(item);
    assertThat(orders.queryAll(Query.partition("long").descending().build()).toList())
        .containsExactly(item);
    assertThat(orders.delete(orderKey("long", longest))).isTrue();
  }

  @Test
  void openingAMissingTableIsNotFoundAndCreatesNothing() {
    Set<String> before = tableNames();
    String missing = freshName("Missing");
    TableSpec s =
        TableSpec.builder("missing", KeySchema.of("pk", AttributeType.STRING))
            .adopt(missing)
            .build();
    Throwable e = catchThrowable(() -> stowage.table(s));
    assertThat(e).isInstanceOf(NotFoundException.class).hasMessageContaining(missing);
    TableSpec indexed =
        TableSpec.builder("missing", KeySchema.of("pk", AttributeType.STRING))
            .index("byA", List.of("a"), List.of())
            .adopt(missing)
            .build();
    assertThat(catchThrowable(() -> stowage.table(indexed))).isInstanceOf(NotFoundException.class);
    assertThat(tableNames()).isEqualTo(before);
  }

  @Test
  void openingAnExistingTableCreatesNoTableOfStowages() {
    Set<String> before = tableNames();
    Stowage other =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn)).namespace("adother").build();
    try {
      Table t = other.table(ordersSpec().build());
      assertThat(t.get(orderKey(CUSTOMERS.get(0), "o-0001"))).isPresent();
      assertThat(tableNames()).isEqualTo(before);
    } finally {
      other.close();
    }
  }

  @Test
  void specsAzureCannotAddressAreRefusedClearly() {
    Set<String> before = tableNames();
    TableSpec numberPartition =
        TableSpec.builder("numbers", KeySchema.of("id", AttributeType.NUMBER))
            .adopt(physical)
            .build();
    Throwable e = catchThrowable(() -> stowage.table(numberPartition));
    assertThat(e)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'id'")
        .hasMessageContaining("NUMBER")
        .hasMessageContaining("STRING");
    assertThat(catchThrowable(() -> stowage.ensureTable(numberPartition)))
        .isInstanceOf(InvalidRequestException.class);
    TableSpec binarySort =
        TableSpec.builder(
                "binaries", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.BINARY))
            .adopt(physical)
            .build();
    assertThat(catchThrowable(() -> stowage.ensureTable(binarySort)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("RowKey")
        .hasMessageContaining("BINARY");
    for (String name : List.of("Orders-2024", "ab", "2024orders", "tables", "s0torders")) {
      TableSpec s =
          TableSpec.builder("named", KeySchema.of("p", AttributeType.STRING)).adopt(name).build();
      assertThat(catchThrowable(() -> stowage.ensureTable(s)))
          .as(name)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining(name);
    }
    assertThat(tableNames()).isEqualTo(before);
  }

  @Test
  void aSpecWithoutSortKeyReadsEntitiesWithAnEmptyRowKeyAndRefusesOthers() {
    String name = freshName("Profiles");
    TableClient profiles = service.createTableIfNotExists(name);
    for (int i = 0; i < 5; i++) {
      profiles.upsertEntity(new TableEntity("user" + i, "").addProperty("first_name", "N" + i));
    }
    Table t =
        stowage.table(
            TableSpec.builder("profiles", KeySchema.of("user", AttributeType.STRING))
                .adopt(name)
                .build());
    assertThat(scanAll(t)).hasSize(5);
    assertThat(t.get(Key.of("user3")))
        .contains(Item.builder().put("user", "user3").put("first_name", "N3").build());
    t.put(Item.builder().put("user", "user9").put("first_name", "New").build());
    assertThat(profiles.getEntity("user9", "").getProperty("first_name")).isEqualTo("New");
    assertThat(t.queryAll(Query.partition("user9").build()).toList()).hasSize(1);

    profiles.upsertEntity(new TableEntity("user2", "extra"));
    Throwable e = catchThrowable(() -> scanAll(t));
    assertThat(e)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'user2'")
        .hasMessageContaining("'extra'")
        .hasMessageContaining("sort key");
    assertThat(catchThrowable(() -> t.queryAll(Query.partition("user2").build()).toList()))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(t.get(Key.of("user2"))).isPresent();
  }

  @Test
  void ensureTableCreatesAMissingAdoptedTableEmpty() {
    String name = freshName("Fresh");
    Set<String> before = tableNames();
    Table t =
        stowage.ensureTable(
            TableSpec.builder(
                    "fresh", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.STRING))
                .adopt(name)
                .build());
    Set<String> added = new HashSet<>(tableNames());
    added.removeAll(before);
    assertThat(added).containsExactly(name);
    assertThat(service.getTableClient(name).listEntities().stream().count()).isZero();
    t.put(Item.builder().put("p", "a").put("s", "b").build());
    assertThat(service.getTableClient(name).getEntity("a", "b")).isNotNull();
  }

  @Test
  void indexesAreBackfilledForNativeEntitiesAndKeptInStowagesOwnTable() {
    // A table of its own, so that the other tests' writes do not race with the backfill.
    String name = freshName("Indexed");
    TableClient t = service.createTableIfNotExists(name);
    Map<Key, Item> expected = new LinkedHashMap<>();
    int serial = 0;
    for (String customer : CUSTOMERS) {
      for (int i = 0; i < 20; i++) {
        TableEntity e = nativeOrder(customer, String.format("o-%04d", i), serial++);
        t.upsertEntity(e);
        expected.put(orderKey(customer, e.getRowKey()), expected(e));
      }
    }
    TableSpec plain = ordersSpec().adopt(name).build();
    IndexSpec byStatus = IndexSpec.of("byStatus", List.of("status"), List.of("placed_at"));
    TableSpec withIndex = ordersSpec().adopt(name).index(byStatus).build();
    Stowage s =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn)).namespace("adix").build();
    try {
      s.table(plain);
      Throwable notYet = catchThrowable(() -> s.table(withIndex));
      assertThat(notYet)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("ensureTable")
          .hasMessageContaining("backfillIndexes");

      Set<String> before = tableNames();
      Map<String, Map<String, Object>> propsBefore = new LinkedHashMap<>();
      expected.keySet().forEach(k -> propsBefore.put(k.toString(), props(t, k)));
      Table indexed = s.ensureTable(withIndex);
      Set<String> added = new HashSet<>(tableNames());
      added.removeAll(before);
      String indexTable = TableNames.adoptedIndexTable(new TableRef("adix", "orders"));
      assertThat(added).containsExactly(indexTable);

      MaintenanceJob.Progress p = indexed.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
      assertThat(p.scanned()).isEqualTo(expected.size());
      assertThat(p.rewritten()).isEqualTo(expected.size());
      assertThat(openOrders(indexed)).containsExactlyElementsOf(openOrders(expected));
      List<Item> descending =
          indexed
              .queryAll(
                  Query.index("byStatus")
                      .partition(AttributeValue.of("open"))
                      .descending()
                      .limit(7)
                      .build())
              .toList();
      assertThat(
              descending.stream()
                  .map(i -> orderKey(i.getString("customer"), i.getString("orderId")))
                  .toList())
          .containsExactlyElementsOf(reversed(openOrders(expected)));

      // The application's entities gained only the index bookkeeping; no row was added.
      assertThat(t.listEntities().stream().count()).isEqualTo(expected.size());
      for (Key k : expected.keySet()) {
        Map<String, Object> after = props(t, k);
        assertThat(diff(propsBefore.get(k.toString()), withoutStowage(after)))
            .as(k.toString())
            .isEmpty();
        assertThat(after.keySet().stream().filter(AdoptedTableTest::stowageProperty))
            .allMatch(
                n ->
                    n.equals("_0_n")
                        || n.equals("_3_stowage_3a_w")
                        || n.startsWith("_3_stowage_3a_ix_3a_byStatus_3a_"));
      }
      assertThat(s.table(withIndex)).isNotNull();

      // A native replace drops the bookkeeping: the entry no longer matches and is not returned
      // (read repair); a native write of a new entity is not indexed until the next backfill.
      Key replaced = openOrders(expected).get(0);
      TableEntity fresh =
          nativeOrder(string(replaced, "customer"), string(replaced, "orderId"), 0)
              .addProperty("status", "open");
      t.upsertEntityWithResponse(fresh, TableEntityUpdateMode.REPLACE, null, null);
      t.upsertEntity(nativeOrder("late", "o-0000", 3).addProperty("status", "open"));
      List<Item> open = openItems(indexed);
      assertThat(open.stream().map(i -> i.getString("customer"))).doesNotContain("late");
      assertThat(open)
          .noneMatch(
              i ->
                  i.getString("customer").equals(string(replaced, "customer"))
                      && i.getString("orderId").equals(string(replaced, "orderId")));
      indexed.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
      List<Item> reindexed = openItems(indexed);
      assertThat(reindexed.stream().map(i -> i.getString("customer"))).contains("late");
      assertThat(reindexed.size()).isEqualTo(open.size() + 2);

      // An item whose key is longer than an index entry's RowKey holds is indexed all the same:
      // the entry holds the key cut to fit, and the whole key in its _0_k property.
      String longKey = "键".repeat(300);
      Item longItem =
          Item.builder()
              .put("customer", "c")
              .put("orderId", longKey)
              .put("status", "open")
              .put("placed_at", "x")
              .build();
      indexed.put(longItem);
      assertThat(t.getEntity("c", longKey).getRowKey()).isEqualTo(longKey);
      assertThat(openItems(indexed))
          .hasSize(reindexed.size() + 1)
          .filteredOn(i -> i.getString("orderId").equals(longKey))
          .containsExactly(longItem);
      assertThat(
              indexed
                  .queryAll(
                      Query.index("byStatus")
                          .partition(AttributeValue.of("open"))
                          .sort(dev.stowage.query.SortCondition.eq(AttributeValue.of("x")))
                          .build())
                  .toList())
          .containsExactly(longItem);

      // Dropping the table drops Stowage's index table, never the application's table.
      s.dropTable("orders");
      assertThat(tableNames()).contains(name).doesNotContain(indexTable);
      assertThat(t.listEntities().stream().count()).isEqualTo(expected.size() + 2);
    } finally {
      s.close();
    }
  }

  /** The differences between two property or attribute maps, with long values summarized. */
  private static List<String> diff(Map<String, ?> expected, Map<String, ?> actual) {
    List<String> out = new ArrayList<>();
    Set<String> names = new java.util.TreeSet<>(expected.keySet());
    names.addAll(actual.keySet());
    for (String n : names) {
      Object e = expected.get(n);
      Object a = actual.get(n);
      if (!java.util.Objects.equals(e, a)) {
        out.add(n + ": expected " + summary(e) + " but was " + summary(a));
      }
    }
    return out;
  }

  private static List<String> diff(Item expected, Item actual) {
    return diff(expected.attributes(), actual.attributes());
  }

  private static String summary(Object v) {
    if (v == null) {
      return "nothing";
    }
    String s = String.valueOf(v);
    return v.getClass().getSimpleName()
        + " "
        + (s.length() > 60 ? s.substring(0, 60) + "…(" + s.length() + " chars)" : s);
  }

  private static <T> List<T> reversed(List<T> list) {
    List<T> out = new ArrayList<>(list);
    java.util.Collections.reverse(out);
    return out;
  }

  private static String string(Key k, String which) {
    AttributeValue v =
        which.equals("customer") ? (AttributeValue) k.partition() : (AttributeValue) k.sortOrNull();
    return ((AttributeValue.StringValue) v).value();
  }

  private static Map<String, Object> props(TableClient t, Key k) {
    return nativeProperties(t, string(k, "customer"), string(k, "orderId"));
  }

  private static List<Key> openOrders(Map<Key, Item> items) {
    return items.entrySet().stream()
        .filter(e -> e.getValue().getString("status").equals("open"))
        .sorted(Comparator.comparing(e -> e.getValue().getString("placed_at")))
        .map(Map.Entry::getKey)
        .toList();
  }

  private static List<Key> openOrders(Table t) {
    return openItems(t).stream()
        .map(i -> orderKey(i.getString("customer"), i.getString("orderId")))
        .toList();
  }

  private static List<Item> openItems(Table t) {
    return t.queryAll(Query.index("byStatus").partition(AttributeValue.of("open")).limit(9).build())
        .toList();
  }
}
