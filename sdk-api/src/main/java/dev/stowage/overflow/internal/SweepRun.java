package dev.stowage.overflow.internal;

import dev.stowage.IntegrityException;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.OverflowSweeper.Report;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** One run of {@link dev.stowage.overflow.OverflowSweeper}; single use, not thread-safe. */
public final class SweepRun {
  private static final int PROGRESS_EVERY = 1000;

  private final RetryingBlobs blobs;
  private final String prefix;
  private final Supplier<? extends Stream<Item>> liveItems;
  private final Supplier<? extends Set<String>> referencedKeys;
  private final Duration grace;
  private final boolean dryRun;
  private final Clock clock;
  private final int batchSize;
  private final Consumer<Report> progress;
  private final Consumer<BlobStore.BlobInfo> onOrphan;

  private Instant cutoff;
  private long listed;
  private long referenced;
  private long tooYoung;
  private long orphaned;
  private long deleted;
  private long bytesDeleted;

  /**
   * Captures the configuration; see OverflowSweeper.Builder for each argument. Blob store calls go
   * through {@code blobs}, under its retry policy.
   */
  public SweepRun(
      RetryingBlobs blobs,
      String prefix,
      Supplier<? extends Stream<Item>> liveItems,
      Supplier<? extends Set<String>> referencedKeys,
      Duration grace,
      boolean dryRun,
      Clock clock,
      int batchSize,
      Consumer<Report> progress,
      Consumer<BlobStore.BlobInfo> onOrphan) {
    this.blobs = blobs;
    this.prefix = prefix;
    this.liveItems = liveItems;
    this.referencedKeys = referencedKeys;
    this.grace = grace;
    this.dryRun = dryRun;
    this.clock = clock;
    this.batchSize = batchSize;
    this.progress = progress;
    this.onOrphan = onOrphan;
  }

  /** The blob key of a stored item's pointer, or empty if it has none or it is unreadable. */
  public static Optional<String> referencedBlob(Item stored) {
    AttributeValue raw = stored.attributes().get(OverflowHandler.POINTER_ATTRIBUTE);
    if (raw == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Pointer.parse(raw, "a stored item").blobKey());
    } catch (IntegrityException e) {
      return Optional.empty();
    }
  }

  /** Runs the sweep. */
  public Report run() {
    cutoff = clock.instant().minus(grace);
    Set<String> live = new HashSet<>();
    if (referencedKeys != null) {
      live.addAll(referencedKeys.get());
    }
    if (liveItems != null) {
      try (Stream<Item> items = liveItems.get()) {
        items.forEach(i -> referencedBlob(i).ifPresent(live::add));
      }
    }
    List<BlobStore.BlobInfo> batch = new ArrayList<>(batchSize);
    try (Stream<BlobStore.BlobInfo> blobList = blobs.list(prefix)) {
      Iterator<BlobStore.BlobInfo> it = blobList.iterator();
      while (it.hasNext()) {
        BlobStore.BlobInfo blob = it.next();
        listed++;
        if (live.contains(blob.key())) {
          referenced++;
        } else if (!blob.lastModified().isBefore(cutoff)) {
          tooYoung++;
        } else {
          orphaned++;
          onOrphan.accept(blob);
          if (!dryRun) {
            batch.add(blob);
            if (batch.size() >= batchSize) {
              flush(batch);
            }
          }
        }
        if (listed % PROGRESS_EVERY == 0) {
          log(report(), false);
          progress.accept(report());
        }
      }
    }
    flush(batch);
    Report done = report();
    log(done, true);
    progress.accept(done);
    return done;
  }

  private void flush(List<BlobStore.BlobInfo> batch) {
    if (batch.isEmpty()) {
      return;
    }
    blobs.deleteAll(batch.stream().map(BlobStore.BlobInfo::key).toList());
    deleted += batch.size();
    bytesDeleted += batch.stream().mapToLong(BlobStore.BlobInfo::size).sum();
    batch.clear();
    progress.accept(report());
  }

  private static void log(Report r, boolean done) {
    dev.stowage.internal.JobLog.progress(
        r.dryRun() ? "overflow sweep (dry run)" : "overflow sweep",
        r.prefix(),
        done,
        r.listed()
            + " blobs listed, "
            + r.referenced()
            + " referenced, "
            + r.tooYoung()
            + " too young, "
            + r.orphaned()
            + " orphaned, "
            + r.deleted()
            + " deleted");
  }

  private Report report() {
    return new Report(
        prefix, dryRun, cutoff, listed, referenced, tooYoung, orphaned, deleted, bytesDeleted);
  }
}
