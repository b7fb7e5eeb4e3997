package dev.stowage.migrate;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.migrate.internal.Checkpoint;
import dev.stowage.migrate.internal.KeyText;
import dev.stowage.migrate.internal.SpecCompatibility;
import dev.stowage.migrate.internal.TableSides;
import dev.stowage.migrate.internal.Verifier;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.StoredOverflow;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
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
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Migrator.class);
  private final StorageDriver sourceDriver;
  private final BlobStore sourceBlobs;
  private final TableLayout sourceLayout;
  private final StorageDriver targetDriver;
  private final BlobStore targetBlobs;
  private final TableLayout targetLayout;
  private final Checkpoint.Side sourceSide;
  private final Checkpoint.Side targetSide;
  private final TableSpec spec;
  private final TableSpec targetSpec;
  private final int parallelism;
  private final int segments;
  private final int pageSize;
  private final Path checkpointFile;
  private final Consumer<Progress> onProgress;
  private final RetryPolicy retry;
  private volatile Verifier verifier;
  private volatile boolean cancelled;

  private Migrator(Builder b) {
    this.spec = Objects.requireNonNull(b.spec, "spec");
    this.sourceDriver = Objects.requireNonNull(b.sourceDriver, "source driver");
    this.targetDriver = Objects.requireNonNull(b.targetDriver, "target driver");
    this.sourceBlobs = b.sourceBlobs;
    this.targetBlobs = b.targetBlobs;
    if (b.targetSpec != null && b.targetTable != null) {
      throw new IllegalArgumentException(
          "give either a target spec or a target table name, not both: the target spec names the"
              + " target table ('"
              + b.targetSpec.name()
              + "')");
    }
    this.targetSpec = b.targetSpec != null ? b.targetSpec : SpecCompatibility.withoutAdoption(spec);
    SpecCompatibility.requireCompatible(spec, targetSpec);
    TableRef from = new TableRef(b.sourceNamespace, spec.name());
    TableRef to =
        new TableRef(b.targetNamespace, b.targetTable == null ? targetSpec.name() : b.targetTable);
    SpecCompatibility.requireSameNameIfEncrypted(spec, from.table(), to.table());
    this.sourceLayout = TableSides.layout(from, spec);
    this.targetLayout = TableSides.layout(to, targetSpec);
    this.sourceSide = TableSides.side(sourceDriver, b.sourceLocation, sourceLayout);
    this.targetSide = TableSides.side(targetDriver, b.targetLocation, targetLayout);
    TableSides.requireDistinct(
        sourceDriver, sourceLayout, sourceSide, targetDriver, targetLayout, targetSide);
    this.parallelism = b.parallelism;
    this.segments = b.segments == 0 ? b.parallelism : b.segments;
    this.pageSize = b.pageSize;
    this.checkpointFile = b.checkpoint;
    this.onProgress = b.onProgress;
    this.retry = b.retryPolicy;
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
    return sourceLayout;
  }

  /**
   * The target's spec: the one given to {@link Builder#targetSpec}, else the source's without
   * {@code adopt}.
   */
  public TableSpec targetSpec() {
    return targetSpec;
  }

  /** The target table as the driver sees it. */
  public TableLayout targetLayout() {
    return targetLayout;
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
    long start = System.nanoTime();
    Counters c = new Counters();
    List<Misfit> misfits = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism, daemonThreads());
    // Batch writes queued or being written: enough to keep every writer busy while the readers
    // block, few enough that reading stays at most a few pages ahead of writing.
    Semaphore inFlight = new Semaphore(parallelism * 2);
    // The checkpoint is opened (and checked against both sides) before anything else.
    try (Checkpoint cp =
        checkpointFile == null ? null : Checkpoint.open(checkpointFile, sourceSide, targetSide)) {
      retry.run(() -> sourceDriver.openTable(sourceLayout));
      // The target's table and indexes are created while the source's segments are planned and
      // their first pages read: only the batch writes wait for it (the first writer task runs it,
      // ahead of every batch in the pool's queue). A source that cannot be opened creates nothing.
      c.targetReady =
          CompletableFuture.runAsync(
              () -> retry.run(() -> targetDriver.ensureTable(targetLayout)), pool);
      if (segmented(cp)) {
        copySegments(cp, pool, inFlight, failure, c, misfits, start);
      } else {
        copySequentially(cp, pool, inFlight, failure, c, misfits, start);
      }
      pool.shutdown();
      awaitQuietly(pool);
      if (failure.get() == null) {
        try {
          // A source with nothing to copy still gets its target table; a failure to create it
          // fails the run.
          awaitTarget(c);
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    if (cancelled) {
      Progress stopped = progress(c, start, false);
      LOG.info(
          "migration of {} to {} cancelled: {} items copied, {} skipped{}",
          sourceLayout.ref(),
          targetLayout.ref(),
          stopped.itemsCopied(),
          stopped.itemsSkipped(),
          checkpointFile == null ? "" : "; resume with checkpoint " + checkpointFile);
      if (onProgress != null) {
        onProgress.accept(stopped);
      }
      return new Report(stopped, List.copyOf(misfits));
    }
    Progress done = progress(c, start, true);
    LOG.info(
        "migrated {} to {}: {} items copied, {} skipped, {} blobs, {} missing blobs, {} not"
            + " fitting the target, in {}",
        sourceLayout.ref(),
        targetLayout.ref(),
        done.itemsCopied(),
        done.itemsSkipped(),
        done.blobsCopied(),
        done.missingBlobs(),
        misfits.size(),
        done.elapsed());
    misfits.stream()
        .limit(20)
        .forEach(
            m ->
                LOG.warn("not copied to {}: item {}: {}", targetLayout.ref(), m.key(), m.reason()));
    if (onProgress != null) {
      onProgress.accept(done);
    }
    return new Report(done, List.copyOf(misfits));
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

  /** One scan of the whole source, for a source without segmented scans or an older checkpoint. */
  private void copySequentially(
      Checkpoint cp,
      ExecutorService pool,
      Semaphore inFlight,
      AtomicReference<RuntimeException> failure,
      Counters c,
      List<Misfit> misfits,
      long start) {
    String pageStart = cp == null ? KeyText.START : cp.resumeFrom();
    c.skipped.add(cp == null ? 0 : cp.itemsBeforeResume());
    LOG.info(
        "migrating {} to {}{}",
        sourceSide.describe(),
        targetSide.describe(),
        c.skipped.sum() == 0 ? "" : ", resuming after " + c.skipped.sum() + " items");
    while (failure.get() == null && !cancelled) {
      Key exclusive = pageStart.equals(KeyText.START) ? null : KeyText.decode(pageStart);
      QueryResult page =
          retry.call(
              () -> sourceDriver.scan(sourceLayout, new DriverScan(pageSize, exclusive, true)));
      if (page.items().isEmpty()) {
        break;
      }
      Key last = spec.keySchema().keyOf(page.items().get(page.items().size() - 1).item());
      String thisStart = pageStart;
      String lastText = KeyText.encode(last);
      if (cp != null && cp.pageDone(thisStart)) {
        c.skipped.add(page.items().size());
      } else {
        try {
          dispatch(
              cp, thisStart, lastText, page.items(), pool, inFlight, failure, c, null, misfits);
        } catch (RuntimeException e) {
          // Stops the run like a failed write: the batches in flight end before run() throws.
          failure.compareAndSet(null, e);
          break;
        }
      }
      report(c, start);
      if (!page.more()) {
        break;
      }
      pageStart = lastText;
    }
  }

  /**
   * True if the source is read in segments: it can scan in segments, and the checkpoint (if any)
   * was not written by a sequential run, whose pages only a sequential scan continues.
   */
  private boolean segmented(Checkpoint cp) {
    return sourceDriver.capabilities().contains(Capability.SEGMENTED_SCANS)
        && (cp == null || !cp.sequential());
  }

  /**
   * Reads the source's segments in parallel, each by one of up to {@code parallelism} reader
   * threads, handing pages to the writers; each segment resumes from its own chain of pages in the
   * checkpoint, and a resumed run reads the segments the checkpoint recorded.
   */
  private void copySegments(
      Checkpoint cp,
      ExecutorService pool,
      Semaphore inFlight,
      AtomicReference<RuntimeException> failure,
      Counters c,
      List<Misfit> misfits,
      long start) {
    List<ScanSegment> plan;
    if (cp != null && cp.plan().isPresent()) {
      List<String> bounds = cp.plan().get();
      plan = new ArrayList<>(bounds.size());
      for (int i = 0; i < bounds.size(); i++) {
        plan.add(new ScanSegment(null, i, bounds.size(), bounds.get(i)));
      }
    } else {
      plan = retry.call(() -> sourceDriver.segments(sourceLayout, null, segments));
      if (cp != null) {
        cp.plan(plan.stream().map(ScanSegment::bounds).toList());
      }
    }
    SegmentCounter[] counters = new SegmentCounter[plan.size()];
    for (int i = 0; i < counters.length; i++) {
      counters[i] = new SegmentCounter(i);
    }
    c.segments = counters;
    LOG.info("reading {} in {} segments", sourceSide.describe(), plan.size());
    ExecutorService readers =
        Executors.newFixedThreadPool(Math.min(plan.size(), parallelism), daemonThreads());
    try {
      for (ScanSegment segment : plan) {
        readers.execute(
            () -> {
              try {
                copySegment(cp, segment, pool, inFlight, failure, c, misfits, start);
              } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
              }
            });
      }
      readers.shutdown();
      awaitQuietly(readers);
    } finally {
      readers.shutdownNow();
    }
  }

  private void copySegment(
      Checkpoint cp,
      ScanSegment segment,
      ExecutorService pool,
      Semaphore inFlight,
      AtomicReference<RuntimeException> failure,
      Counters c,
      List<Misfit> misfits,
      long start) {
    String first = segment.number() + "@" + KeyText.START;
    String end = segment.number() + "@$";
    String pageStart = cp == null ? first : cp.resumeFrom(first);
    SegmentCounter seg = c.segments[segment.number()];
    if (cp != null) {
      long before = cp.itemsBeforeResume(first);
      c.skipped.add(before);
      seg.skipped.add(before);
    }
    // The segment's first read in this run asks for a short page (see firstPageSize), unless
    // writes of the page it resumes are recorded: those count positions in a page of pageSize.
    boolean shortPage = cp == null || !cp.anyWritten(pageStart);
    while (failure.get() == null && !cancelled && !pageStart.equals(end)) {
      String at = pageStart.substring(pageStart.indexOf('@') + 1);
      String checkpoint = at.equals(KeyText.START) ? null : at;
      int limit = shortPage ? firstPageSize() : pageSize;
      shortPage = false;
      SegmentPage page =
          retry.call(
              () ->
                  sourceDriver.scanSegment(
                      sourceLayout, new SegmentScan(segment, limit, checkpoint, true)));
      String thisStart = pageStart;
      String next = page.done() ? end : segment.number() + "@" + page.checkpoint();
      if (cp != null && cp.pageDone(thisStart)) {
        c.skipped.add(page.items().size());
        seg.skipped.add(page.items().size());
      } else if (page.items().isEmpty()) {
        if (cp != null) {
          cp.page(thisStart, next, 0);
        }
      } else {
        try {
          dispatch(cp, thisStart, next, page.items(), pool, inFlight, failure, c, seg, misfits);
        } catch (RuntimeException e) {
          seg.abandoned = true;
          failure.compareAndSet(null, e);
          break;
        }
      }
      pageStart = next;
      seg.read = pageStart.equals(end);
      report(c, start);
    }
    seg.read = pageStart.equals(end);
  }

  /**
   * Items the first page each segment reads in a run asks for: {@value #FIRST_PAGE_CALLS} of the
   * target's calls of copies ({@link StorageDriver#maxBatchWriteCopies}), at most a page. The
   * segments' first reads run together and arrive at about the same time, and nothing is written
   * before one arrives; a short first page lets the writers start while the readers go on to full
   * pages, for one read more per segment. (Whole calls: a target that groups a call's writes into
   * its own requests fills them as a page of full calls does.)
   */
  private int firstPageSize() {
    int call = Math.max(1, targetDriver.maxBatchWriteCopies(targetLayout));
    return (int) Math.min(pageSize, (long) FIRST_PAGE_CALLS * call);
  }

  /** The target's calls of copies a segment's first page in a run holds at most. */
  private static final int FIRST_PAGE_CALLS = 4;

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
    long start = System.nanoTime();
    Counters c = new Counters();
    List<Misfit> misfits = java.util.Collections.synchronizedList(new ArrayList<>());
    List<StoredItem> stored = new ArrayList<>(items.size());
    for (Item item : items) {
      stored.add(new StoredItem(item, "-"));
    }
    copyPage(null, KeyText.START, KeyText.START, stored, c, null, misfits);
    return new Report(progress(c, start, true), List.copyOf(misfits));
  }

  /**
   * Opens the source table and creates the target table and its indexes if missing, as {@link
   * #run()} does first; for callers that copy with {@link #copy(List)}.
   */
  public void prepareTarget() {
    retry.run(() -> sourceDriver.openTable(sourceLayout));
    retry.run(() -> targetDriver.ensureTable(targetLayout));
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
    return spec.keySchema().keyOf(stored);
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
        retry,
        spec,
        targetSpec,
        targetDriver.limits(targetLayout),
        sourceDriver,
        sourceBlobs,
        sourceLayout,
        targetDriver,
        targetBlobs,
        targetLayout);
  }

  /**
   * Hands a page to the writers. The page's writes not yet recorded as written are cut into calls
   * of the target's {@link StorageDriver#maxBatchWriteCopies} (its batch-write limit, unless it
   * groups a call's writes by partition itself and takes more); the checkpoint records each call
   * when it is in. A call's items are prepared (overflow blobs copied, items refitted) in parts of
   * the target's batch-write limit, each part its own task, so the blobs of a large call are copied
   * in parallel and a writer that finishes moves on to whatever part is next, of this page or of
   * another segment's; whichever part of a call ends last writes the call. Blocks while {@code
   * parallelism × 2} parts are queued or being written (so reading runs at most a few pages ahead).
   * The page is recorded by whichever of its calls ends last, and only if every one of them
   * succeeded, so a resumed run never skips an unwritten item.
   */
  private void dispatch(
      Checkpoint cp,
      String start,
      String last,
      List<StoredItem> items,
      ExecutorService pool,
      Semaphore inFlight,
      AtomicReference<RuntimeException> failure,
      Counters c,
      SegmentCounter seg,
      List<Misfit> misfits) {
    PreparedPage page = prepare(items, misfits);
    List<Call> calls = calls(cp, start, page, c, seg);
    if (calls.isEmpty()) {
      if (cp != null) {
        cp.page(start, last, items.size());
      }
      return;
    }
    AtomicInteger left = new AtomicInteger(calls.size());
    AtomicBoolean incomplete = new AtomicBoolean();
    for (Call call : calls) {
      for (int from = call.from(); from < call.to(); from += page.part()) {
        if (failure.get() != null || cancelled) {
          if (seg != null) {
            seg.abandoned = true; // the rest of the page is left to a resumed run
          }
          return;
        }
        int partFrom = from;
        int partTo = Math.min(call.to(), from + page.part());
        acquire(inFlight);
        if (seg != null) {
          seg.pending.incrementAndGet();
        }
        pool.execute(
            () -> {
              boolean written = false;
              try {
                if (failure.get() != null || cancelled) {
                  // Not started: its call is left to a resumed run, which finds it missing from
                  // the checkpoint.
                  incomplete.set(true);
                  if (seg != null) {
                    seg.abandoned = true;
                  }
                  return;
                }
                prepareWrites(page, call, partFrom, partTo, c, misfits);
                if (call.partsLeft().decrementAndGet() == 0) {
                  writeCall(cp, start, call, c, seg);
                  written = true;
                }
              } catch (RuntimeException e) {
                incomplete.set(true);
                if (seg != null) {
                  seg.abandoned = true;
                }
                failure.compareAndSet(null, e);
              } finally {
                if (seg != null) {
                  seg.pending.decrementAndGet();
                }
                inFlight.release();
              }
              if (written && left.decrementAndGet() == 0 && !incomplete.get() && cp != null) {
                try {
                  cp.page(start, last, items.size());
                } catch (RuntimeException e) {
                  failure.compareAndSet(null, e);
                }
              }
            });
      }
    }
  }

  /** Copies a page on the calling thread, call after call ({@link #copy(List)}). */
  private void copyPage(
      Checkpoint cp,
      String start,
      String last,
      List<StoredItem> items,
      Counters c,
      SegmentCounter seg,
      List<Misfit> misfits) {
    PreparedPage page = prepare(items, misfits);
    for (Call call : calls(cp, start, page, c, seg)) {
      prepareWrites(page, call, call.from(), call.to(), c, misfits);
      writeCall(cp, start, call, c, seg);
    }
    if (cp != null) {
      cp.page(start, last, items.size());
    }
  }

  /**
   * A page's writes as the target should hold them, before blobs are copied, in the page's order
   * (the order the checkpoint's records count in).
   *
   * @param part the target's batch-write limit: how many writes one task prepares, and the size of
   *     the chunks earlier versions recorded ({@code chunk} records)
   * @param call most writes per call of {@link StorageDriver#batchWriteCopies}
   */
  private record PreparedPage(
      List<WriteOp> writes, java.util.Set<Key> refit, DriverLimits limits, int part, int call) {}

  /**
   * One call of {@link StorageDriver#batchWriteCopies}: writes {@code [from, to)} of a page, the
   * unit the checkpoint records. Its parts fill {@code ready} (an item that turned out not to fit
   * leaves null); the part that counts {@code partsLeft} down to 0 writes the call, and sees what
   * every other part stored, as each stored before counting down.
   */
  private record Call(int from, int to, WriteOp[] ready, AtomicInteger partsLeft) {
    Call(int from, int to, int part) {
      this(from, to, new WriteOp[to - from], new AtomicInteger((to - from + part - 1) / part));
    }
  }

  /**
   * The calls a page's writes take: each run of writes the checkpoint does not record as written,
   * in calls of at most {@link PreparedPage#call()} writes. Writes it records are counted as
   * skipped.
   */
  private static List<Call> calls(
      Checkpoint cp, String start, PreparedPage page, Counters c, SegmentCounter seg) {
    int n = page.writes().size();
    java.util.BitSet done = cp == null ? new java.util.BitSet() : cp.written(start, n, page.part());
    int skipped = done.cardinality();
    if (skipped > 0) {
      c.skipped.add(skipped);
      if (seg != null) {
        seg.skipped.add(skipped);
      }
    }
    List<Call> calls = new ArrayList<>();
    for (int i = done.nextClearBit(0); i < n; i = done.nextClearBit(i)) {
      int end = done.nextSetBit(i);
      end = end < 0 ? n : end;
      for (int from = i; from < end; from += page.call()) {
        calls.add(new Call(from, Math.min(end, from + page.call()), page.part()));
      }
      i = end;
    }
    return calls;
  }

  private PreparedPage prepare(List<StoredItem> items, List<Misfit> misfits) {
    DriverLimits limits = targetDriver.limits(targetLayout);
    List<WriteOp> writes = new ArrayList<>(items.size());
    java.util.Set<Key> refit = new java.util.HashSet<>();
    for (StoredItem s : items) {
      Item item = s.item();
      Key key = spec.keySchema().keyOf(item);
      if (indexedInBlob(item)) {
        // An attribute the target indexes may be in the source's overflow blob (the source does
        // not index it, so it may have overflowed): index values are computed after restoring.
        if (targetBlobs == null) {
          misfits.add(
              new Misfit(
                  key,
                  "attributes the target indexes may be in the source's overflow blob: give a"
                      + " target blob store to overflow the item again"));
          continue;
        }
        refit.add(key);
        writes.add(new WriteOp.Put(key, item));
        continue;
      }
      try {
        item = StoredItems.withIndexValues(targetSpec, limits, item);
      } catch (InvalidRequestException | ItemTooLargeException e) {
        misfits.add(new Misfit(key, e.getMessage()));
        continue;
      }
      String tooBig = violation(limits, item);
      if (tooBig != null && targetBlobs == null) {
        misfits.add(new Misfit(key, tooBig + " (give a target blob store to overflow it)"));
        continue;
      }
      if (tooBig != null) {
        refit.add(key);
      }
      writes.add(new WriteOp.Put(key, item));
    }
    int part = Math.max(1, limits.maxBatchWrite());
    int call = Math.max(1, targetDriver.maxBatchWriteCopies(targetLayout));
    return new PreparedPage(writes, refit, limits, part, call);
  }

  /**
   * Prepares writes {@code [from, to)} of a page, part of {@code call}: copies their overflow blobs
   * (or refits items too large for the target), before the call writes any item.
   */
  private void prepareWrites(
      PreparedPage page, Call call, int from, int to, Counters c, List<Misfit> misfits) {
    awaitTarget(c);
    for (int i = from; i < to; i++) {
      WriteOp.Put put = (WriteOp.Put) page.writes().get(i);
      WriteOp ready;
      if (page.refit().contains(put.key())) {
        try {
          ready = refitted(put, page.limits(), c);
        } catch (ItemTooLargeException | InvalidRequestException e) {
          misfits.add(new Misfit(put.key(), e.getMessage()));
          continue;
        }
      } else {
        ready = withCopiedBlob(put, c);
      }
      call.ready()[i - call.from()] = ready;
    }
  }

  /** Writes a call whose parts are prepared, and records it in the checkpoint. */
  private void writeCall(Checkpoint cp, String start, Call call, Counters c, SegmentCounter seg) {
    List<WriteOp> ops = new ArrayList<>(call.ready().length);
    for (WriteOp op : call.ready()) {
      if (op != null) {
        ops.add(op);
      }
    }
    writeAll(ops);
    c.items.add(ops.size());
    if (seg != null) {
      seg.copied.add(ops.size());
    }
    if (cp != null) {
      cp.wrote(start, call.from(), call.to());
    }
  }

  /**
   * True if {@code item} overflowed on the source and lacks an attribute the target indexes but the
   * source does not (so the source's overflow may have moved it into the blob).
   */
  private boolean indexedInBlob(Item item) {
    if (!StoredOverflow.hasOverflow(item)) {
      return false;
    }
    for (var index : targetSpec.indexes()) {
      for (String a : index.attributes()) {
        if (!spec.isIndexed(a) && !spec.keySchema().isKeyAttribute(a) && item.find(a).isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * An item that fits the source but not the target (or whose indexed attributes may be in the
   * source's blob): its overflowed attributes are put back (in their stored form: encrypted values
   * stay encrypted), its index values computed for the target, and the item is overflowed again for
   * the target's limits into the target's blob store.
   *
   * @throws ItemTooLargeException if even its key and indexed attributes do not fit the target
   * @throws InvalidRequestException if the target's indexes cannot hold its indexed attributes
   */
  private WriteOp refitted(WriteOp.Put put, DriverLimits limits, Counters c) {
    Item whole = put.item();
    if (StoredOverflow.hasOverflow(whole)) {
      if (sourceBlobs == null) {
        throw new IllegalArgumentException(
            "item " + put.key() + " has overflowed attributes: give a source blob store");
      }
      whole =
          retry.call(() -> StoredOverflow.of(sourceBlobs).restore(sourceLayout.ref(), put.item()));
    }
    Item fitted = StoredItems.withIndexValues(targetSpec, limits, whole);
    StoredOverflow.Prepared p =
        retry.call(
            () ->
                StoredOverflow.of(targetBlobs)
                    .prepare(targetLayout.ref(), targetSpec, limits, fitted));
    if (p.blobKey() != null) {
      c.blobs.increment();
    }
    return new WriteOp.Put(put.key(), p.item());
  }

  private WriteOp withCopiedBlob(WriteOp.Put put, Counters c) {
    if (!StoredOverflow.hasOverflow(put.item())) {
      return put;
    }
    if (sourceBlobs == null || targetBlobs == null) {
      throw new IllegalArgumentException(
          "item "
              + put.key()
              + " has overflowed attributes: give both a source and a target blob store");
    }
    Optional<StoredOverflow.Copy> copy =
        retry.call(
            () ->
                StoredOverflow.of(sourceBlobs)
                    .copyBlob(sourceLayout.ref(), put.item(), targetBlobs, targetLayout.ref()));
    if (copy.isEmpty()) {
      c.missingBlobs.increment();
      return put;
    }
    c.blobs.increment();
    c.blobBytes.add(copy.get().bytes());
    return new WriteOp.Put(put.key(), copy.get().item());
  }

  private void writeAll(List<WriteOp> ops) {
    List<WriteOp> left = ops;
    for (int attempt = 1; !left.isEmpty(); attempt++) {
      List<WriteOp> now = left;
      BatchWriteResult r = retry.call(() -> targetDriver.batchWriteCopies(targetLayout, now));
      left = r.unprocessed();
      if (!left.isEmpty()) {
        backOff(retry.delayBefore(Math.min(attempt, 10), null));
      }
    }
  }

  private static void backOff(java.time.Duration delay) {
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying unprocessed writes", e);
    }
  }

  private String violation(DriverLimits limits, Item item) {
    long bytes = limits.sizeModel().itemBytes(item);
    if (bytes > limits.maxItemBytes()) {
      return bytes + " bytes exceed the target's " + limits.maxItemBytes();
    }
    if (item.size() > limits.maxAttributes()) {
      return item.size() + " attributes exceed the target's " + limits.maxAttributes();
    }
    // No attribute counts more than the item holding it (SizeModel): an item within the
    // per-attribute limit as a whole needs no attribute counted.
    boolean countAttributes = bytes > limits.maxAttributeBytes();
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      if (countAttributes
          && limits.sizeModel().attributeBytes(e.getKey(), e.getValue())
              > limits.maxAttributeBytes()) {
        return "attribute '" + e.getKey() + "' exceeds the target's per-attribute limit";
      }
      if (e.getKey().startsWith(IndexLayout.ATTRIBUTE_PREFIX)
          && indexedBytes(e.getValue()) > limits.maxIndexTupleBytes()) {
        return "index value '" + e.getKey() + "' exceeds the target's indexed-value limit";
      }
    }
    return null;
  }

  private static long indexedBytes(AttributeValue v) {
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.StringValue s) {
      return s.value().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }
    return 0;
  }

  /**
   * Compares source and target: item counts, and a digest of every item's stored attributes (with
   * the overflow blob's content in place of the pointer, so a rewritten pointer still matches).
   * Each source item is compared as the target should hold it, with the index values the target's
   * indexes give it ({@link StoredItems#withIndexValues}), so the target's index values are checked
   * too; a source item the target's indexes cannot hold counts as different or missing.
   */
  public Verification verify() {
    return verifier().run(pageSize, parallelism, segments);
  }

  private synchronized void report(Counters c, long start) {
    if (onProgress != null || LOG.isDebugEnabled()) {
      Progress p = progress(c, start, false);
      LOG.debug(
          "migrating {}: {} items copied, {} skipped, {} blobs",
          sourceLayout.ref(),
          p.itemsCopied(),
          p.itemsSkipped(),
          p.blobsCopied());
      if (onProgress != null) {
        onProgress.accept(p);
      }
    }
  }

  private static Progress progress(Counters c, long start, boolean done) {
    SegmentCounter[] counters = c.segments;
    List<SegmentProgress> segments = new ArrayList<>(counters.length);
    for (SegmentCounter s : counters) {
      segments.add(
          new SegmentProgress(
              s.number,
              s.copied.sum(),
              s.skipped.sum(),
              s.read && s.pending.get() == 0 && !s.abandoned));
    }
    return new Progress(
        c.items.sum(),
        c.skipped.sum(),
        c.blobs.sum(),
        c.blobBytes.sum(),
        c.missingBlobs.sum(),
        Duration.ofNanos(System.nanoTime() - start),
        done,
        List.copyOf(segments));
  }

  private static void acquire(Semaphore s) {
    try {
      s.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void awaitQuietly(ExecutorService pool) {
    try {
      while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
        // keep waiting for in-flight pages
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads() {
    return r -> {
      Thread t = new Thread(r, "stowage-migrate");
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Waits until the run's target table is ready, rethrowing the exception that creating it failed
   * with as it was thrown.
   */
  private static void awaitTarget(Counters c) {
    try {
      c.targetReady.join();
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

  private static final class Counters {
    /** Completes once the target table exists: at once for {@link #copy(List)}. */
    volatile CompletableFuture<Void> targetReady = CompletableFuture.completedFuture(null);

    final LongAdder items = new LongAdder();
    final LongAdder skipped = new LongAdder();
    final LongAdder blobs = new LongAdder();
    final LongAdder blobBytes = new LongAdder();
    final LongAdder missingBlobs = new LongAdder();
    volatile SegmentCounter[] segments = new SegmentCounter[0];
  }

  /** The counts of one segment of a segmented run. */
  private static final class SegmentCounter {
    final int number;
    final LongAdder copied = new LongAdder();
    final LongAdder skipped = new LongAdder();
    final java.util.concurrent.atomic.AtomicInteger pending =
        new java.util.concurrent.atomic.AtomicInteger();
    volatile boolean read;
    volatile boolean abandoned;

    SegmentCounter(int number) {
      this.number = number;
    }
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
