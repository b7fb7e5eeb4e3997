package dev.stowage.migrate;

import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.internal.Checkpoint;
import dev.stowage.migrate.internal.CopyRun;
import dev.stowage.migrate.internal.Migration;
import dev.stowage.migrate.internal.PageCopies;
import dev.stowage.migrate.internal.SpecCompatibility;
import dev.stowage.migrate.internal.TableSides;
import dev.stowage.migrate.internal.Verifier;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.Capability;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Copies one table between two stores — any two backends, namespaces or both — in its stored form.
 *
 * <p>Items are read raw with the source driver's scan and written with the target driver's batch
 * writes, so compressed and encrypted attributes are copied as they are: the copier needs no keys
 * and never sees plaintext. (Encryption binds values to the logical table name, item key and
 * attribute name — not to the backend or namespace — so copied values decrypt on the target; for
 * the same reason a table with encrypted attributes cannot be copied under another table name.) The
 * target's synthesized index attributes are computed from each item's stored attributes for the
 * target's indexes ({@link StoredItems#withIndexValues}: indexed attributes are never encoded, so
 * this needs no keys either), replacing whatever index values the source item carried: items from
 * an adopted table that other tools wrote (which carry none), stale values, and values of indexes
 * the target does not have. The target's {@code ensureTable} creates its native indexes over them,
 * so index queries on the target are complete as soon as the copy is. Overflow blobs are copied
 * into the target's blob store; when the target's blob prefix (namespace or table name) differs,
 * the blob gets the target's key and the item's pointer is rewritten to name it.
 *
 * <p>Source and target are described by one spec ({@link #builder(TableSpec)}) or by one each
 * ({@link Builder#targetSpec}): an adopted source ({@link TableSpec.Builder#adopt}) read in its
 * native key layout is copied into a table Stowage lays out itself (by default, under the spec's
 * logical name) or into another adopted table (a target spec that adopts it). The two specs must
 * have the same key schema and the same attribute policies (stored forms are copied as they are);
 * their names, indexes and adoption may differ.
 *
 * <p>The source is read in {@link Builder#segments} segments ({@link StorageDriver#segments}) by up
 * to {@link Builder#parallelism} threads (a source without segmented scans is scanned by one
 * thread); each page's writes go to the target in batch writes of {@link
 * StorageDriver#maxBatchWriteCopies} items (the target's batch-write limit, or more for a target
 * that groups a batch's writes by partition itself, as Azure Tables does, so that its requests are
 * full), prepared (overflow blobs copied) by {@link Builder#parallelism} writers in parts of the
 * batch-write limit, so a page's blobs and batches go out in parallel and reading goes on while
 * they are written. With a checkpoint file, the segments and every completed batch write and page
 * are recorded, each segment's pages as a chain of its own, and a run started again with the same
 * file skips them (a file written by an earlier version too), so an interrupted migration resumes
 * without writing any item twice (as long as the source was not written meanwhile; use {@link
 * dev.stowage.migrate.MirroredTable} to keep a live table in step). {@link #verify()} compares
 * counts and per-item digests of both sides.
 *
 * <p>Each side is identified by its driver's {@link StorageDriver#name() name} and {@link
 * StorageDriver#location() location} (or the location given to {@link Builder#sourceLocation} and
 * {@link Builder#targetLocation}), its namespace, its table and, for an adopted table, its physical
 * name. The checkpoint records both sides and is only resumed against the same two: a checkpoint
 * written for another source or target is refused before anything is read or written. A migration
 * whose source and target are the same table (or the same adopted table of one store, in any
 * namespace) is refused when it is built.
 *
 * <p>Retryable errors of either side are retried with the {@link RetryPolicy}; other errors stop
 * the run (after in-flight pages finish) and propagate. Items too large for the target's limits,
 * and items whose indexed attributes the target's indexes cannot hold (a value that is no string,
 * number or binary value, or too long for the target's indexed values), are not written and are
 * listed in the {@link Report}. A migrator is used by one thread at a time, except {@link
 * #cancel()}, which any thread may call while {@link #run()} runs.
 *
 * <p>{@link #cancel()} stops a run cooperatively: no page is started after it, pages being written
 * finish and are recorded in the checkpoint, and {@link #run()} returns a report whose progress is
 * not {@link Progress#done() done}. A migrator built again with the same checkpoint file resumes
 * where the cancelled run stopped, without losing or writing any item twice.
 */
public final class Migrator {
  // What the migrator was built with; the machinery of runs, copies and verification is in
  // dev.stowage.migrate.internal: CopyRun (a run's readers and writers), PageCopies (a page made
  // into the target's writes), SpecCompatibility and TableSides (the checks at build time).
  private final Migration m;
  private final PageCopies pages;
  private volatile Verifier verifier;
  private volatile boolean cancelled;

  private Migrator(Builder b) {
    TableSpec spec = Objects.requireNonNull(b.spec, "spec");
    StorageDriver sourceDriver = Objects.requireNonNull(b.sourceDriver, "source driver");
    StorageDriver targetDriver = Objects.requireNonNull(b.targetDriver, "target driver");
    if (b.targetSpec != null && b.targetTable != null) {
      throw new IllegalArgumentException(
          "give either a target spec or a target table name, not both: the target spec names the"
              + " target table ('"
              + b.targetSpec.name()
              + "')");
    }
    TableSpec targetSpec =
        b.targetSpec != null ? b.targetSpec : SpecCompatibility.withoutAdoption(spec);
    SpecCompatibility.requireCompatible(spec, targetSpec);
    TableRef from = new TableRef(b.sourceNamespace, spec.name());
    TableRef to =
        new TableRef(b.targetNamespace, b.targetTable == null ? targetSpec.name() : b.targetTable);
    SpecCompatibility.requireSameNameIfEncrypted(spec, from.table(), to.table());
    TableLayout sourceLayout = TableSides.layout(from, spec);
    TableLayout targetLayout = TableSides.layout(to, targetSpec);
    Checkpoint.Side sourceSide = TableSides.side(sourceDriver, b.sourceLocation, sourceLayout);
    Checkpoint.Side targetSide = TableSides.side(targetDriver, b.targetLocation, targetLayout);
    TableSides.requireDistinct(
        sourceDriver, sourceLayout, sourceSide, targetDriver, targetLayout, targetSide);
    this.m =
        new Migration(
            spec,
            targetSpec,
            sourceDriver,
            b.sourceBlobs,
            sourceLayout,
            sourceSide,
            targetDriver,
            b.targetBlobs,
            targetLayout,
            targetSide,
            b.parallelism,
            b.segments == 0 ? b.parallelism : b.segments,
            b.pageSize,
            b.checkpoint,
            b.onProgress,
            b.retryPolicy);
    this.pages = new PageCopies(m);
  }

  /**
   * Starts configuring a migration of the table {@code spec} describes. The target gets the same
   * spec unless {@link Builder#targetSpec} gives it its own; the target of an adopted spec is a
   * table Stowage lays out (the spec without {@code adopt}).
   */
  public static Builder builder(TableSpec spec) {
    return new Builder(spec);
  }

  /** The source table as the driver sees it. */
  public TableLayout sourceLayout() {
    return m.sourceLayout();
  }

  /**
   * The target's spec: the one given to {@link Builder#targetSpec}, else the source's without
   * {@code adopt}.
   */
  public TableSpec targetSpec() {
    return m.targetSpec();
  }

  /** The target table as the driver sees it. */
  public TableLayout targetLayout() {
    return m.targetLayout();
  }

  /**
   * Copies the table: opens the source, creates the target table and its indexes if missing (while
   * the source's first pages are read; nothing is written before it exists), and copies every item
   * and overflow blob not yet recorded in the checkpoint.
   *
   * @return what was copied in this run; its progress is not {@link Progress#done() done} if the
   *     run was {@linkplain #cancel() cancelled}
   * @throws IllegalArgumentException if the checkpoint file was written for another source or
   *     target (nothing is read or written then), in an older format, or is not a checkpoint
   * @throws dev.stowage.StowageException (or an unchecked I/O exception of the checkpoint) if the
   *     run stops; completed work is in the checkpoint
   */
  public Report run() {
    return new CopyRun(m, pages, this::isCancelled).run();
  }

  /**
   * Asks a running (or the next) {@link #run()} to stop: it starts no further page, lets the pages
   * being written finish (each recorded in the checkpoint as it completes) and returns a report
   * whose progress is not {@link Progress#done() done}. A page read but not yet written is left to
   * the resumed run, which reads it again. Cancelling is final for this migrator: to resume, build
   * a migrator with the same checkpoint file (without one, a new run copies everything again,
   * writing the same stored forms). Safe to call from any thread, any number of times.
   */
  public void cancel() {
    cancelled = true;
  }

  /** True once {@link #cancel()} was called. */
  public boolean isCancelled() {
    return cancelled;
  }

  /**
   * Copies a page of stored source items that the caller read itself (a segment of a {@linkplain
   * StorageDriver#scanSegment segmented scan}, a Beam bundle) to the target, exactly as {@link
   * #run()} copies a page: the target's index values are computed, items too large for the target
   * are overflowed again or listed as misfits, and overflow blobs are copied under the key the
   * target's table gives them. Neither table is created and no checkpoint is written: call {@link
   * #prepareTarget()} once first.
   *
   * <p>Idempotent: copying the same stored items again writes the same stored forms (unconditional
   * puts) and copies each blob to the same key, so a retried page neither duplicates nor loses an
   * item. (An item refitted for the target's smaller limits gets a new blob on each attempt; the
   * blob of an earlier attempt is an orphan the overflow sweeper removes.) Safe to call from
   * several threads at once.
   *
   * @param items stored items of the source table, as its driver returned them
   * @return what was copied, and the items that do not fit the target
   * @throws dev.stowage.StowageException if a write fails after the retry policy's attempts
   */
  public Report copy(List<Item> items) {
    return pages.copy(items);
  }

  /**
   * Opens the source table and creates the target table and its indexes if missing, as {@link
   * #run()} does first; for callers that copy with {@link #copy(List)}.
   */
  public void prepareTarget() {
    m.retry().run(() -> m.sourceDriver().openTable(m.sourceLayout()));
    m.retry().run(() -> m.targetDriver().ensureTable(m.targetLayout()));
  }

  /**
   * The digest {@link #verify()} compares for a stored item: for a source item ({@code fromSource})
   * the digest of the item as the target should hold it (the target's index values in place of its
   * own), for a target item the digest of the item as it is; in both, overflowed attributes are
   * read back from the side's blob store in place of the pointer. A source item and its copy have
   * equal digests exactly when the copy is faithful; an item whose blob is missing or whose index
   * values the target cannot hold digests to a value that matches nothing. Safe to call from
   * several threads at once.
   */
  public String digest(Item stored, boolean fromSource) {
    return verifier().digestOf(stored, fromSource);
  }

  /** The key of a stored item of either side (both have the same key schema). */
  public Key keyOf(Item stored) {
    return m.spec().keySchema().keyOf(stored);
  }

  /**
   * Compares source and target: item counts, and a digest of every item's stored attributes (with
   * the overflow blob's content in place of the pointer, so a rewritten pointer still matches).
   * Each source item is compared as the target should hold it, with the index values the target's
   * indexes give it ({@link StoredItems#withIndexValues}), so the target's index values are checked
   * too; a source item the target's indexes cannot hold counts as different or missing.
   */
  public Verification verify() {
    return verifier().run(m.pageSize(), m.parallelism(), m.segments());
  }

  private Verifier verifier() {
    Verifier v = verifier;
    if (v == null) {
      v = newVerifier();
      verifier = v;
    }
    return v;
  }

  private Verifier newVerifier() {
    return new Verifier(
        m.retry(),
        m.spec(),
        m.targetSpec(),
        m.targetDriver().limits(m.targetLayout()),
        m.sourceDriver(),
        m.sourceBlobs(),
        m.sourceLayout(),
        m.targetDriver(),
        m.targetBlobs(),
        m.targetLayout());
  }

  /**
   * How far a run has got.
   *
   * @param itemsCopied items written to the target in this run
   * @param itemsSkipped items a previous run had already copied (from the checkpoint)
   * @param blobsCopied overflow blobs copied in this run
   * @param blobBytes bytes of those blobs
   * @param missingBlobs items whose overflow blob was missing in the source (copied as they are)
   * @param elapsed time since the run started
   * @param done true in the final report of a run that copied everything; false in a cancelled
   *     run's final report
   * @param segments each segment's counts, in segment order, for a source read in segments (empty
   *     for a source scanned by one thread)
   */
  public record Progress(
      long itemsCopied,
      long itemsSkipped,
      long blobsCopied,
      long blobBytes,
      long missingBlobs,
      Duration elapsed,
      boolean done,
      List<SegmentProgress> segments) {
    public Progress {
      segments = List.copyOf(segments);
    }

    /** Progress of a run that reads no segments. */
    public Progress(
        long itemsCopied,
        long itemsSkipped,
        long blobsCopied,
        long blobBytes,
        long missingBlobs,
        Duration elapsed,
        boolean done) {
      this(
          itemsCopied,
          itemsSkipped,
          blobsCopied,
          blobBytes,
          missingBlobs,
          elapsed,
          done,
          List.of());
    }
  }

  /**
   * How far one segment of a segmented run has got.
   *
   * @param number the segment's number, from 0
   * @param itemsCopied its items written to the target in this run
   * @param itemsSkipped its items a previous run had already copied (from the checkpoint)
   * @param done true once every page of the segment was read and written
   */
  public record SegmentProgress(int number, long itemsCopied, long itemsSkipped, boolean done) {}

  /**
   * An item not copied because it exceeds the target backend's limits.
   *
   * @param key its key
   * @param reason which limit
   */
  public record Misfit(Key key, String reason) {}

  /**
   * The result of a run.
   *
   * @param progress the final counts
   * @param misfits items not copied because they exceed the target's limits
   */
  public record Report(Progress progress, List<Misfit> misfits) {}

  /** Configures a {@link Migrator}; not thread-safe. */
  public static final class Builder {
    private final TableSpec spec;
    private StorageDriver sourceDriver;
    private BlobStore sourceBlobs;
    private String sourceNamespace = "";
    private String sourceLocation;
    private StorageDriver targetDriver;
    private BlobStore targetBlobs;
    private String targetNamespace = "";
    private String targetLocation;
    private String targetTable;
    private TableSpec targetSpec;
    private int parallelism = 4;
    private int segments;
    private int pageSize = 500;
    private Path checkpoint;
    private Consumer<Progress> onProgress;
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;

    private Builder(TableSpec spec) {
      this.spec = Objects.requireNonNull(spec, "spec");
    }

    /**
     * Where to read: a driver, its blob store (null if the table never overflowed) and the
     * namespace. The migrator does not close them.
     */
    public Builder source(StorageDriver driver, BlobStore blobs, String namespace) {
      this.sourceDriver = Objects.requireNonNull(driver, "driver");
      this.sourceBlobs = blobs;
      this.sourceNamespace = Objects.requireNonNull(namespace, "namespace");
      return this;
    }

    /** Where to write; the migrator does not close them. */
    public Builder target(StorageDriver driver, BlobStore blobs, String namespace) {
      this.targetDriver = Objects.requireNonNull(driver, "driver");
      this.targetBlobs = blobs;
      this.targetNamespace = Objects.requireNonNull(namespace, "namespace");
      return this;
    }

    /**
     * Where the source store is, in place of its driver's {@link StorageDriver#location()}: for a
     * driver that cannot tell (the default location is the driver's name) or stores it cannot tell
     * apart, such as two AWS accounts in one region (the DynamoDB driver's location is its endpoint
     * and region). Recorded in the checkpoint and compared with the target's; default: the
     * driver's.
     */
    public Builder sourceLocation(String location) {
      this.sourceLocation = requireLocation(location);
      return this;
    }

    /**
     * Where the target store is, in place of its driver's location; see {@link #sourceLocation}.
     */
    public Builder targetLocation(String location) {
      this.targetLocation = requireLocation(location);
      return this;
    }

    private static String requireLocation(String location) {
      if (location == null || location.isBlank()) {
        throw new IllegalArgumentException("a location must not be empty");
      }
      return location;
    }

    /**
     * Copies into a table of another name (not allowed for tables with encrypted attributes), with
     * the source's spec otherwise; see {@link #targetSpec} for a target of its own spec.
     */
    public Builder targetTable(String name) {
      this.targetTable = name;
      return this;
    }

    /**
     * The target's own spec, in place of the source's: its name is the target table's (a name other
     * than the source's is not allowed for tables with encrypted attributes), its indexes are the
     * ones the target gets (computed from each item, whatever indexes the source has), and it may
     * {@linkplain TableSpec.Builder#adopt adopt} an existing table or not. Default: the source's
     * spec without {@code adopt}, so an adopted source migrates into a table Stowage lays out.
     *
     * <p>{@link #build()} refuses a target spec whose key schema (attribute names and types) or
     * attribute policies (compression, encryption) differ from the source's, naming the difference,
     * and a target spec given together with {@link #targetTable}.
     */
    public Builder targetSpec(TableSpec spec) {
      this.targetSpec = Objects.requireNonNull(spec, "spec");
      return this;
    }

    /**
     * Segments the source is divided into ({@link StorageDriver#segments}), read in parallel by up
     * to {@link #parallelism} threads; default: the parallelism. A checkpoint records the segments
     * of the run that made it, and a resumed run reads those whatever this says. Ignored for a
     * source without {@link Capability#SEGMENTED_SCANS}, which is scanned by one thread.
     */
    public Builder segments(int n) {
      if (n < 1 || n > 4096) {
        throw new IllegalArgumentException("segments must be 1 to 4096");
      }
      this.segments = n;
      return this;
    }

    /**
     * Segments read concurrently (see {@link #segments}) and batch writes sent concurrently (up to
     * twice as many queued); default 4.
     */
    public Builder parallelism(int n) {
      if (n < 1 || n > 256) {
        throw new IllegalArgumentException("parallelism must be 1 to 256");
      }
      this.parallelism = n;
      return this;
    }

    /**
     * Items per source scan page, which is also the checkpoint's unit; default 500. About {@code 3
     * × parallelism} pages at most are held in memory at once (pages being read, and pages with
     * batches queued or being written). Larger pages mean fewer scan requests (the Datastore
     * emulator, whose queries cost time proportional to the kind's size, wants 2,000 or more). Keep
     * it unchanged when resuming. The first page each segment reads in a run holds at most four of
     * the target's calls of copies ({@link StorageDriver#maxBatchWriteCopies}; 100 items into
     * DynamoDB), so that writing starts while the segments read on.
     */
    public Builder pageSize(int n) {
      if (n < 1 || n > 10_000) {
        throw new IllegalArgumentException("page size must be 1 to 10000, not " + n);
      }
      this.pageSize = n;
      return this;
    }

    /**
     * The checkpoint file (created if missing, resumed from if present); default none. The file
     * records the source and target (backend, location, namespace and table); {@link #run()}
     * refuses a file written for another source or target, or by a version of Stowage before the
     * file recorded locations, before it reads or writes anything.
     */
    public Builder checkpoint(Path file) {
      this.checkpoint = file;
      return this;
    }

    /** Called after every scanned page and at the end, from the scanning thread. */
    public Builder onProgress(Consumer<Progress> listener) {
      this.onProgress = listener;
      return this;
    }

    /** How retryable errors are retried; default {@link RetryPolicy#DEFAULT}. */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The migrator.
     *
     * @throws IllegalArgumentException if a side is missing, the copy cannot be faithful (another
     *     key schema or other attribute policies on the target, encrypted attributes under another
     *     table name), or the source and target are the same table (same backend, location,
     *     namespace and table, or the same driver, namespace and table, or the same adopted table
     *     of one store)
     */
    public Migrator build() {
      return new Migrator(this);
    }
  }
}
