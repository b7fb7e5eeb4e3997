package dev.stowage.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migrator creates the target table while it reads the source's first pages, and writes nothing
 * before the target exists.
 */
class TargetPreparationTest {
  @TempDir Path dir;

  /** Signals the first segment read. */
  static final class FirstRead extends ForwardingDriver {
    final CountDownLatch read = new CountDownLatch(1);

    FirstRead(MemoryDriver delegate) {
      super(delegate);
    }

    @Override
    public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
      read.countDown();
      return delegate.scanSegment(table, scan);
    }
  }

  /**
   * A target whose table creation waits for the source's first read (or fails), and which checks
   * that every batch write comes after the table exists.
   */
  static final class SlowTarget extends ForwardingDriver {
    final FirstRead source;
    final AtomicBoolean ensured = new AtomicBoolean();
    final AtomicInteger ensureCalls = new AtomicInteger();
    final AtomicInteger writesBeforeTable = new AtomicInteger();
    final AtomicInteger writes = new AtomicInteger();
    volatile boolean overlapped;
    volatile RuntimeException refuse;

    SlowTarget(MemoryDriver delegate, FirstRead source) {
      super(delegate);
      this.source = source;
    }

    @Override
    public void ensureTable(TableLayout layout) {
      ensureCalls.incrementAndGet();
      try {
        overlapped = source == null || source.read.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      if (refuse != null) {
        throw refuse;
      }
      delegate.ensureTable(layout);
      ensured.set(true);
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> ops) {
      writes.incrementAndGet();
      if (!ensured.get()) {
        writesBeforeTable.incrementAndGet();
      }
      return delegate.batchWrite(table, ops);
    }
  }

  private static MemoryDriver filled(int n) {
    MemoryDriver memory = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), n);
    return memory;
  }

  @Test
  void theSourceIsReadWhileTheTargetTableIsCreatedAndNothingIsWrittenBeforeIt() {
    FirstRead source = new FirstRead(filled(900));
    SlowTarget target = new SlowTarget(MemoryDriver.create(), source);
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .pageSize(100)
            .parallelism(3)
            .build();
    Migrator.Report r = m.run();
    assertThat(target.overlapped)
        .as("the source's first page was read while the target table was being created")
        .isTrue();
    assertThat(target.ensureCalls.get()).isEqualTo(1);
    assertThat(target.writes.get()).isPositive();
    assertThat(target.writesBeforeTable.get()).isZero();
    assertThat(r.progress().itemsCopied()).isEqualTo(900);
    assertThat(m.verify().ok()).isTrue();
  }

  @Test
  void aTargetThatCannotBeCreatedFailsTheRunWithItsErrorAndAResumedRunCopiesEverythingOnce() {
    Path checkpoint = dir.resolve("cp");
    MemoryDriver sourceDriver = filled(700);
    FirstRead source = new FirstRead(sourceDriver);
    MemoryDriver targetDriver = MemoryDriver.create();
    SlowTarget refusing = new SlowTarget(targetDriver, source);
    refusing.refuse = new InvalidRequestException("table exists with another key schema");
    Migrator failing =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(refusing, null, "")
            .sourceLocation("src")
            .targetLocation("dst")
            .pageSize(50)
            .parallelism(4)
            .checkpoint(checkpoint)
            .build();
    assertThatThrownBy(failing::run)
        .isSameAs(refusing.refuse)
        .hasMessageContaining("another key schema");
    assertThat(refusing.writes.get()).as("nothing is written without the target").isZero();

    MigratorTest.RecordingDriver target = new MigratorTest.RecordingDriver(targetDriver);
    Migrator resumed =
        Migrator.builder(MigratorTest.SPEC)
            .source(sourceDriver, null, "")
            .target(target, null, "")
            .sourceLocation("src")
            .targetLocation("dst")
            .pageSize(50)
            .parallelism(4)
            .checkpoint(checkpoint)
            .build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(700);
    assertThat(r.progress().itemsSkipped()).isZero();
    assertThat(target.puts).hasSize(700);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(resumed.verify().ok()).isTrue();
  }

  @Test
  void anEmptySourceStillGetsItsTargetTableAndARefusedOneFailsTheRun() {
    MemoryDriver empty = MemoryDriver.create();
    Stowage.builder(empty).build().ensureTable(MigratorTest.SPEC);
    SlowTarget target = new SlowTarget(MemoryDriver.create(), null);
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(empty, null, "")
            .target(target, null, "")
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().done()).isTrue();
    assertThat(r.progress().itemsCopied()).isZero();
    assertThat(target.ensured.get()).isTrue();

    SlowTarget refusing = new SlowTarget(MemoryDriver.create(), null);
    refusing.refuse = new InvalidRequestException("refused");
    Migrator failing =
        Migrator.builder(MigratorTest.SPEC)
            .source(empty, null, "")
            .target(refusing, null, "")
            .build();
    assertThatThrownBy(failing::run).isSameAs(refusing.refuse);
  }

  @Test
  void aSourceThatCannotBeOpenedCreatesNoTargetTable() {
    SlowTarget target = new SlowTarget(MemoryDriver.create(), null);
    Migrator m =
        Migrator.builder(MigratorTest.SPEC)
            .source(MemoryDriver.create(), null, "")
            .target(target, null, "")
            .build();
    assertThatThrownBy(m::run).isInstanceOf(NotFoundException.class);
    assertThat(target.ensureCalls.get()).isZero();
  }
}
