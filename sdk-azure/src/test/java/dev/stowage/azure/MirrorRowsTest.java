package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import reactor.core.publisher.Mono;

/**
 * Mirror rows for descending queries only on tables whose spec declares {@code descendingQueries},
 * the same descending pages either way, tables created with mirror rows keeping them whatever the
 * spec says, and the requests a put costs, counted on the wire.
 */
@Isolated
class MirrorRowsTest {
  static final AtomicInteger REQUESTS = new AtomicInteger();
  static TableServiceClient service;
  static Stowage store;
  static final KeySchema FEED =
      KeySchema.of("feed", AttributeType.STRING, "n", AttributeType.NUMBER);

  @BeforeAll
  static void start() {
    HttpPipelinePolicy counter =
        new HttpPipelinePolicy() {
          @Override
          public Mono<HttpResponse> process(
              HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            REQUESTS.incrementAndGet();
            return next.process();
          }
        };
    service = AzuriteClients.fastRetrying().addPolicy(counter).buildClient();
    store =
        Stowage.builder(AzureTablesDriver.of(service))
            .namespace(Layouts.freshName("mirrors").replace("-", ""))
            .build();
  }

  @AfterAll
  static void stop() {
    store.close();
  }

  static Item item(String feed, long n) {
    return Item.builder()
        .put("feed", feed)
        .put("n", n)
        .put("title", "entry " + n)
        .put("score", 1000 + n)
        .put("when", "2025-01-02T03:04:05.0000006Z")
        .build();
  }

  static TableSpec spec(String name, boolean declared) {
    TableSpec.Builder b = TableSpec.builder(name, FEED);
    return declared ? b.descendingQueries().build() : b.build();
  }

  private TableClient nativeTable(String name) {
    return service.getTableClient(TableNames.dataTable(new TableRef(store.namespace(), name)));
  }

  private List<String> rowKeys(String name) {
    return nativeTable(name)
        .listEntities(
            new ListEntitiesOptions()
                .setFilter("PartitionKey ne 'meta'")
                .setSelect(List.of("RowKey")),
            null,
            null)
        .stream()
        .map(TableEntity::getRowKey)
        .collect(Collectors.toList());
  }

  private static int requests(Runnable r) {
    int before = REQUESTS.get();
    r.run();
    return REQUESTS.get() - before;
  }

  @Test
  void anUndeclaredTableWritesOneEntityPerItemInOneRequest() {
    Table t = store.ensureTable(spec("plainfeed", false));
    // Strings, a number and a date-like string: nothing in the item makes the put read first.
    assertThat(requests(() -> t.put(item("f", 1)))).isEqualTo(1);
    assertThat(requests(() -> t.put(item("f", 1)))).as("an overwrite").isEqualTo(1);
    assertThat(requests(() -> t.put(item("f", 2)))).isEqualTo(1);
    t.delete(Key.of("f", 2));
    assertThat(rowKeys("plainfeed")).as("item rows only, no mirror rows").hasSize(1);
    assertThat(rowKeys("plainfeed").get(0)).startsWith("k");
    assertThat(t.get(Key.of("f", 1)).orElseThrow()).isEqualTo(item("f", 1));
  }

  @Test
  void aDeclaredTableKeepsAMirrorRowPerItem() {
    Table t = store.ensureTable(spec("mirrfeed", true));
    t.put(item("f", 1));
    t.put(item("f", 2));
    assertThat(rowKeys("mirrfeed")).hasSize(4).filteredOn(k -> k.startsWith("r")).hasSize(2);
    // Transaction of item and mirror row, then the read-back of the item's ETag.
    assertThat(requests(() -> t.put(item("f", 3)))).isEqualTo(2);
    t.delete(Key.of("f", 1));
    assertThat(rowKeys("mirrfeed")).hasSize(4);
  }

