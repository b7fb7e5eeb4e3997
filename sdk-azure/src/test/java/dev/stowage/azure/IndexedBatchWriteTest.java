package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.BinaryData;
import com.azure.data.tables.TableServiceClient;
import dev.stowage.StowageException;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.TransactionMeter;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.Item;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Batch writes of puts into a table with indexes create their items without reading the versions
 * they replace, and fall back to reading and replacing exactly where Azure refuses a create because
 * the item exists: new items cost no read, rewritten and mixed batches (and retries of a batch that
 * landed, whole or in part) leave the index exact, with no entry of a replaced version left once
 * the batch returns. Requests are counted with the driver's {@link TransactionMeter}; a failure of
 * a create transaction is injected in the client's pipeline. On a table of the default spec (no
 * reverse index rows); {@link IndexedBatchWriteWithReverseRowsTest} runs the same on a table that
 * keeps them.
 */
class IndexedBatchWriteTest {
  static TableServiceClient service;
  static AzureTablesDriver driver;
  static final LongAdder READS = new LongAdder();
  static final LongAdder WRITES = new LongAdder();
  static final LongAdder DELETES = new LongAdder();

  /** Create transactions (a {@code $batch} holding a POST) to fail before they reach Azurite. */
  static final AtomicInteger FAIL_CREATES = new AtomicInteger();

  static final HttpPipelinePolicy FAIL_CREATE =
      (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
        var r = context.getHttpRequest();
        if (r.getHttpMethod() == HttpMethod.POST
            && r.getUrl().getPath().endsWith("$batch")
            && FAIL_CREATES.get() > 0) {
          BinaryData body = r.getBodyAsBinaryData();
          if (body != null
              && body.toString().contains("\nPOST ")
              && FAIL_CREATES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return Mono.<HttpResponse>error(new IOException("simulated connection failure"));
          }
        }
        return next.process();
      };

  /** Every request the client sends to Azurite, whatever its table (table creation included). */
  static final AtomicInteger REQUESTS = new AtomicInteger();

  static final HttpPipelinePolicy COUNT_REQUESTS =
      (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
        REQUESTS.incrementAndGet();
        return next.process();
      };

  TableLayout table;

  @BeforeAll
  static void start() {
    TransactionMeter meter = new TransactionMeter();
    service =
        AzuriteClients.fastRetrying()
            .addPolicy(FAIL_CREATE)
            .addPolicy(COUNT_REQUESTS)
            .addPolicy(meter)
            .buildClient();
    driver = new AzureTablesDriver(service, WriteStep.Hook.NONE, meter);
    driver.capacityListener(
        (t, index, read, write, delete) -> {
          READS.add((long) read);
          WRITES.add((long) write);
          DELETES.add((long) delete);
        });
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  @BeforeEach
  void freshTable() {
    FAIL_CREATES.set(0);
    table = newLayout();
    driver.ensureTable(table);
    READS.reset();
    WRITES.reset();
    DELETES.reset();
  }

  /** A fresh layout of the table under test. */
  TableLayout newLayout() {
    return Layouts.layout("ixb", IndexMaintenanceTest.SCHEMA, IndexMaintenanceTest.BY_A);
  }

  /** True if the table under test keeps a reverse row per entry. */
  boolean reverseRows() {
    return false;
  }

  /** {@code n} items of partition {@code pk}, index value {@code a}, payload {@code payload}. */
  static List<WriteOp> batch(String pk, int n, String a, String payload) {
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ops.add(
          IndexMaintenanceTest.put(IndexMaintenanceTest.item(pk, i, a, "b" + (1000 + i), payload)));
    }
    return ops;
  }

  /** Every item an index query finds under {@code a}, as pk/sk/payload. */
  List<String> query(String a) {
    List<String> out = new ArrayList<>();
    dev.stowage.spi.Position start = null;
    KeyValue p = IndexMaintenanceTest.bin(a);
    while (true) {
      QueryResult r =
          driver.query(table, new DriverQuery("byA", p, KeyRange.ALL, false, 500, start, true));
      for (StoredItem s : r.items()) {
        Item i = s.item();
        out.add(i.getString("pk") + "/" + i.getNumber("sk") + "/" + i.getString("payload"));
      }
      if (!r.more() || r.items().isEmpty()) {
        return out;
      }
      Item last = r.items().get(r.items().size() - 1).item();
      start =
          new dev.stowage.spi.Position(
              IndexMaintenanceTest.SCHEMA.keyOf(last),
              last.get("stowage:ix:byA:s") instanceof KeyValue k ? k : null);
    }
  }

