package dev.stowage.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.Capability;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.TableLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The migrator reads a source that scans in segments in parallel, one checkpoint per segment. */
class SegmentedMigrationTest {
  @TempDir Path dir;

  /** Records which segments were read, and from which threads. */
  static class SegmentReads extends ForwardingDriver {
    final Set<Integer> segments = ConcurrentHashMap.newKeySet();
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final AtomicInteger plans = new AtomicInteger();
    final AtomicInteger totals = new AtomicInteger();

    SegmentReads(MemoryDriver delegate) {
      super(delegate);
    }

    @Override
    public List<ScanSegment> segments(TableLayout table, String index, int total) {
      plans.incrementAndGet();
      totals.set(total);
      return delegate.segments(table, index, total);
    }

    @Override
    public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
      segments.add(scan.segment().number());
      threads.add(Thread.currentThread().getName() + Thread.currentThread().getId());
      return delegate.scanSegment(table, scan);
    }
  }

  @Test
  void everySegmentIsReadAndEveryItemCopiedOnce() {
    MemoryDriver memory = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), 3000);
    SegmentReads source = new SegmentReads(memory);
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .pageSize(70)
            .parallelism(4)
            .segments(16)
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(3000);
    assertThat(source.totals.get()).isEqualTo(16);
    assertThat(source.segments).hasSize(16);
    assertThat(source.threads).as("segments are read by several threads").hasSizeGreaterThan(1);
    assertThat(target.puts).hasSize(3000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    Verification v = m.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
    assertThat(v.sourceItems()).isEqualTo(3000);
  }

  @Test
  void anInterruptedRunResumesEachSegmentFromItsOwnCheckpointWithTheRecordedPlan()
      throws Exception {
    MemoryDriver memory = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), 2500);
    SegmentReads source = new SegmentReads(memory);
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    target.failAfterBatches = 9;
    Path checkpoint = dir.resolve("events.checkpoint");
    Migrator.Builder b =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .pageSize(60)
            .parallelism(3)
            .segments(5)
            .checkpoint(checkpoint)
            .retryPolicy(RetryPolicy.NONE);
    assertThatThrownBy(() -> b.build().run()).hasMessage("simulated crash");
    int before = target.puts.size();
    assertThat(before).isBetween(1, 2499);
    List<String> lines = Files.readAllLines(checkpoint);
    assertThat(lines).anyMatch(l -> l.startsWith("plan\t5\t"));
    assertThat(lines.stream().filter(l -> l.startsWith("page\t")).map(l -> l.split("\t")[1]))
        .allMatch(start -> start.matches("[0-4]@.*"));

    target.failAfterBatches = Integer.MAX_VALUE;
    // Another segment count on resume: the checkpoint's plan wins, so no segment is re-cut.
    Migrator.Report r = b.segments(9).build().run();
    assertThat(source.plans.get()).as("the resumed run plans nothing").isEqualTo(1);
    assertThat(r.progress().itemsCopied()).isEqualTo(2500 - before);
    assertThat(r.progress().itemsSkipped()).isEqualTo(before);
    assertThat(target.puts).hasSize(2500);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(b.build().verify().ok()).isTrue();
  }

  /** Records the limit of every page read, per segment, in order. */
  static class PageLimits extends SegmentReads {
    final Map<Integer, List<Integer>> limits = new ConcurrentHashMap<>();

    PageLimits(MemoryDriver delegate) {
      super(delegate);
    }

    @Override
    public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
      limits
          .computeIfAbsent(
              scan.segment().number(), k -> new java.util.concurrent.CopyOnWriteArrayList<>())
          .add(scan.limit());
      return super.scanSegment(table, scan);
    }
  }

  @Test
  void eachSegmentFirstReadsAShortPageUnlessWritesOfThePageItResumesAreRecorded() throws Exception {
    MemoryDriver memory = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), 3000);
    MemoryDriver targetMemory = MemoryDriver.create();
    int batch = targetMemory.limits().maxBatchWrite(); // also its calls of copies
    int pageSize = 8 * batch + 3;
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(targetMemory);
    target.failAfterBatches = 30;
    Path checkpoint = dir.resolve("short.checkpoint");
    PageLimits first = new PageLimits(memory);
    Migrator.Builder b =
        Migrator.builder(MigratorTest.SPEC)
            .target(target, null, "")
            .pageSize(pageSize)
            // One reader and one writer: the crash falls in the fourth page of segment 0 (calls
            // of 25 writes: 4 in the short first page, 9 in each later one), partly written.
            .parallelism(1)
            .segments(3)
            .checkpoint(checkpoint)
            .retryPolicy(RetryPolicy.NONE);
    assertThatThrownBy(() -> b.source(first, null, "").build().run()).hasMessage("simulated crash");
    assertThat(first.limits).isNotEmpty();
    for (List<Integer> l : first.limits.values()) {
      assertThat(l.get(0)).as("a segment's first page in a run").isEqualTo(4 * batch);
      assertThat(l.subList(1, l.size())).allMatch(n -> n == pageSize);
    }
    // Pages with writes recorded but not completed: their segments must read them whole again.
    List<String> lines = Files.readAllLines(checkpoint);
    Set<String> done = new java.util.HashSet<>();
    Set<Integer> partial = new java.util.HashSet<>();
    lines.stream().filter(l -> l.startsWith("page\t")).forEach(l -> done.add(l.split("\t")[1]));
    lines.stream()
        .filter(l -> l.startsWith("writes\t"))
        .map(l -> l.split("\t")[1])
        .filter(start -> !done.contains(start))
        .forEach(start -> partial.add(Integer.parseInt(start.substring(0, start.indexOf('@')))));
    assertThat(partial).as("the crash left a page partly written").containsExactly(0);
    int before = target.puts.size();

    target.failAfterBatches = Integer.MAX_VALUE;
    PageLimits resumed = new PageLimits(memory);
    Migrator.Report r = b.source(resumed, null, "").build().run();
    assertThat(resumed.limits).containsOnlyKeys(0, 1, 2);
    for (Map.Entry<Integer, List<Integer>> e : resumed.limits.entrySet()) {
      int expected = partial.contains(e.getKey()) ? pageSize : 4 * batch;
      assertThat(e.getValue().get(0)).as("segment %d resumed", e.getKey()).isEqualTo(expected);
    }
    assertThat(r.progress().itemsCopied()).isEqualTo(3000 - before);
    assertThat(target.puts).hasSize(3000);
    assertThat(target.puts.values()).as("no item written twice").allMatch(n -> n.get() == 1);
  }

  @Test
  void aSourceWithoutSegmentedScansIsScannedByOneThread() {
    MemoryDriver memory = MemoryDriver.builder().without(Capability.SEGMENTED_SCANS).build();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), 700);
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(memory, null, "")
            .target(target, null, "")
            .pageSize(50)
            .segments(8)
            .build();
    assertThat(m.run().progress().itemsCopied()).isEqualTo(700);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(m.verify().ok()).isTrue();
  }

  @Test
  void aCheckpointOfASequentialRunIsResumedSequentially() throws Exception {
    MemoryDriver plain = MemoryDriver.builder().without(Capability.SEGMENTED_SCANS).build();
    MigratorTest.fill(Stowage.builder(plain).build().ensureTable(MigratorTest.SPEC), 900);
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    target.failAfterBatches = 3;
    Path checkpoint = dir.resolve("seq.checkpoint");
    // The same memory instance, the second time seen as able to scan in segments: the first run
    // scans sequentially, the resumed one could read segments but must continue the sequential
    // pages (a plan would fail: the memory driver underneath has no segmented scans).
    SegmentReads segmentedView =
        new SegmentReads(plain) {
          @Override
          public Set<Capability> capabilities() {
            Set<Capability> all = new java.util.HashSet<>(delegate.capabilities());
            all.add(Capability.SEGMENTED_SCANS);
            return all;
          }
        };
    Migrator.Builder b =
        Migrator.builder(MigratorTest.SPEC)
            .target(target, null, "")
            .pageSize(40)
            .parallelism(2)
            .checkpoint(checkpoint)
            .retryPolicy(RetryPolicy.NONE);
    assertThatThrownBy(() -> b.source(plain, null, "").build().run()).hasMessage("simulated crash");
    int before = target.puts.size();
    target.failAfterBatches = Integer.MAX_VALUE;
    Migrator.Report r = b.source(segmentedView, null, "").build().run();
    assertThat(segmentedView.plans.get()).isZero();
    assertThat(r.progress().itemsSkipped()).isEqualTo(before);
    assertThat(target.puts).hasSize(900);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(Files.readAllLines(checkpoint)).noneMatch(l -> l.startsWith("plan\t"));
  }
}
