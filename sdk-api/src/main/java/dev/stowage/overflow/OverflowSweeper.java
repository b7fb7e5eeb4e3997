package dev.stowage.overflow;

import dev.stowage.Job;
import dev.stowage.JobProgress;
import dev.stowage.RetryPolicy;
import dev.stowage.internal.Metrics;
import dev.stowage.internal.Retrier;
import dev.stowage.item.Item;
import dev.stowage.overflow.internal.BlobKeys;
import dev.stowage.overflow.internal.RetryingBlobs;
import dev.stowage.overflow.internal.SweepRun;
import dev.stowage.spi.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A job that deletes overflow blobs no item references any more: blobs left by a writer that
 * crashed between the blob write and the item write, or by a failed delete of a replaced item's
 * blob.
 *
 * <p>One run: note the start time, enumerate the blob keys the table's stored items reference, then
 * list the blobs under the table's prefix and delete each one that is unreferenced and was last
 * modified before {@code start - gracePeriod}. A blob younger than that may belong to a write still
 * in flight (its blob is written before its item), so it is never deleted; the grace period
 * (default one hour) must exceed the longest time a write can take. Runs are idempotent and can be
 * interrupted and repeated at any time. In dry-run mode nothing is deleted and the report counts
 * what would have been.
 *
 * <pre>{@code
 * OverflowSweeper.Report r =
 *     OverflowSweeper.builder(blobStore, new TableRef("prod", "orders"))
 *         .liveItems(() -> storedItemsOfTheTable())   // raw stored items, with their pointers
 *         .dryRun(true)
 *         .build()
 *         .run();
 * }</pre>
 *
 * <p>A sweeper is a {@link Job} like Stowage's other jobs: progress reports to a listener and to
 * the log, an optional rate limit, {@link #cancel}; its reports carry no resume token, since a run
 * starts over cheaply and deletes only what is still orphaned.
 *
 * <p>A sweeper is immutable (but for cancelling its runs) and thread-safe, but runs of the same
 * prefix should not overlap (they would only duplicate work). Blob store calls run under a {@link
 * RetryPolicy} ({@link RetryPolicy#DEFAULT} unless {@link Builder#retryPolicy} sets another; a
 * listing that fails part-way is listed again, skipping the blobs already seen). Errors left after
 * the last attempt, and errors of the item enumeration, propagate (for example {@link
 * dev.stowage.ThrottledException}); counts up to that point have been reported to the progress
 * listener.
 */
public final class OverflowSweeper implements Job<OverflowSweeper.Report> {
  /** The grace period used unless another is set: one hour. */
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofHours(1);

  private final Builder b;
  private final Set<SweepRun> running = ConcurrentHashMap.newKeySet();

  private OverflowSweeper(Builder b) {
    this.b = b;
  }

  /** A sweeper for the overflow blobs of one table in one namespace. */
  public static Builder builder(BlobStore store, TableRef table) {
    return new Builder(store, prefixOf(table));
  }

  /**
   * A sweeper for every blob under {@code prefix} (for example {@code "prod/"} for a whole
   * namespace). Every blob under the prefix that the enumerated references do not name is
   * considered an orphan, so the references must cover every table under the prefix.
   */
  public static Builder builder(BlobStore store, String prefix) {
    return new Builder(store, BlobKeys.validatePrefix(prefix));
  }

  /**
   * The prefix of every overflow blob key of {@code table}: {@code <namespace>/<table>/}, with
   * {@code _root} for the root namespace.
   */
  public static String prefixOf(TableRef table) {
    return BlobKeys.tablePrefix(table);
  }

  /**
   * The blob a stored item (as the driver returns it, with reserved attributes) references, if it
   * has a readable overflow pointer.
   */
  public static Optional<String> referencedBlob(Item storedItem) {
    return SweepRun.referencedBlob(storedItem);
  }

  /**
   * Runs the sweep once and returns its counts; {@link Report#done()} is false if it was cancelled.
   */
  @Override
  public Report run() {
    SweepRun run =
        new SweepRun(
            new RetryingBlobs(b.store, new Retrier(b.retryPolicy, new Metrics())),
            b.prefix,
            b.liveItems,
            b.referencedKeys,
            b.gracePeriod,
            b.dryRun,
            b.clock,
            b.deleteBatchSize,
            b.maxBlobsPerSecond,
            b.progress,
            b.onOrphan);
    running.add(run);
    try {
      return run.run();
    } finally {
      running.remove(run);
    }
  }

  /**
   * Stops the runs in progress after their current page (up to 1,000 blobs listed or one delete
   * batch); they return a report that is not done. A sweep does not resume: run it again, it is
   * idempotent. Runs started afterwards are not affected.
   */
  @Override
  public void cancel() {
    running.forEach(SweepRun::cancel);
  }

  /**
   * Counts of a sweep, also reported while it runs.
   *
   * @param prefix the swept prefix
   * @param dryRun true if nothing was deleted on purpose
   * @param cutoff blobs last modified at or after this instant were kept as too young
   * @param listed blobs listed so far
   * @param referenced listed blobs that an item references
   * @param tooYoung unreferenced blobs kept because of the grace period
   * @param orphaned unreferenced blobs older than the cutoff (deleted unless dry run)
   * @param deleted orphans deleted
   * @param bytesDeleted total size of the deleted orphans
   * @param elapsed time spent in this run
   * @param done true once the whole prefix was listed (false in running reports and if cancelled)
   */
  public record Report(
      String prefix,
      boolean dryRun,
      Instant cutoff,
      long listed,
      long referenced,
      long tooYoung,
      long orphaned,
      long deleted,
      long bytesDeleted,
      Duration elapsed,
      boolean done)
      implements JobProgress {

    /** A finished sweep's counts, with no time recorded. */
    public Report(
        String prefix,
        boolean dryRun,
        Instant cutoff,
        long listed,
        long referenced,
        long tooYoung,
        long orphaned,
        long deleted,
        long bytesDeleted) {
      this(
          prefix,
          dryRun,
          cutoff,
          listed,
          referenced,
          tooYoung,
          orphaned,
          deleted,
          bytesDeleted,
          Duration.ZERO,
          true);
    }

    /** Always null: a sweep does not resume, it runs again from the start (it is idempotent). */
    @Override
    public String resumeToken() {
      return null;
    }
  }

  /** Configures a sweeper; not thread-safe. */
  public static final class Builder {
    private final BlobStore store;
    private final String prefix;
    private Supplier<? extends Stream<Item>> liveItems;
    private Supplier<? extends Set<String>> referencedKeys;
    private Duration gracePeriod = DEFAULT_GRACE_PERIOD;
    private boolean dryRun;
    private Clock clock = Clock.systemUTC();
    private int deleteBatchSize = 100;
    private double maxBlobsPerSecond;
    private Consumer<Report> progress = r -> {};
    private Consumer<BlobStore.BlobInfo> onOrphan = b -> {};
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;

    private Builder(BlobStore store, String prefix) {
      this.store = Objects.requireNonNull(store, "store");
      this.prefix = prefix;
    }

    /**
     * Where references come from: every stored item of the swept table(s), raw (with reserved
     * attributes). The supplier is called once per run, after the start time is taken, and the
     * stream is closed after use.
     */
    public Builder liveItems(Supplier<? extends Stream<Item>> storedItems) {
      this.liveItems = Objects.requireNonNull(storedItems, "storedItems");
      return this;
    }

    /**
     * Alternatively, the referenced blob keys themselves (for example computed by the core with
     * {@link #referencedBlob} during its own scan). Called once per run, after the start time is
     * taken. When both sources are set, a blob referenced by either is kept.
     */
    public Builder referencedKeys(Supplier<? extends Set<String>> keys) {
      this.referencedKeys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** How old an unreferenced blob must be to be deleted; default one hour, not negative. */
    public Builder gracePeriod(Duration gracePeriod) {
      if (gracePeriod.isNegative()) {
        throw new IllegalArgumentException("grace period must not be negative: " + gracePeriod);
      }
      this.gracePeriod = gracePeriod;
      return this;
    }

    /** True to only count and report orphans. */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /** The clock the cutoff is computed from (tests inject one). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How retryable blob store errors are retried; default {@link RetryPolicy#DEFAULT} ({@link
     * RetryPolicy#NONE} makes one attempt per call).
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** How many orphans go into one {@link BlobStore#deleteAll} call; default 100. */
    public Builder deleteBatchSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("delete batch size must be positive: " + size);
      }
      this.deleteBatchSize = size;
      return this;
    }

    /**
     * The rate limit in blobs listed per second, or 0 (the default) for none. Deletes follow the
     * listing, so they are paced too.
     */
    public Builder maxBlobsPerSecond(double blobsPerSecond) {
      if (blobsPerSecond < 0 || Double.isNaN(blobsPerSecond)) {
        throw new IllegalArgumentException("maxBlobsPerSecond must be 0 (none) or positive");
      }
      this.maxBlobsPerSecond = blobsPerSecond;
      return this;
    }

    /**
     * Receives running counts after each delete batch and every 1,000 blobs listed, and a final
     * report; called on the runner.
     */
    public Builder progress(Consumer<Report> listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives each orphan found (before it is deleted, or instead, in dry-run mode). */
    public Builder onOrphan(Consumer<BlobStore.BlobInfo> listener) {
      this.onOrphan = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Builds the sweeper.
     *
     * @throws IllegalStateException if neither {@link #liveItems} nor {@link #referencedKeys} was
     *     set: without references every blob would look orphaned
     */
    public OverflowSweeper build() {
      if (liveItems == null && referencedKeys == null) {
        throw new IllegalStateException(
            "an overflow sweeper needs liveItems or referencedKeys to know which blobs are in use");
      }
      return new OverflowSweeper(this);
    }
  }
}
