package dev.stowage.migrate.internal;

import dev.stowage.migrate.Migrator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counts of one {@link Migrator#run()} or {@link Migrator#copy(List)}, updated by its readers
 * and writers, and the {@link Migrator.Progress} they add up to. Thread-safe.
 */
final class CopyCounters {
  /** Completes once the target table exists: at once for {@link Migrator#copy(List)}. */
  volatile CompletableFuture<Void> targetReady = CompletableFuture.completedFuture(null);

  final LongAdder items = new LongAdder();
  final LongAdder skipped = new LongAdder();
  final LongAdder blobs = new LongAdder();
  final LongAdder blobBytes = new LongAdder();
  final LongAdder missingBlobs = new LongAdder();
  volatile Segment[] segments = new Segment[0];

  /** The counts of one segment of a segmented run. */
  static final class Segment {
    final int number;
    final LongAdder copied = new LongAdder();
    final LongAdder skipped = new LongAdder();
    final AtomicInteger pending = new AtomicInteger();
    volatile boolean read;
    volatile boolean abandoned;

    Segment(int number) {
      this.number = number;
    }
  }

  /**
   * The progress so far of a run or copy that started at {@code start} ({@link System#nanoTime}).
   */
  Migrator.Progress progress(long start, boolean done) {
    Segment[] counters = segments;
    List<Migrator.SegmentProgress> perSegment = new ArrayList<>(counters.length);
    for (Segment s : counters) {
      perSegment.add(
          new Migrator.SegmentProgress(
              s.number,
              s.copied.sum(),
              s.skipped.sum(),
              s.read && s.pending.get() == 0 && !s.abandoned));
    }
    return new Migrator.Progress(
        items.sum(),
        skipped.sum(),
        blobs.sum(),
        blobBytes.sum(),
        missingBlobs.sum(),
        Duration.ofNanos(System.nanoTime() - start),
        done,
        List.copyOf(perSegment));
  }

  /**
   * Waits until the run's target table is ready, rethrowing the exception that creating it failed
   * with as it was thrown.
   */
  void awaitTarget() {
    try {
      targetReady.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
