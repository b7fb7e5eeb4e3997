package dev.stowage.dynamodb;

import static dev.stowage.dynamodb.NativeTables.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * An existing table made and filled with the plain {@link DynamoDbClient} (CreateTable with two
 * GSIs and an LSI, items by PutItem), adopted through a spec that declares those indexes as native
 * indexes and queried through Stowage without any backfill: equality, ranges, begins-with, both
 * directions, cursors, sparse items, projections, consistent LSI reads; and the checks that opening
 * makes (missing index, other key attributes or types) and ensureTable's refusal to create one.
 */
class NativeIndexTest {
  private static final DynamoDbClient SDK = Emulators.shared().dynamoDb().client();
  private static final String PHYSICAL = "Native-Orders." + System.nanoTime() % 1_000_000;
  private static final KeySchema KEYS =
      KeySchema.of("customer", AttributeType.STRING, "orderId", AttributeType.STRING);
  private static final List<String> STATUSES = List.of("OPEN", "SHIPPED", "OPEN", "CANCELLED");
  private static final List<String> DAYS =
      List.of("2026-10-30", "2026-11-01", "2026-11-01", "2026-11-15", "2026-12-02");

  private static Stowage stowage;
  private static Table orders;
  private static final List<Item> all = new ArrayList<>();

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue s(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(v);
  }

  private static software.amazon.awssdk.services.dynamodb.model.AttributeValue n(String v) {
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(v);
  }

  private static AttributeDefinition def(String name, ScalarAttributeType t) {
    return AttributeDefinition.builder().attributeName(name).attributeType(t).build();
  }

  static TableSpec spec() {
    return TableSpec.builder("orders", KEYS)
        .adopt(PHYSICAL)
        .nativeIndex(
            "byStatus",
            "GSI1",
            KeySchema.of("status", AttributeType.STRING, "createdAt", AttributeType.STRING))
        .index(
            IndexSpec.nativeIndex(
                "byEmail",
                "ByEmail",
                KeySchema.of("email", AttributeType.STRING),
                IndexSpec.Projection.KEYS_ONLY))
        .nativeIndex(
            "byTotal",
            "LSI1",
            KeySchema.of("customer", AttributeType.STRING, "total", AttributeType.NUMBER))
        .build();
  }