  @Test
  void descendingPagesAreTheSameWithAndWithoutMirrorRows() {
    Table plain = store.ensureTable(spec("descplain", false));
    Table mirrored = store.ensureTable(spec("descmirr", true));
    List<Item> items = IntStream.range(0, 60).mapToObj(i -> item("f", i * 10L)).toList();
    plain.batchPut(items);
    mirrored.batchPut(items);
    List<Item> reversed = new ArrayList<>(items);
    Collections.reverse(reversed);
    for (Table t : List.of(plain, mirrored)) {
      for (int limit : new int[] {1, 7, 100}) {
        assertThat(t.queryAll(Query.partition("f").descending().limit(limit).build()).toList())
            .as("limit %d", limit)
            .containsExactlyElementsOf(reversed);
      }
      Query range =
          Query.partition("f")
              .sort(
                  SortCondition.between(
                      dev.stowage.item.AttributeValue.of(95),
                      dev.stowage.item.AttributeValue.of(300)))
              .descending()
              .limit(4)
              .build();
      assertThat(t.queryAll(range).toList())
          .containsExactlyElementsOf(
              reversed.stream()
                  .filter(i -> i.getLong("n") >= 95 && i.getLong("n") <= 300)
                  .toList());
      assertThat(t.queryAll(Query.partition("nobody").descending().build()).toList()).isEmpty();
    }
    // A page on the undeclared table: the keys of the range (one request for up to 1000), then
    // the page's entities.
    assertThat(requests(() -> plain.query(Query.partition("f").descending().limit(10).build())))
        .isEqualTo(2);
  }

  @Test
  void aTableWithMirrorRowsKeepsThemWhenOpenedWithoutTheDeclaration() {
    store.ensureTable(spec("keepmirr", true)).put(item("f", 1));
    // Another process (fresh driver, no ensureTable) with a spec that does not declare it: the
    // stored record decides, so mirror rows stay in step and descending queries stay right.
    try (Stowage other =
        Stowage.builder(AzureTablesDriver.of(service)).namespace(store.namespace()).build()) {
      Table t = other.table(spec("keepmirr", false));
      t.put(item("f", 2));
      t.put(item("f", 3));
      t.delete(Key.of("f", 1));
      assertThat(rowKeys("keepmirr")).hasSize(4).filteredOn(k -> k.startsWith("r")).hasSize(2);
      assertThat(t.queryAll(Query.partition("f").descending().build()).toList())
          .containsExactly(item("f", 3), item("f", 2));
    }
  }

  @Test
  void aDriverThatNeverOpenedTheTableReadsItsRecordOnce() {
    store.ensureTable(spec("lazymirr", true));
    try (AzureTablesDriver fresh = AzureTablesDriver.of(service)) {
      dev.stowage.spi.TableLayout layout =
          new dev.stowage.spi.TableLayout(
              new TableRef(store.namespace(), "lazymirr"), FEED, List.of(), null, false);
      // The schema record, then the transaction of item and mirror row and the read-back.
      assertThat(
              requests(
                  () -> fresh.put(layout, item("f", 1), dev.stowage.spi.Expectation.ANY, false)))
          .isEqualTo(3);
      assertThat(
              requests(
                  () -> fresh.put(layout, item("f", 2), dev.stowage.spi.Expectation.ANY, false)))
          .isEqualTo(2);
    }
    assertThat(rowKeys("lazymirr")).filteredOn(k -> k.startsWith("r")).hasSize(2);
  }

  @Test
  void aTableWithoutMirrorRowsRefusesASpecDeclaringThem() {
    store.ensureTable(spec("nomirr", false)).put(item("f", 1));
    try (Stowage other =
        Stowage.builder(AzureTablesDriver.of(service)).namespace(store.namespace()).build()) {
      for (Runnable open :
          List.<Runnable>of(
              () -> other.table(spec("nomirr", true)),
              () -> other.ensureTable(spec("nomirr", true)))) {
        assertThatThrownBy(open::run)
            .isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("created without descendingQueries")
            .hasMessageContaining("Descending queries work on it without the declaration");
      }
      assertThat(other.table(spec("nomirr", false)).get(Key.of("f", 1))).isPresent();
    }
    assertThat(rowKeys("nomirr")).hasSize(1);
  }

  @Test
  void aTableWithoutASortKeyIgnoresTheDeclaration() {
    KeySchema single = KeySchema.of("id", AttributeType.STRING);
    store
        .ensureTable(TableSpec.builder("singles", single).build())
        .put(Item.builder().put("id", "a").build());
    Table declared =
        store.ensureTable(TableSpec.builder("singles", single).descendingQueries().build());
    assertThat(requests(() -> declared.put(Item.builder().put("id", "b").put("x", 1).build())))
        .isEqualTo(1);
    assertThat(declared.queryAll(Query.partition("b").descending().build()).toList()).hasSize(1);
  }
}