  /**
   * The entries in the index table, counted by their forward rows; checks that every entry has its
   * reverse row on a table that keeps them, and that there are none on others.
   */
  int indexRows() {
    List<String> rows =
        service.getTableClient(TableNames.indexTable(table.ref())).listEntities().stream()
            .map(e -> e.getRowKey())
            .toList();
    long forward = rows.stream().filter(k -> k.startsWith("k")).count();
    long reverse = rows.stream().filter(k -> k.startsWith("r")).count();
    assertThat(forward + reverse).as("forward and reverse rows only").isEqualTo(rows.size());
    assertThat(reverse).as("reverse rows").isEqualTo(reverseRows() ? forward : 0);
    return (int) forward;
  }

  /** The item rows in the data table (not the schema record, nor mirror rows). */
  int itemRows() {
    return (int)
        service.getTableClient(TableNames.dataTable(table.ref())).listEntities().stream()
            .filter(e -> !e.getPartitionKey().equals("meta") && e.getRowKey().startsWith("k"))
            .count();
  }

  @Test
  void newItemsAreCreatedWithoutReadingWhatTheyReplace() {
    List<WriteOp> ops = new ArrayList<>(batch("p1", 60, "x", "v1"));
    ops.addAll(batch("p2", 40, "y", "v1"));
    READS.reset();
    assertThat(driver.batchWrite(table, ops).unprocessed()).isEmpty();
    assertThat(READS.sum()).as("requests reading items").isZero();
    assertThat(query("x")).hasSize(60).allMatch(s -> s.startsWith("p1/") && s.endsWith("/v1"));
    assertThat(query("y")).hasSize(40).allMatch(s -> s.startsWith("p2/"));
    assertThat(indexRows()).isEqualTo(100);
  }

