package dev.stowage;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Maintenance jobs walking a table in parallel segments, their tokens carrying every segment. */
class SegmentedMaintenanceJobTest {
  private final Set<Integer> segmentsRead = ConcurrentHashMap.newKeySet();
  private final Set<String> threads = ConcurrentHashMap.newKeySet();
  private final Stowage store =
      Stowage.builder(
              new ForwardingDriver(MemoryDriver.create()) {
                @Override
                public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
                  segmentsRead.add(scan.segment().number());
                  threads.add(Thread.currentThread().getName() + Thread.currentThread().getId());
                  return delegate.scanSegment(table, scan);
                }
              })
          .build();
  private final KeySchema keys = KeySchema.of("user", STRING, "at", NUMBER);

  @Test
  void aBackfillInSegmentsResumesFromATokenCarryingEverySegment() {
    Table plain = store.ensureTable(TableSpec.builder("orders", keys).build());
    for (int i = 0; i < 600; i++) {
      plain.put(
          Item.builder()
              .put("user", "u" + (i % 17))
              .put("at", i)
              .put("status", i % 3 == 0 ? "open" : "done")
              .build());
    }
    Table indexed =
        store.ensureTable(
            TableSpec.builder("orders", keys)
                .index("byStatus", List.of("status"), List.of("at"))
                .build());
    MaintenanceJob.Options options =
        new MaintenanceJob.Options(0, 20, false, null).withParallelism(5);
    List<MaintenanceJob.Progress> seen = new ArrayList<>();
    RuntimeException stop = new RuntimeException("stop");
    try {
      indexed
          .backfillIndexes(
              options.withProgress(
                  p -> {
                    seen.add(p);
                    if (seen.size() == 3) {
                      throw stop;
                    }
                  }))
          .run();
    } catch (RuntimeException e) {
      assertThat(e).isSameAs(stop);
    }
    assertThat(seen.get(2).scanned()).as("three steps of five segments' pages").isEqualTo(300);
    assertThat(segmentsRead).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    assertThat(threads).hasSizeGreaterThan(1);

    // Resumed with parallelism 1: the token's five segments continue, one thread.
    MaintenanceJob.Progress last =
        indexed.resumeMaintenance(seen.get(2).resumeToken(), options.withParallelism(1)).run();
    assertThat(last.done()).isTrue();
    assertThat(last.scanned()).isEqualTo(600);
    assertThat(last.rewritten()).isEqualTo(600);
    assertThat(last.missing()).isEqualTo(600);
    Query open = Query.index("byStatus").partition(AttributeValue.of("open")).limit(1000).build();
    assertThat(indexed.query(open).items()).hasSize(200);
    assertThat(indexed.verifyIndexes(options).run().rewritten()).isZero();
  }

  @Test
  void aTokenOfOneScanContinuesInOneScan() {
    Table plain = store.ensureTable(TableSpec.builder("events", keys).build());
    for (int i = 0; i < 120; i++) {
      plain.put(Item.builder().put("user", "u" + (i % 3)).put("at", i).put("k", "x").build());
    }
    Table indexed =
        store.ensureTable(
            TableSpec.builder("events", keys).index("byK", List.of("k"), List.of("at")).build());
    MaintenanceJob.Options one = new MaintenanceJob.Options(0, 50, false, null);
    List<MaintenanceJob.Progress> seen = new ArrayList<>();
    RuntimeException stop = new RuntimeException("stop");
    try {
      indexed
          .backfillIndexes(
              one.withProgress(
                  p -> {
                    seen.add(p);
                    throw stop;
                  }))
          .run();
    } catch (RuntimeException e) {
      assertThat(e).isSameAs(stop);
    }
    MaintenanceJob.Progress last =
        indexed.resumeMaintenance(seen.get(0).resumeToken(), one.withParallelism(4)).run();
    assertThat(segmentsRead).isEmpty();
    assertThat(last.scanned()).isEqualTo(120);
    assertThat(last.rewritten()).isEqualTo(120);
  }
}
