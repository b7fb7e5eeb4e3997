package dev.stowage.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.Capability;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Migrator#cancel()}: a run cancelled halfway stops between pages with its checkpoint
 * intact, and a migrator built again with the same checkpoint copies the rest, every item exactly
 * once, as the verifier confirms.
 */
class MigrationCancelTest {
  static final int ITEMS = 3000;

  @TempDir Path dir;

  @Test
  void aSegmentedRunCancelledHalfwayResumesWithoutLossOrDuplicates() {
    MemoryDriver source = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(source).build().ensureTable(MigratorTest.SPEC), ITEMS);
    cancelAndResume(source, 6, true);
  }

  @Test
  void aSequentialRunCancelledHalfwayResumesWithoutLossOrDuplicates() {
    // A source without segmented scans is read by one scan.
    MemoryDriver source = MemoryDriver.builder().without(Capability.SEGMENTED_SCANS).build();
    MigratorTest.fill(Stowage.builder(source).build().ensureTable(MigratorTest.SPEC), ITEMS);
    cancelAndResume(source, 1, false);
  }

  @Test
  void aMigratorCancelledBeforeItRunsCopiesNothing() {
    MemoryDriver source = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(source).build().ensureTable(MigratorTest.SPEC), 100);
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .checkpoint(dir.resolve("cp"))
            .build();
    m.cancel();
    assertThat(m.isCancelled()).isTrue();
    Migrator.Report r = m.run();
    assertThat(r.progress().done()).isFalse();
    assertThat(r.progress().itemsCopied()).isZero();
    assertThat(target.puts).isEmpty();
  }

  private void cancelAndResume(MemoryDriver source, int segments, boolean segmented) {
    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(MemoryDriver.create());
    Path checkpoint = dir.resolve("events.checkpoint");
    AtomicReference<Migrator> running = new AtomicReference<>();
    AtomicReference<Migrator.Progress> last = new AtomicReference<>();
    Migrator.Builder b =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .pageSize(50)
            .parallelism(3)
            .segments(segments)
            .checkpoint(checkpoint)
            .onProgress(
                p -> {
                  last.set(p);
                  // Cancelled from the listener once about a third is copied, while pages are in
                  // flight: those finish, the rest is left to the resumed run.
                  if (p.itemsCopied() >= ITEMS / 3) {
                    running.get().cancel();
                  }
                });
    Migrator first = b.build();
    running.set(first);
    Migrator.Report stopped = first.run();
    assertThat(stopped.progress().done()).isFalse();
    assertThat(last.get().done()).as("the final report of a cancelled run").isFalse();
    long copied = stopped.progress().itemsCopied();
    assertThat(copied).isBetween((long) ITEMS / 3, (long) ITEMS - 1);
    assertThat(target.puts).hasSize((int) copied);
    if (segmented) {
      assertThat(stopped.progress().segments()).hasSize(segments);
      assertThat(stopped.progress().segments().stream().mapToLong(s -> s.itemsCopied()).sum())
          .isEqualTo(copied);
      assertThat(stopped.progress().segments()).anyMatch(s -> !s.done());
    } else {
      assertThat(stopped.progress().segments()).isEmpty();
    }
    Verification partial = first.verify();
    assertThat(partial.ok()).isFalse();
    assertThat(partial.missing()).isEqualTo(ITEMS - copied);

    Migrator resumed = b.onProgress(last::set).build();
    Migrator.Report rest = resumed.run();
    assertThat(rest.progress().done()).isTrue();
    assertThat(rest.progress().itemsSkipped()).isEqualTo(copied);
    assertThat(rest.progress().itemsCopied()).isEqualTo(ITEMS - copied);
    if (segmented) {
      List<Migrator.SegmentProgress> each = rest.progress().segments();
      assertThat(each).hasSize(segments).allMatch(Migrator.SegmentProgress::done);
      assertThat(each.stream().mapToLong(s -> s.itemsCopied() + s.itemsSkipped()).sum())
          .isEqualTo(ITEMS);
    }
    assertThat(target.puts).hasSize(ITEMS);
    assertThat(target.puts.values()).as("no item written twice").allMatch(n -> n.get() == 1);
    Verification v = resumed.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
    assertThat(v.targetItems()).isEqualTo(ITEMS);
  }
}
