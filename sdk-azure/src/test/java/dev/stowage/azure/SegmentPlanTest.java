package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.KeySchema;
import dev.stowage.azure.internal.TransactionMeter;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How segment plans are made: a table of up to the driver's plan-rows limit is planned by count
 * from one listing of its PartitionKeys (a few requests, segments of about equal rows, partitions
 * whole); a larger one by probing the key space. Either way the segments hold every item exactly
 * once. Listing requests are counted in the client's pipeline.
 */
class SegmentPlanTest {
  static final KeySchema SCHEMA =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);

  static final AtomicInteger LISTINGS = new AtomicInteger();

  static final HttpPipelinePolicy COUNT_LISTINGS =
      (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
        if (context.getHttpRequest().getHttpMethod() == HttpMethod.GET) {
          LISTINGS.incrementAndGet();
        }
        return next.process();
      };

  static AzureTablesDriver counting;
  static AzureTablesDriver probing;

  @BeforeAll
  static void start() {
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            .addPolicy(COUNT_LISTINGS)
            .buildClient();
    counting = new AzureTablesDriver(service, WriteStep.Hook.NONE, new TransactionMeter());
    // Counts tables of at most 50 rows: the tables below are planned by probing.
    probing = new AzureTablesDriver(service, WriteStep.Hook.NONE, new TransactionMeter(), 50);
  }

  @AfterAll
  static void stop() {
    counting.close();
    probing.close();
  }

  /** A table of the given partitions, partition {@code i} holding {@code sizes[i]} items. */
  static TableLayout table(int... sizes) {
    TableLayout table = Layouts.layout("plan", SCHEMA);
    counting.ensureTable(table);
    List<WriteOp> ops = new ArrayList<>();
    for (int p = 0; p < sizes.length; p++) {
      for (int s = 0; s < sizes[p]; s++) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("pk", AttributeValue.of(String.format("part-%03d", p)));
        m.put("sk", AttributeValue.of(s));
        m.put("v", AttributeValue.of("value " + p + "/" + s));
        Item item = StoredItems.of(m);
        ops.add(new WriteOp.Put(SCHEMA.keyOf(item), item));
        if (ops.size() == 100 || s == sizes[p] - 1) {
          assertThat(counting.batchWrite(table, ops).unprocessed()).isEmpty();
          ops = new ArrayList<>();
        }
      }
    }
    return table;
  }

  /** Each segment's items as pk/sk, read in pages of {@code limit}. */
  static List<List<String>> read(AzureTablesDriver driver, TableLayout table, int total) {
    List<List<String>> out = new ArrayList<>();
    for (ScanSegment s : driver.segments(table, null, total)) {
      List<String> seen = new ArrayList<>();
      String checkpoint = null;
      while (true) {
        SegmentPage page = driver.scanSegment(table, new SegmentScan(s, 37, checkpoint, true));
        for (StoredItem i : page.items()) {
          seen.add(i.item().getString("pk") + "/" + i.item().getNumber("sk").longValue());
        }
        if (page.done()) {
          break;
        }
        checkpoint = page.checkpoint();
      }
      out.add(seen);
    }
    return out;
  }

  static List<String> all(int... sizes) {
    List<String> out = new ArrayList<>();
    for (int p = 0; p < sizes.length; p++) {
      for (int s = 0; s < sizes[p]; s++) {
        out.add(String.format("part-%03d", p) + "/" + s);
      }
    }
    return out;
  }

  static List<String> flat(List<List<String>> segments) {
    List<String> out = new ArrayList<>();
    segments.forEach(out::addAll);
    return out;
  }

  @Test
  void aSmallTableIsPlannedByCountInOneListingWithSegmentsOfAboutEqualRows() {
    int[] sizes = new int[40];
    for (int p = 0; p < sizes.length; p++) {
      sizes[p] = 1 + (p * 7) % 13; // 1 to 13 items a partition, 274 in all
    }
    TableLayout table = table(sizes);
    LISTINGS.set(0);
    List<ScanSegment> plan = counting.segments(table, null, 4);
    assertThat(LISTINGS.get()).as("listings to plan 274 rows").isEqualTo(1);
    assertThat(plan).hasSize(4);
    List<List<String>> segments = read(counting, table, 4);
    assertThat(flat(segments)).containsExactlyInAnyOrderElementsOf(all(sizes));
    int rows = all(sizes).size();
    for (List<String> s : segments) {
      // Each cut lies at the partition start nearest its share: off by at most one partition.
      assertThat(s.size()).isBetween(rows / 4 - 2 * 13, rows / 4 + 2 * 13);
    }
  }

  @Test
  void aTableOfMoreThanAListingPageIsCountedInSeveral() {
    int[] sizes = new int[25];
    java.util.Arrays.fill(sizes, 100); // 2,500 rows: three listings of up to 1,000
    TableLayout table = table(sizes);
    LISTINGS.set(0);
    counting.segments(table, null, 8);
    assertThat(LISTINGS.get()).isEqualTo(3);
    List<List<String>> segments = read(counting, table, 8);
    assertThat(flat(segments)).containsExactlyInAnyOrderElementsOf(all(sizes));
    for (List<String> s : segments) {
      assertThat(s.size()).as("rows of a segment, 312.5 each at best").isBetween(300, 400);
    }
  }

  @Test
  void aLargerTableIsPlannedByProbingAndStillHoldsEveryItemOnce() {
    int[] sizes = new int[30];
    java.util.Arrays.fill(sizes, 3); // 90 rows, more than the probing driver counts
    TableLayout table = table(sizes);
    for (int total : new int[] {2, 3, 8, 16}) {
      LISTINGS.set(0);
      probing.segments(table, null, total);
      assertThat(LISTINGS.get())
          .as("probes for %d segments, after one listing that found more than 50 rows", total)
          .isGreaterThan(2);
      assertThat(flat(read(probing, table, total)))
          .as("%d probed segments", total)
          .containsExactlyInAnyOrderElementsOf(all(sizes));
    }
  }

  @Test
  void aTableOfExactlyTheCountedRowsIsStillCounted() {
    int[] sizes = new int[10];
    java.util.Arrays.fill(sizes, 5); // 50 rows: the probing driver's limit
    TableLayout table = table(sizes);
    LISTINGS.set(0);
    probing.segments(table, null, 5);
    assertThat(LISTINGS.get()).isEqualTo(1);
    List<List<String>> segments = read(probing, table, 5);
    assertThat(segments).allSatisfy(s -> assertThat(s).hasSize(10));
  }

  @Test
  void onePartitionGoesWholeToTheFirstSegmentAndTheOthersAreEmpty() {
    TableLayout table = table(30);
    List<ScanSegment> plan = counting.segments(table, null, 3);
    assertThat(plan).extracting(ScanSegment::number).containsExactly(0, 1, 2);
    List<List<String>> segments = read(counting, table, 3);
    assertThat(segments.get(0)).containsExactlyElementsOf(all(30));
    assertThat(segments.get(1)).isEmpty();
    assertThat(segments.get(2)).isEmpty();
  }

  @Test
  void fewerPartitionsThanSegmentsGiveOnePartitionASegmentThenEmptyOnes() {
    TableLayout table = table(4, 4, 4);
    List<List<String>> segments = read(counting, table, 8);
    assertThat(segments).hasSize(8);
    assertThat(segments.subList(0, 3)).allSatisfy(s -> assertThat(s).hasSize(4));
    assertThat(segments.subList(3, 8)).allSatisfy(s -> assertThat(s).isEmpty());
    assertThat(flat(segments)).containsExactlyInAnyOrderElementsOf(all(4, 4, 4));
  }
}
