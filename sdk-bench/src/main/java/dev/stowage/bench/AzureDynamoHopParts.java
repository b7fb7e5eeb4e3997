package dev.stowage.bench;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.Stowage;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.internal.ItemStore;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The client's CPU time per item in each part of the Azure → DynamoDB hop of {@link
 * CrossBackendCeilings}, next to the raw clients' doing the same, one thread at a time, in rounds:
 *
 * <ul>
 *   <li>the raw Azure client's listing of the seeded item table ({@code listEntities}, pages of
 *       1,000; the table's schema record is one entity more), and the Azure driver's scan of it in
 *       8 segments one after the other (pages of 2,000, as the migrator's), which lists the same
 *       entities and decodes them into stored items;
 *   <li>the raw DynamoDB client's {@code BatchWriteItem} of 25 items (built from the items, as
 *       {@link CrossBackendCeilings}'s raw writer does), and the migrator's write of the scanned
 *       items: the target's index values and then the DynamoDB driver's {@code batchWriteCopies} of
 *       25 (the raw table has no secondary index: that costs DynamoDB Local, not the client);
 *   <li>the Azure driver's decoding of the listed entities into items alone (what its scan does
 *       with each entity besides listing it), {@value #DECODES} times per round.
 * </ul>
 *
 * The scan includes its plan of 8 segments (which lists the table's PartitionKeys), as the
 * migrator's run does once.
 *
 * <p>CPU time is the calling thread's plus, for the Azure parts, that of the Azure client's network
 * threads ({@code reactor-http-*}); DynamoDB Local's threads are not counted. Prints each round and
 * the medians (ranges) in microseconds per item.
 *
 * <pre>
 * DDB_LOCAL_TELEMETRY=0 java -Dstowage.azurite=node_modules/azurite \
 *   -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *   dev.stowage.bench.AzureDynamoHopParts [rounds] [items]
 * </pre>
 */
public final class AzureDynamoHopParts {
  /** Segments of the scan, as many as the hop's parallelism in {@link CrossBackendCeilings}. */
  private static final int SEGMENTS = 8;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final String[] PARTS = {
    "Azure listing, raw",
    "Azure segment scan, Stowage",
    "DynamoDB write, raw",
    "DynamoDB write, Stowage",
    "Azure entity decode, Stowage"
  };

  /** Decodes of each listed entity per round in the decode part (it is short: repeated). */
  private static final int DECODES = 10;

  private AzureDynamoHopParts() {}

  /** Runs the rounds and prints the figures. */
  public static void main(String[] args) throws Exception {
    try {
      run(args);
    } catch (Exception | Error e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0); // the emulators' clients leave non-daemon threads behind
  }

  private static void run(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    Emulators emulators = Emulators.shared();
    DynamoDbClient ddb = emulators.dynamoDb().client();
    String azure = emulators.azurite().connectionString();
    TableServiceClient azureTables =
        new TableServiceClientBuilder().connectionString(azure).buildClient();
    StorageDriver azDriver = AzureTablesDriver.fromConnectionString(azure);
    StorageDriver ddbDriver = DynamoDbDriver.create(ddb);
    List<Item> items = LedgerItems.items(n);
    Stowage.builder(azDriver)
        .namespace("seed")
        .build()
        .ensureTable(CrossBackendCeilings.SPEC)
        .batchPut(items);
    TableLayout source = layout("seed");
    TableClient raw = itemTable(azureTables, n);
    double[][] cpu = new double[PARTS.length][rounds];
    for (int r = 0; r <= rounds; r++) {
      List<StoredItem> scanned = new ArrayList<>(n);
      List<TableEntity> listed = new ArrayList<>(n + 1);
      String ns = "r" + r;
      double[] part = {
        measure(true, () -> check(rawList(raw, listed), n + 1)),
        measure(true, () -> check(scan(azDriver, source, scanned), n)),
        measure(false, () -> rawWrite(ddb, "raw" + ns, items)),
        measure(false, () -> write(ddbDriver, layout("w" + ns), scanned)),
        measure(false, () -> decode(source, listed)) / DECODES,
      };
      System.out.printf(Locale.ROOT, "round %d%s:", r, r == 0 ? " (warm-up)" : "");
      for (int p = 0; p < PARTS.length; p++) {
        double us = part[p] / 1e3 / n;
        System.out.printf(Locale.ROOT, "  %s %.1f us", PARTS[p], us);
        if (r > 0) {
          cpu[p][r - 1] = us;
        }
      }
      System.out.println();
    }
    System.out.printf(
        Locale.ROOT, "%nCPU per item, medians of %d rounds of %,d items (ranges):%n", rounds, n);
    for (int p = 0; p < PARTS.length; p++) {
      double[] s = cpu[p].clone();
      Arrays.sort(s);
      System.out.printf(
          Locale.ROOT,
          "  %-30s %6.1f us (%.1f-%.1f)%n",
          PARTS[p],
          s[s.length / 2],
          s[0],
          s[s.length - 1]);
    }
  }

  private interface Part {
    void run() throws Exception;
  }

  /** CPU nanoseconds of the part: this thread's, plus the Azure client's network threads'. */
  private static long measure(boolean azure, Part part) throws Exception {
    long t = THREADS.getCurrentThreadCpuTime();
    long io = azure ? networkCpu() : 0;
    part.run();
    return THREADS.getCurrentThreadCpuTime() - t + (azure ? networkCpu() - io : 0);
  }

  private static long networkCpu() {
    long sum = 0;
    for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (t != null && t.getThreadName().startsWith("reactor-http")) {
        sum += Math.max(0, THREADS.getThreadCpuTime(t.getThreadId()));
      }
    }
    return sum;
  }

  private static TableLayout layout(String namespace) {
    List<IndexLayout> indexes =
        CrossBackendCeilings.SPEC.indexes().stream().map(IndexLayout::of).toList();
    return new TableLayout(
        new TableRef(namespace, CrossBackendCeilings.SPEC.name()),
        CrossBackendCeilings.SPEC.keySchema(),
        indexes,
        null,
        CrossBackendCeilings.SPEC.descendingQueries());
  }

  /** The seeded item table (it also holds the driver's schema record: one entity more). */
  private static TableClient itemTable(TableServiceClient service, int n) {
    TableClient c =
        service.getTableClient(
            TableNames.dataTable(new TableRef("seed", CrossBackendCeilings.SPEC.name())));
    check(rawList(c, new ArrayList<>()), n + 1);
    return c;
  }

  private static int rawList(TableClient c, List<TableEntity> out) {
    for (TableEntity e : c.listEntities(new ListEntitiesOptions().setTop(1000), null, null)) {
      out.add(e);
    }
    return out.size();
  }

  /**
   * What the driver's scan does with each listed entity of an item (all but the schema record): the
   * item decoded from its keys and properties.
   */
  private static void decode(TableLayout layout, List<TableEntity> listed) {
    long properties = 0;
    for (int i = 0; i < DECODES; i++) {
      for (TableEntity e : listed) {
        if (!e.getPartitionKey().equals("meta")) {
          properties += ItemStore.row(layout, e).item().size();
        }
      }
    }
    if (properties == 0) {
      throw new IllegalStateException("no item decoded");
    }
  }

  private static int scan(StorageDriver driver, TableLayout layout, List<StoredItem> out) {
    for (ScanSegment seg : driver.segments(layout, null, SEGMENTS)) {
      String checkpoint = null;
      while (true) {
        SegmentPage page =
            driver.scanSegment(
                layout, new SegmentScan(seg, CrossBackendCeilings.PAGE, checkpoint, true));
        out.addAll(page.items());
        if (page.done()) {
          break;
        }
        checkpoint = page.checkpoint();
      }
    }
    return out.size();
  }

  private static void check(int got, int n) {
    if (got != n) {
      throw new IllegalStateException("read " + got + " of " + n + " items");
    }
  }

  private static void rawWrite(DynamoDbClient ddb, String table, List<Item> items) {
    ddb.createTable(
        c ->
            c.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                    KeySchemaElement.builder()
                        .attributeName("account")
                        .keyType(KeyType.HASH)
                        .build(),
                    KeySchemaElement.builder().attributeName("seq").keyType(KeyType.RANGE).build())
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("account")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("seq")
                        .attributeType(ScalarAttributeType.N)
                        .build()));
    List<WriteRequest> batch = new ArrayList<>(25);
    for (int i = 0; i < items.size(); i++) {
      Item item = items.get(i);
      Map<String, AttributeValue> m = new HashMap<>();
      m.put("account", AttributeValue.fromS(item.getString("account")));
      m.put("seq", AttributeValue.fromN(item.getNumber("seq").toString()));
      m.put("day", AttributeValue.fromS(item.getString("day")));
      m.put("amount", AttributeValue.fromN(item.getNumber("amount").toString()));
      m.put("memo", AttributeValue.fromS(item.getString("memo")));
      m.put("iban", AttributeValue.fromS(item.getString("iban")));
      batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(m).build()).build());
      if (batch.size() == 25 || i == items.size() - 1) {
        Map<String, List<WriteRequest>> pending = Map.of(table, List.copyOf(batch));
        while (!pending.isEmpty()) {
          Map<String, List<WriteRequest>> send = pending;
          pending = ddb.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
        }
        batch.clear();
      }
    }
  }

  /** As the migrator writes a page: index values for the target, then copies in batches of 25. */
  private static void write(StorageDriver driver, TableLayout layout, List<StoredItem> scanned) {
    driver.ensureTable(layout);
    DriverLimits limits = driver.limits(layout);
    List<WriteOp> writes = new ArrayList<>(scanned.size());
    for (StoredItem s : scanned) {
      Item item = StoredItems.withIndexValues(CrossBackendCeilings.SPEC, limits, s.item());
      writes.add(new WriteOp.Put(CrossBackendCeilings.SPEC.keySchema().keyOf(item), item));
    }
    for (int i = 0; i < writes.size(); i += 25) {
      List<WriteOp> pending = writes.subList(i, Math.min(writes.size(), i + 25));
      while (!pending.isEmpty()) {
        pending = driver.batchWriteCopies(layout, pending).unprocessed();
      }
    }
  }
}
