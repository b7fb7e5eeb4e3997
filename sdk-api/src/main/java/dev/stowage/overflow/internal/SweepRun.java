package dev.stowage.overflow.internal;

import dev.stowage.IntegrityException;
import dev.stowage.internal.JobLoop;
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

/**
 * One run of {@link dev.stowage.overflow.OverflowSweeper}, in the shape of every job ({@link
 * JobLoop}): a page is {@value #PAGE} listed blobs or one batch of orphans deleted, whichever comes
 * first, and the rate limit counts blobs listed. Single use, not thread-safe.
 */
public final class SweepRun extends JobLoop<Report> {
  private static final int PAGE = 1000;

  private final RetryingBlobs blobs;
  private final String prefix;
  private final Supplier<? extends Stream<Item>> liveItems;
  private final Supplier<? extends Set<String>> referencedKeys;
  private final Duration grace;
  private final boolean dryRun;
  private final Clock clock;
  private final int batchSize;
  private final Consumer<BlobStore.BlobInfo> onOrphan;

  private final List<BlobStore.BlobInfo> batch = new ArrayList<>();
  private Set<String> live;
  private Stream<BlobStore.BlobInfo> blobList;
  private Iterator<BlobStore.BlobInfo> listing;
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
      double maxBlobsPerSecond,
      Consumer<Report> progress,
      Consumer<BlobStore.BlobInfo> onOrphan) {
    super(maxBlobsPerSecond, progress);
    this.blobs = blobs;
    this.prefix = prefix;
    this.liveItems = liveItems;
    this.referencedKeys = referencedKeys;
    this.grace = grace;
    this.dryRun = dryRun;
    this.clock = clock;
    this.batchSize = batchSize;
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

  @Override
  protected boolean step() {
    if (listing == null) {
      start();
    }
    for (int n = 0; n < PAGE && listing.hasNext(); n++) {
      BlobStore.BlobInfo blob = listing.next();
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
            // A page ends with each delete batch, so that a report follows every batch.
            flush();
            return !listing.hasNext();
          }
        }
      }
    }
    if (listing.hasNext()) {
      return false;
    }
    flush();
    return true;
  }

  /** Takes the cutoff, gathers the references and opens the listing. */
  private void start() {
    cutoff = clock.instant().minus(grace);
    live = new HashSet<>();
    if (referencedKeys != null) {
      live.addAll(referencedKeys.get());
    }
    if (liveItems != null) {
      try (Stream<Item> items = liveItems.get()) {
        items.forEach(i -> referencedBlob(i).ifPresent(live::add));
      }
    }
    blobList = blobs.list(prefix);
    listing = blobList.iterator();
  }

  private void flush() {
    if (batch.isEmpty()) {
      return;
    }
    blobs.deleteAll(batch.stream().map(BlobStore.BlobInfo::key).toList());
    deleted += batch.size();
    bytesDeleted += batch.stream().mapToLong(BlobStore.BlobInfo::size).sum();
    batch.clear();
  }

  @Override
  protected long unitsThisRun() {
    return listed;
  }

  @Override
  protected Report progress(Duration elapsed, boolean done) {
    return new Report(
        prefix,
        dryRun,
        cutoff,
        listed,
        referenced,
        tooYoung,
        orphaned,
        deleted,
        bytesDeleted,
        elapsed,
        done);
  }

  @Override
  protected String name() {
    return dryRun ? "overflow sweep (dry run)" : "overflow sweep";
  }

  @Override
  protected Object target() {
    return prefix;
  }

  @Override
  protected String counts(Report r) {
    return r.listed()
        + " blobs listed, "
        + r.referenced()
        + " referenced, "
        + r.tooYoung()
        + " too young, "
        + r.orphaned()
        + " orphaned, "
        + r.deleted()
        + " deleted";
  }

  @Override
  protected void close() {
    if (blobList != null) {
      blobList.close();
    }
  }
}
