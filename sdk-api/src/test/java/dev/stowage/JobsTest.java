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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
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
    // The last page report is after two pages; the failed run then reports the failed page's
    // three batches that are in (75 items), at the same position.
    assertThat(reports.get(reports.size() - 2).deleted()).isEqualTo(200);
    DeleteJob.Progress last = reports.get(reports.size() - 1);
    assertThat(last.deleted()).isEqualTo(275);
    assertThat(last.matched()).isEqualTo(275);
    assertThat(last.done()).isFalse();
    long remaining = t.queryAll(expired()).count();
    // The failed page's other three batches are in; the fourth page (read meanwhile) is untouched.
    assertThat(remaining).isEqualTo(800 - 75);
    assertThat(t.queryAll(expired()).map(i -> i.getLong("at")))
        .as("nothing before the token is left")
        .allMatch(at -> at >= 200);
    int writes = driver.writes.get();
    sleep(100);
    assertThat(driver.writes.get()).as("no batch is sent after run() returned").isEqualTo(writes);

    DeleteJob.Progress finished =
        t.resumeDelete(last.resumeToken(), DeleteJob.Options.DEFAULT).run();
    assertThat(finished.done()).isTrue();
    assertThat(finished.deleted()).as("every deleted item counted once").isEqualTo(1000);
    assertThat(finished.matched()).isEqualTo(1000);
    assertThat(t.queryAll(expired())).isEmpty();
    assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("active")).build()))
        .containsExactlyInAnyOrderElementsOf(kept);
  }

  /**
   * A driver whose batch writes take a random few milliseconds (so batches of two pages overlap in
   * every order) and whose n-th batch write fails.
   */
  private static final class SlowFailingBatch extends ForwardingDriver {
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger mostRunning = new AtomicInteger();
    final java.util.Random random;
    volatile int failAt = Integer.MAX_VALUE;

    SlowFailingBatch(long seed) {
      super(MemoryDriver.create());
      random = new java.util.Random(seed);
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
      int now = running.incrementAndGet();
      mostRunning.accumulateAndGet(now, Math::max);
      try {
        int delay;
        synchronized (random) {
          delay = random.nextInt(6);
        }
        sleep(delay);
        if (writes.incrementAndGet() == failAt) {
          throw new InvalidRequestException("injected batch failure");
        }
        return super.batchWrite(table, ops);
      } finally {
        running.decrementAndGet();
      }
    }
  }

  @Test
  void noReportedTokenPassesAnUndeletedItemWhateverBatchFails() {
    // 300 matches in pages of 50 (2 batches each): every batch position fails once, in turn.
    for (int failAt = 1; failAt <= 12; failAt++) {
      SlowFailingBatch driver = new SlowFailingBatch(failAt);
      Table t = Stowage.builder(driver).build().ensureTable(SPEC);
      List<Item> kept = load(t, 300, 10, 0);
      driver.writes.set(0);
      driver.failAt = failAt;
      List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
      List<String> lost = new CopyOnWriteArrayList<>();
      DeleteJob.Options options =
          new DeleteJob.Options(0, 50, false, null)
              .withParallelism(3)
              .withProgress(
                  p -> {
                    reports.add(p);
                    // Every item before the token (items are deleted in "at" order, the token
                    // at a page's end; a failed run's report counts the failed page's batches
                    // that are in, at the page's start) is gone.
                    long position = p.deleted() - p.deleted() % 50;
                    t.queryAll(expired())
                        .filter(i -> i.getLong("at") < position)
                        .forEach(i -> lost.add(p.deleted() + ": " + i.getString("id")));
                  });
      Throwable thrown = catchThrowable(() -> t.deleteWhere(expired(), options).run());
      assertThat(thrown).as("batch %d fails", failAt).hasMessageContaining("injected");
      assertThat(lost).as("items left before a token, batch %d failing", failAt).isEmpty();
      long remaining = t.queryAll(expired()).count();
      long reported = reports.get(reports.size() - 1).deleted();
      // The failed page's other batch is in, and counted by the failed run's last report;
      // nothing of a later page is deleted.
      assertThat(reported % 50).as("batch %d failing", failAt).isEqualTo(25);
      assertThat(remaining).isEqualTo(300 - reported);
      DeleteJob.Progress finished =
          t.resumeDelete(reports.get(reports.size() - 1).resumeToken(), options).run();
      assertThat(finished.done()).isTrue();
      assertThat(finished.deleted())
          .as("counted once each, batch %d failing", failAt)
          .isEqualTo(300);
      assertThat(t.queryAll(expired())).isEmpty();
      assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("active")).build()))
          .containsExactlyInAnyOrderElementsOf(kept);
    }
  }

  @Test
  void aPagesBatchesGoOutTogetherAndTheNextPageIsReadMeanwhile() throws Exception {
    java.util.concurrent.CountDownLatch firstHeld = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean armed =
        new java.util.concurrent.atomic.AtomicBoolean();
    AtomicInteger writes = new AtomicInteger();
    AtomicInteger writesWhileHeld = new AtomicInteger();
    AtomicInteger reads = new AtomicInteger();
    ForwardingDriver driver =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
            if (!armed.get()) {
              return super.batchWrite(table, ops);
            }
            int n = writes.incrementAndGet();
            if (n == 1) {
              firstHeld.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            } else if (release.getCount() > 0) {
              writesWhileHeld.incrementAndGet();
            }
            return super.batchWrite(table, ops);
          }

          @Override
          public dev.stowage.spi.QueryResult query(
              TableLayout table, dev.stowage.spi.DriverQuery query) {
            if (armed.get()) {
              reads.incrementAndGet();
            }
            return super.query(table, query);
          }
        };
    Table t = Stowage.builder(driver).build().ensureTable(SPEC);
    load(t, 400, 0, 0);
    armed.set(true);
    List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
    var job =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () ->
                t.deleteWhere(expired(), new DeleteJob.Options(0, 100, false, reports::add, 4))
                    .run());
    firstHeld.await();
    // While the first page's first batch is held, its other 3 batches go out and page 2 is read.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while ((writesWhileHeld.get() < 3 || reads.get() < 2) && System.nanoTime() < deadline) {
      sleep(5);
    }
    sleep(100);
    assertThat(writesWhileHeld.get()).as("page 1's other batches, none of page 2").isEqualTo(3);
    assertThat(reads.get()).as("page 2 read while page 1 is deleted").isGreaterThanOrEqualTo(2);
    assertThat(reports).as("no page reported while a batch of it is out").isEmpty();
    release.countDown();
    DeleteJob.Progress done = job.get();
    assertThat(done.deleted()).isEqualTo(400);
    assertThat(reports.get(0).deleted()).isEqualTo(100);
    assertThat(t.queryAll(expired())).isEmpty();
  }

  @Test
  void aPagesDeletesAreBatchedByPartition() {
    // The index interleaves 4 partitions (item i in partition i % 4); each page of 100 holds 25 of
    // each, so batches of 25 (the memory driver's DynamoDB-like limit) can each hold one.
    TableSpec spec =
        TableSpec.builder("tenant_jobs", KeySchema.of("tenant", STRING, "id", STRING))
            .index("byStatus", List.of("status"), List.of("at"))
            .build();
    List<Set<AttributeValue>> batches = new CopyOnWriteArrayList<>();
    AtomicBoolean armed = new AtomicBoolean();
    ForwardingDriver driver =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
            if (armed.get()) {
              Set<AttributeValue> partitions = new HashSet<>();
              ops.forEach(op -> partitions.add(op.key().partition()));
              batches.add(partitions);
            }
            return super.batchWrite(table, ops);
          }
        };
    Table t = Stowage.builder(driver).build().ensureTable(spec);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 260; i++) {
      items.add(
          Item.builder()
              .put("tenant", "t" + (i % 4))
              .put("id", String.format("k%06d", i))
              .put("status", i < 200 ? "expired" : "active")
              .put("at", i)
              .build());
    }
    t.batchPut(items);
    armed.set(true);
    DeleteJob.Progress done =
        t.deleteWhere(expired(), new DeleteJob.Options(0, 100, false, null)).run();
    armed.set(false);
    assertThat(done.deleted()).isEqualTo(200);
    assertThat(batches).hasSize(8);
    assertThat(batches).allSatisfy(b -> assertThat(b).hasSize(1));
    assertThat(t.queryAll(expired())).isEmpty();
    assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("active")).build()))
        .hasSize(60);
  }

  @Test
  void parallelismBoundsTheBatchesInFlight() {
    for (int parallelism : new int[] {1, 6}) {
      SlowFailingBatch driver = new SlowFailingBatch(parallelism);
      Table t = Stowage.builder(driver).build().ensureTable(SPEC);
      load(t, 600, 0, 0);
      driver.mostRunning.set(0);
      DeleteJob.Progress done =
          t.deleteWhere(expired(), DeleteJob.Options.DEFAULT.withParallelism(parallelism)).run();
      assertThat(done.deleted()).isEqualTo(600);
      if (parallelism == 1) {
        assertThat(driver.mostRunning.get()).isEqualTo(1);
      } else {
        assertThat(driver.mostRunning.get()).isBetween(2, parallelism);
      }
    }
    assertThat(catchThrowable(() -> DeleteJob.Options.DEFAULT.withParallelism(0)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(catchThrowable(() -> DeleteJob.Options.DEFAULT.withParallelism(257)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theRateLimitHoldsAcrossEveryWriter() {
    List<long[]> sends = new CopyOnWriteArrayList<>(); // {nanoTime, items}
    ForwardingDriver driver =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
            sends.add(new long[] {System.nanoTime(), ops.size()});
            return super.batchWrite(table, ops);
          }
        };
    Table t = Stowage.builder(driver).build().ensureTable(SPEC);
    load(t, 400, 0, 0);
    sends.clear();
    double rate = 500;
    long start = System.nanoTime();
    DeleteJob.Progress done =
        t.deleteWhere(expired(), new DeleteJob.Options(rate, 100, false, null).withParallelism(8))
            .run();
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(done.deleted()).isEqualTo(400);
    assertThat(millis).as("375 items after the first batch at 500/s").isGreaterThanOrEqualTo(700);
    List<long[]> ordered = new ArrayList<>(sends);
    ordered.sort(java.util.Comparator.comparingLong(a -> a[0]));
    long first = ordered.get(0)[0];
    long before = 0;
    for (long[] send : ordered) {
      double seconds = (send[0] - first) / 1e9;
      assertThat((double) before)
          .as("items sent before %.3f s", seconds)
          .isLessThanOrEqualTo(rate * seconds + 25 + 1e-9 + rate * 0.002);
      before += send[1];
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
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
