package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.query.Query;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The jobs' shared shape and the delete job's parallel pages: a delete reads no overflow blob yet
 * releases every one, a failed batch leaves no token past an undeleted item, and every kind of job
 * stops on {@link Job#cancel} with a report that is not done.
 */
class JobsTest {
  private static final TableSpec SPEC =
      TableSpec.builder("jobs", KeySchema.of("id", STRING))
          .index("byStatus", List.of("status"), List.of("at"))
          .build();

  private static Query expired() {
    return Query.index("byStatus").partition(AttributeValue.of("expired")).build();
  }

  private static List<Item> load(Table t, int expired, int active, int payloadBytes) {
    List<Item> all = new ArrayList<>();
    List<Item> kept = new ArrayList<>();
    for (int i = 0; i < expired + active; i++) {
      Item.Builder b =
          Item.builder()
              .put("id", String.format("k%06d", i))
              .put("status", i < expired ? "expired" : "active")
              .put("at", i);
      if (payloadBytes > 0) {
        byte[] payload = new byte[payloadBytes];
        payload[0] = (byte) i;
        b.put("payload", Bytes.wrap(payload));
      }
      Item item = b.build();
      all.add(item);
      if (i >= expired) {
        kept.add(item);
      }
    }
    t.batchPut(all);
    return kept;
  }

  /** A blob store that counts the blobs read. */
  private static final class CountingBlobs implements BlobStore {
    final MemoryBlobStore inner = new MemoryBlobStore();
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public void put(String key, InputStream data, long length) {
      inner.put(key, data, length);
    }

    @Override
    public Optional<InputStream> open(String key) {
      reads.incrementAndGet();
      return inner.open(key);
    }

    @Override
    public void delete(String key) {
      inner.delete(key);
    }

    @Override
    public Stream<BlobInfo> list(String prefix) {
      return inner.list(prefix);
    }
  }

  @Test
  void aDeleteJobReadsNoBlobAndReleasesEveryOne() {
    CountingBlobs blobs = new CountingBlobs();
    Table t = Stowage.builder(MemoryDriver.create()).blobStore(blobs).build().ensureTable(SPEC);
    List<Item> kept = load(t, 30, 5, 500_000);
    assertThat(blobs.inner.list("").count()).isEqualTo(35);
    int readsBefore = blobs.reads.get();
    DeleteJob.Progress done =
        t.deleteWhere(expired(), new DeleteJob.Options(0, 7, false, null)).run();
    assertThat(done.deleted()).isEqualTo(30);
    assertThat(done.blobsDeleted()).isEqualTo(30);
    assertThat(blobs.reads.get()).as("blobs read by the delete job").isEqualTo(readsBefore);
    assertThat(blobs.inner.list("").count()).isEqualTo(5);
    assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("active")).build()))
        .containsExactlyInAnyOrderElementsOf(kept);
  }

  /** A driver whose n-th batch write (counting from 1) fails. */
  private static final class FailingBatch extends ForwardingDriver {
    final AtomicInteger writes = new AtomicInteger();
    volatile int failAt = Integer.MAX_VALUE;

    FailingBatch() {
      super(MemoryDriver.create());
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
      if (writes.incrementAndGet() == failAt) {
        throw new InvalidRequestException("injected batch failure");
      }
      return super.batchWrite(table, ops);
    }
  }

  @Test
  void aFailedBatchLeavesNoTokenPastAnUndeletedItem() {
    FailingBatch driver = new FailingBatch();
    Table t = Stowage.builder(driver).build().ensureTable(SPEC);
    List<Item> kept = load(t, 1000, 20, 0);
    List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
    // Pages of 100 are 4 batches of 25; the 11th batch is in the third page.
    driver.writes.set(0);
    driver.failAt = 11;
    Throwable thrown =
        catchThrowable(
            () ->
                t.deleteWhere(expired(), new DeleteJob.Options(0, 100, false, reports::add)).run());
    assertThat(thrown).hasMessageContaining("injected batch failure");
    DeleteJob.Progress last = reports.get(reports.size() - 1);
    assertThat(last.deleted()).isEqualTo(200);
    long remaining = t.queryAll(expired()).count();
    assertThat(remaining)
        .as("the failed page's other three batches are in, nothing before the token is left")
        .isEqualTo(800 - 75);

    DeleteJob.Progress finished =
        t.resumeDelete(last.resumeToken(), DeleteJob.Options.DEFAULT).run();
    assertThat(finished.done()).isTrue();
    assertThat(finished.deleted()).isEqualTo(200 + remaining);
    assertThat(t.queryAll(expired())).isEmpty();
    assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("active")).build()))
        .containsExactlyInAnyOrderElementsOf(kept);
  }

  @Test
  void aCancelledMaintenanceJobResumesFromItsReport() {
    Stowage store = Stowage.builder(MemoryDriver.create()).build();
    Table plain =
        store.ensureTable(TableSpec.builder("orders", KeySchema.of("id", STRING)).build());
    for (int i = 0; i < 250; i++) {
      plain.put(Item.builder().put("id", "o" + i).put("status", "new").put("at", i).build());
    }
    Table indexed =
        store.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", STRING))
                .index("byStatus", List.of("status"), List.of("at"))
                .build());
    AtomicReference<MaintenanceJob> job = new AtomicReference<>();
    job.set(
        indexed.backfillIndexes(
            new MaintenanceJob.Options(0, 50, false, null)
                .withProgress(p -> job.get().cancel())
                .withRateLimit(100_000)));
    MaintenanceJob.Progress stopped = job.get().run();
    assertThat(stopped.done()).isFalse();
    assertThat(stopped.scanned()).isEqualTo(50);
    MaintenanceJob.Progress finished =
        indexed.resumeMaintenance(stopped.resumeToken(), MaintenanceJob.Options.DEFAULT).run();
    assertThat(finished.done()).isTrue();
    assertThat(finished.scanned()).isEqualTo(250);
    assertThat(finished.rewritten()).isEqualTo(250);
    assertThat(
            indexed.queryAll(Query.index("byStatus").partition(AttributeValue.of("new")).build()))
        .hasSize(250);
  }

  @Test
  void aCancelledSweepStopsAndRunsAgainToTheEnd() {
    MemoryBlobStore blobs = new MemoryBlobStore();
    TableRef ref = new TableRef("ns", "orders");
    String prefix = OverflowSweeper.prefixOf(ref);
    for (int i = 0; i < 2500; i++) {
      blobs.put(prefix + "orphan-" + i, new byte[] {1});
    }
    java.time.Clock later =
        java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(2));
    AtomicReference<OverflowSweeper> sweeper = new AtomicReference<>();
    List<OverflowSweeper.Report> reports = new CopyOnWriteArrayList<>();
    sweeper.set(
        OverflowSweeper.builder(blobs, ref)
            .referencedKeys(java.util.Set::of)
            .clock(later)
            .deleteBatchSize(5000)
            .maxBlobsPerSecond(1_000_000)
            .progress(
                r -> {
                  reports.add(r);
                  sweeper.get().cancel();
                })
            .build());
    OverflowSweeper.Report stopped = sweeper.get().run();
    assertThat(stopped.done()).isFalse();
    assertThat(stopped.listed()).isEqualTo(1000);
    assertThat(stopped.resumeToken()).isNull();
    assertThat(reports).hasSize(2); // the page's report, then the cancelled run's last one
    OverflowSweeper.Report again =
        OverflowSweeper.builder(blobs, ref)
            .referencedKeys(java.util.Set::of)
            .clock(later)
            .build()
            .run();
    assertThat(again.done()).isTrue();
    assertThat(again.deleted()).isEqualTo(2500);
    assertThat(blobs.list("").count()).isZero();
  }
}