  @BeforeAll
  static void createAndFillNatively() {
    SDK.createTable(
        b ->
            b.tableName(PHYSICAL)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    def("customer", ScalarAttributeType.S),
                    def("orderId", ScalarAttributeType.S),
                    def("status", ScalarAttributeType.S),
                    def("createdAt", ScalarAttributeType.S),
                    def("email", ScalarAttributeType.S),
                    def("total", ScalarAttributeType.N))
                .keySchema(key("customer", KeyType.HASH), key("orderId", KeyType.RANGE))
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName("GSI1")
                        .keySchema(key("status", KeyType.HASH), key("createdAt", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build(),
                    GlobalSecondaryIndex.builder()
                        .indexName("ByEmail")
                        .keySchema(key("email", KeyType.HASH))
                        .projection(
                            Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
                        .build())
                .localSecondaryIndexes(
                    LocalSecondaryIndex.builder()
                        .indexName("LSI1")
                        .keySchema(key("customer", KeyType.HASH), key("total", KeyType.RANGE))
                        .projection(
                            Projection.builder()
                                .projectionType(ProjectionType.INCLUDE)
                                .nonKeyAttributes("status")
                                .build())
                        .build()));
    for (int i = 0; i < 30; i++) {
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
          new HashMap<>();
      item.put("customer", s(i % 3 == 0 ? "ann" : "bob"));
      item.put("orderId", s(String.format("o%02d", i)));
      item.put("total", n(i % 4 == 0 ? String.valueOf(i * 10) : (i * 10) + ".5"));
      item.put("email", s(i % 2 == 0 ? "ann@example.com" : "bob@example.com"));
      if (i % 7 != 6) { // sparse: some orders have no status yet
        item.put("status", s(STATUSES.get(i % STATUSES.size())));
        item.put("createdAt", s(DAYS.get(i % DAYS.size()) + "T" + String.format("%02d", i % 5)));
      }
      item.put("note", s("order " + i));
      SDK.putItem(b -> b.tableName(PHYSICAL).item(item));
    }
    DynamoDbDriver driver = DynamoDbDriver.create(SDK);
    stowage = Stowage.builder(driver).build();
    orders = stowage.table(spec()); // opens, creates nothing
    for (int i = 0; i < 30; i++) {
      all.add(
          orders.get(Key.of(i % 3 == 0 ? "ann" : "bob", String.format("o%02d", i))).orElseThrow());
    }
  }

  @AfterAll
  static void dropTable() {
    SDK.deleteTable(b -> b.tableName(PHYSICAL));
    stowage.close();
  }

  private static final Comparator<Item> BY_KEY = Comparator.comparing(KEYS::keyOf);

  private static Comparator<Item> by(String attribute) {
    return Comparator.comparing(
            (Item i) -> (dev.stowage.item.KeyValue) i.get(attribute),
            dev.stowage.item.KeyValue::compare)
        .thenComparing(KEYS::keyOf);
  }

  private static List<Item> open(java.util.function.Predicate<Item> also) {
    return all.stream()
        .filter(i -> i.has("status") && i.getString("status").equals("OPEN"))
        .filter(also)
        .sorted(by("createdAt"))
        .toList();
  }

  private static List<Item> reversed(List<Item> items) {
    List<Item> r = new ArrayList<>(items);
    java.util.Collections.reverse(r);
    return r;
  }

  @Test
  void aGsiAnswersEqualityRangesAndPrefixesInBothDirections() {
    Query.Builder q = Query.index("byStatus").partition(AttributeValue.of("OPEN")).limit(4);
    assertThat(orders.queryAll(q.build()).toList()).containsExactlyElementsOf(open(i -> true));
    List<Item> reversed = new ArrayList<>(open(i -> true));
    java.util.Collections.reverse(reversed);
    assertThat(orders.queryAll(q.descending().build()).toList())
        .containsExactlyElementsOf(reversed);

    assertThat(
            orders
                .queryAll(
                    Query.index("byStatus")
                        .partition(AttributeValue.of("OPEN"))
                        .sort(SortCondition.beginsWith("2026-11"))
                        .build())
                .toList())
        .containsExactlyElementsOf(open(i -> i.getString("createdAt").startsWith("2026-11")));
    assertThat(
            orders
                .queryAll(
                    Query.index("byStatus")
                        .partition(AttributeValue.of("OPEN"))
                        .sort(
                            SortCondition.between(
                                AttributeValue.of("2026-11-01T00"),
                                AttributeValue.of("2026-11-15T02")))
                        .build())
                .toList())
        .containsExactlyElementsOf(
            open(
                i ->
                    i.getString("createdAt").compareTo("2026-11-01T00") >= 0
                        && i.getString("createdAt").compareTo("2026-11-15T02") <= 0));
    assertThat(
            orders
                .queryAll(
                    Query.index("byStatus")
                        .partition(AttributeValue.of("OPEN"))
                        .sort(SortCondition.lt(AttributeValue.of("2026-11-01T02")))
                        .descending()
                        .build())
                .toList())
        .containsExactlyElementsOf(
            reversed(open(i -> i.getString("createdAt").compareTo("2026-11-01T02") < 0)));
    assertThat(
            orders.queryAll(Query.index("byStatus").partition(AttributeValue.of("LOST")).build()))
        .isEmpty();
  }

  @Test
  void cursorsPageThroughAGsiBothWays() {
    List<Item> expected = open(i -> true);
    Query q = Query.index("byStatus").partition(AttributeValue.of("OPEN")).limit(2).build();
    List<Item> onward = new ArrayList<>();
    List<String> afters = new ArrayList<>();
    Page p = orders.query(q);
    onward.addAll(p.items());
    while (p.hasAfter()) {
      afters.add(p.after().orElseThrow());
      p = orders.page(p.after().orElseThrow());
      onward.addAll(p.items());
    }
    assertThat(onward).containsExactlyElementsOf(expected);
    // Back from the last page.
    List<Item> back = new ArrayList<>(p.items());
    while (p.hasBefore()) {
      p = orders.page(p.before().orElseThrow());
      back.addAll(0, p.items());
    }
    assertThat(back).containsExactlyElementsOf(expected);
    // A cursor taken from the middle resumes exactly there.
    assertThat(orders.page(afters.get(1)).items())
        .containsExactlyElementsOf(expected.subList(4, 6));
  }

  @Test
  void sparseItemsAreMissingAndStowageWritesJoinTheIndex() {
    assertThat(all.stream().filter(i -> !i.has("status")).count()).isEqualTo(4);
    long indexed =
        STATUSES.stream()
            .distinct()
            .mapToLong(
                st ->
                    orders
                        .queryAll(Query.index("byStatus").partition(AttributeValue.of(st)).build())
                        .count())
            .sum();
    assertThat(indexed).isEqualTo(26);

    Key k = Key.of("zed", "z01");
    Item written =
        Item.builder()
            .put("customer", "zed")
            .put("orderId", "z01")
            .put("status", "HELD")
            .put("createdAt", "2027-01-01T00")
            .put("total", 1)
            .put("email", "zed@example.com")
            .build();
    orders.put(written);
    assertThat(
            orders.queryAll(Query.index("byStatus").partition(AttributeValue.of("HELD")).build()))
        .containsExactly(written);
    orders.update(k, Update.builder().set("status", "DONE").build());
    assertThat(
            orders.queryAll(Query.index("byStatus").partition(AttributeValue.of("HELD")).build()))
        .isEmpty();
    assertThat(
            orders.queryAll(Query.index("byStatus").partition(AttributeValue.of("DONE")).build()))
        .hasSize(1);
    Throwable wrongType =
        catchThrowable(
            () ->
                orders.put(written.toBuilder().put("orderId", "z02").put("total", "ten").build()));
    assertThat(wrongType)
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'total'")
        .hasMessageContaining("byTotal")
        .hasMessageContaining("LSI1")
        .hasMessageContaining("NUMBER");
    assertThat(orders.get(Key.of("zed", "z02"), ReadOptions.CONSISTENT)).isEmpty();
    orders.delete(k);
  }

  @Test
  void aKeysOnlyGsiWithoutRangeKeyAndProjections() {
    // ByEmail projects only keys and has no RANGE key: entries come in primary-key order, and the
    // driver reads the items whole; the spec's KEYS_ONLY returns the keys and the email.
    List<Item> ann =
        all.stream()
            .filter(i -> i.getString("email").equals("ann@example.com"))
            .sorted(BY_KEY)
            .map(i -> i.project(java.util.Set.of("customer", "orderId", "email")))
            .toList();
    Query q =
        Query.index("byEmail").partition(AttributeValue.of("ann@example.com")).limit(3).build();
    assertThat(orders.queryAll(q).toList()).containsExactlyElementsOf(ann);
    List<Item> desc = new ArrayList<>(ann);
    java.util.Collections.reverse(desc);
    assertThat(orders.queryAll(q.toBuilder().descending().build()).toList())
        .containsExactlyElementsOf(desc);
    // A filter on an attribute the GSI does not project still sees the whole item.
    assertThat(
            orders
                .queryAll(
                    q.toBuilder().filter(dev.stowage.query.Condition.eq("note", "order 6")).build())
                .toList())
        .containsExactly(ann.get(1).project(java.util.Set.of("customer", "orderId", "email")));
    // A query projection on a GSI projecting ALL.
    assertThat(
            orders
                .queryAll(
                    Query.index("byStatus")
                        .partition(AttributeValue.of("SHIPPED"))
                        .project("note")
                        .build())
                .toList())
        .containsExactlyElementsOf(
            all.stream()
                .filter(i -> "SHIPPED".equals(i.has("status") ? i.getString("status") : null))
                .sorted(by("createdAt"))
                .map(i -> i.project(java.util.Set.of("customer", "orderId", "note")))
                .toList());
  }

  @Test
  void anLsiCanBeReadConsistentlyAGsiCannot() {
    List<Item> ann =
        all.stream()
            .filter(i -> i.getString("customer").equals("ann"))
            .sorted(by("total"))
            .toList();
    Query q =
        Query.index("byTotal")
            .partition(AttributeValue.of("ann"))
            .sort(SortCondition.ge(AttributeValue.of(90)))
            .consistentRead(true)
            .limit(2)
            .build();
    assertThat(orders.queryAll(q).toList())
        .containsExactlyElementsOf(
            ann.stream().filter(i -> i.getNumber("total").intValue() >= 90).toList());
    UnsupportedCapabilityException e =
        catchThrowableOfType(
            UnsupportedCapabilityException.class,
            () ->
                orders.query(
                    Query.index("byStatus")
                        .partition(AttributeValue.of("OPEN"))
                        .consistentRead(true)
                        .build()));
    assertThat(e.capability()).isEqualTo("CONSISTENT_INDEX_QUERIES");
  }

  @Test
  void openingChecksTheNativeIndexesAndSpellsOutEveryDifference() {
    TableSpec wrong =
        TableSpec.builder("orders", KEYS)
            .adopt(PHYSICAL)
            .nativeIndex(
                "byStatus",
                "GSI1",
                KeySchema.of("status", AttributeType.STRING, "createdAt", AttributeType.NUMBER))
            .nativeIndex("byRegion", "GSI9", KeySchema.of("region", AttributeType.STRING))
            .nativeIndex("byTotal", "LSI1", KeySchema.of("customer", AttributeType.STRING))
            .build();
    try (Stowage s = Stowage.builder(DynamoDbDriver.create(SDK)).build()) {
      Throwable e = catchThrowable(() -> s.table(wrong));
      assertThat(e).isInstanceOf(InvalidRequestException.class);
      assertThat(e.getMessage())
          .contains(
              "native index 'byStatus' (GSI GSI1) key is HASH status (S), RANGE createdAt (S) but"
                  + " the spec needs HASH status (S), RANGE createdAt (N)")
          .contains("native index 'byRegion' needs the table's GSI or LSI 'GSI9'")
          .contains("create GSI GSI9 with UpdateTable (HASH region (S), no RANGE key)")
          .contains(
              "native index 'byTotal' (LSI LSI1) key is HASH customer (S), RANGE total (N) but the"
                  + " spec needs HASH customer (S), no RANGE key");
      Throwable ensure = catchThrowable(() -> s.ensureTable(wrong));
      assertThat(ensure).isInstanceOf(InvalidRequestException.class).hasMessageContaining("GSI9");
    }
  }

  @Test
  void ensureTableNeverCreatesNativeIndexes() {
    String missing = "Native-Missing." + System.nanoTime() % 1_000_000;
    TableSpec spec =
        TableSpec.builder("missing", KEYS)
            .adopt(missing)
            .nativeIndex("byStatus", "GSI1", KeySchema.of("status", AttributeType.STRING))
            .build();
    try (Stowage s = Stowage.builder(DynamoDbDriver.create(SDK)).build()) {
      Throwable e = catchThrowable(() -> s.ensureTable(spec));
      assertThat(e)
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("does not exist, and ensureTable does not create native indexes")
          .hasMessageContaining("'GSI1' (HASH status (S), no RANGE key)")
          .hasMessageContaining("UpdateTable");
      assertThat(catchThrowable(() -> SDK.describeTable(b -> b.tableName(missing))))
          .as("nothing was created")
          .isInstanceOf(ResourceNotFoundException.class);
      assertThat(catchThrowable(() -> s.table(spec))).isInstanceOf(NotFoundException.class);
    }
  }
}