  /**
   * What a migrator's batch of new items sends (measured against Azurite's CPU per item in
   * docs/benchmarks.md): one transaction per data partition and one per index partition it touches,
   * the index rows of items of different data partitions together, and nothing else: no read, no
   * query, no delete, no table check.
   */
  @Test
  void aCopiedBatchOfNewItemsSendsOneTransactionPerPartitionAndNothingElse() {
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      ops.add(
          IndexMaintenanceTest.put(
              IndexMaintenanceTest.item("p1", i, i % 2 == 0 ? "x" : "y", "b" + i, "v1")));
    }
    for (int i = 0; i < 20; i++) {
      ops.add(
          IndexMaintenanceTest.put(
              IndexMaintenanceTest.item("p2", i, i % 2 == 0 ? "x" : "y", "b" + i, "v1")));
    }
    REQUESTS.set(0);
    assertThat(driver.batchWriteCopies(table, ops).unprocessed()).isEmpty();
    assertThat(REQUESTS.get()).as("requests sent").isEqualTo(4);
    assertThat(WRITES.sum())
        .as("write transactions: p1, p2, entries under x, under y")
        .isEqualTo(4);
    assertThat(READS.sum()).as("requests reading").isZero();
    assertThat(DELETES.sum()).as("requests deleting").isZero();
    assertThat(query("x")).hasSize(25);
    assertThat(query("y")).hasSize(25);
    assertThat(itemRows()).isEqualTo(50);
    assertThat(indexRows()).isEqualTo(50);
  }

  /**
   * A migrator hands the driver a page of copies in one call ({@link
   * AzureTablesDriver#maxBatchWriteCopies}): its rows go out as full transactions per partition,
   * item rows and index rows alike, as a raw client grouping the same rows sends them. 1,000 items
   * of 10 data partitions, their entries in 5 index partitions: 10 + 10 transactions of 100 rows
   * (twice as many, of 50 items, on a table with mirror and reverse rows), where calls of 100
   * items, one data partition's each, would send 10 + 50.
   */
  @Test
  void aCopiedCallOfAPageFillsItsTransactions() {
    assertThat(driver.maxBatchWriteCopies(table)).isGreaterThanOrEqualTo(1000);
    List<WriteOp> ops = new ArrayList<>();
    for (int p = 0; p < 10; p++) {
      for (int i = 0; i < 100; i++) {
        ops.add(
            IndexMaintenanceTest.put(
                IndexMaintenanceTest.item("p" + p, i, "a" + (i % 5), "b" + i, "v1")));
      }
    }
    REQUESTS.set(0);
    assertThat(driver.batchWriteCopies(table, ops).unprocessed()).isEmpty();
    int perTransaction = reverseRows() ? 50 : 100;
    int expected = 1000 / perTransaction + 1000 / perTransaction;
    assertThat(REQUESTS.get()).as("requests sent").isEqualTo(expected);
    assertThat(WRITES.sum()).as("write transactions").isEqualTo(expected);
    assertThat(READS.sum()).as("requests reading").isZero();
    assertThat(DELETES.sum()).as("requests deleting").isZero();
    for (int a = 0; a < 5; a++) {
      assertThat(query("a" + a)).hasSize(200);
    }
    assertThat(itemRows()).isEqualTo(1000);
    assertThat(indexRows()).isEqualTo(1000);
  }

  @Test
  void rewritingABatchReplacesItsItemsAndDeletesTheirOldEntries() {
    driver.batchWrite(table, batch("p1", 80, "x", "v1"));
    // The same keys again, a quarter of them moving to another index partition: Azure refuses
    // the creates, the items are read and replaced, and the replaced versions' entries deleted.
    List<WriteOp> again = new ArrayList<>(batch("p1", 60, "x", "v2"));
    for (WriteOp w : batch("p1", 80, "y", "v2").subList(60, 80)) {
      again.add(w);
    }
    READS.reset();
    driver.batchWrite(table, again);
    assertThat(READS.sum()).as("the replaced versions were read").isPositive();
    assertThat(indexRows()).as("no entry of a replaced version is left").isEqualTo(80);
    assertThat(query("x")).hasSize(60).allMatch(s -> s.endsWith("/v2"));
    assertThat(query("y")).hasSize(20).allMatch(s -> s.endsWith("/v2"));
    // A third time (the table now reads first): as exact.
    driver.batchWrite(table, batch("p1", 80, "z", "v3"));
    assertThat(indexRows()).isEqualTo(80);
    assertThat(query("x")).isEmpty();
    assertThat(query("y")).isEmpty();
    assertThat(query("z")).hasSize(80).allMatch(s -> s.endsWith("/v3"));
    // And new items again: created without reads once a batch found none of its items.
    driver.batchWrite(table, batch("p2", 10, "z", "n"));
    READS.reset();
    driver.batchWrite(table, batch("p3", 10, "z", "n"));
    assertThat(READS.sum()).isZero();
    assertThat(query("z")).hasSize(100);
    assertThat(itemRows()).isEqualTo(100);
  }

  @Test
  void aBatchMixingNewAndExistingItemsReplacesOnlyWhatExists() {
    driver.put(
        table,
        IndexMaintenanceTest.item("p1", 5, "x", "old", "old"),
        dev.stowage.spi.Expectation.ANY,
        false);
    driver.put(
        table,
        IndexMaintenanceTest.item("p3", 1, "x", "old", "old"),
        dev.stowage.spi.Expectation.ANY,
        false);
    List<WriteOp> ops = new ArrayList<>(batch("p1", 30, "y", "new"));
    ops.addAll(batch("p2", 30, "y", "new"));
    READS.reset();
    driver.batchWrite(table, ops);
    assertThat(query("x")).containsExactly("p3/1/old");
    assertThat(query("y")).hasSize(60).allMatch(s -> s.endsWith("/new"));
    assertThat(indexRows()).isEqualTo(61);
    assertThat(itemRows()).isEqualTo(61);
  }

  @Test
  void aFailedCreateTransactionLosesNothingWhenTheBatchIsRetried() {
    // Three partitions: one create transaction fails, the others land; the retry meets their
    // items (refused creates), replaces them, and creates the rest.
    List<WriteOp> ops = new ArrayList<>(batch("p1", 30, "x", "v"));
    ops.addAll(batch("p2", 30, "x", "v"));
    ops.addAll(batch("p3", 30, "x", "v"));
    FAIL_CREATES.set(1);
    assertThatThrownBy(() -> driver.batchWrite(table, ops)).isInstanceOf(StowageException.class);
    assertThat(FAIL_CREATES.get()).isZero();
    assertThat(itemRows()).isEqualTo(60);
    driver.batchWrite(table, ops);
    assertThat(itemRows()).isEqualTo(90);
    // The first attempt's entries of the items it did not write are garbage: skipped, then
    // deleted by the query that meets them.
    assertThat(query("x")).hasSize(90).doesNotHaveDuplicates();
    assertThat(indexRows()).isEqualTo(90);
  }
}
