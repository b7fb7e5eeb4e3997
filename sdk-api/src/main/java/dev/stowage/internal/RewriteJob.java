package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.MaintenanceJob;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Scan;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Walks a table in scan order and rewrites, through the conditional path, each item whose stored
 * form is out of date: missing or stale index values (backfill and verification, the same walk
 * reported under two names) or values under an old encryption key (re-encryption). Rewrites leave
 * an item out of an index whose values it cannot hold ({@link StoredForm#encode(Item, Key,
 * java.util.List, String, boolean)}), and an item that cannot be written back at all is skipped and
 * logged. The resume token carries the counts.
 *
 * <p>With {@link Options#parallelism()} above 1 on a backend that scans in segments, a new job
 * divides the table into that many segments; each step reads and rewrites one page of every
 * unfinished segment in parallel, and the token carries every segment's checkpoint. A job resumed
 * from a segmented token continues its segments; one resumed from a token of a single scan
 * continues that scan.
 */
final class RewriteJob extends JobLoop<MaintenanceJob.Progress> implements MaintenanceJob {
  private final CoreTable t;
  private final Options options;
  private CursorState state;
  private long scanned;
  private long rewritten;
  private long stale;
  private long missing;
  private long skipped;
  private long scannedThisRun;
  private ExecutorService pool;

  RewriteJob(CoreTable t, CursorState state, Options options) {
    super(options.maxItemsPerSecond(), options.onProgress());
    this.t = t;
    this.state = state;
    this.options = options;
    this.scanned = state.matched();
    this.rewritten = state.deleted();
    CursorState.Findings f = state.findings();
    this.stale = f.stale();
    this.missing = f.missing();
    this.skipped = f.skipped();
  }

  static CursorState startState(CoreTable t, int job) {
    long expiry = t.shared.clock.millis() + Duration.ofDays(7).toMillis();
    return new CursorState(
        t.ref.namespace(),
        t.ref.table(),
        expiry,
        null,
        Scan.all(),
        true,
        null,
        false,
        0,
        0,
        0,
        job,
        null);
  }

  /** What one page of items came to. */
  private record Tally(long scanned, long rewritten, long stale, long missing, long skipped) {}

  @Override
  protected boolean step() {
    if (state.segments() == null
        && state.anchor() == null
        && scanned == 0
        && options.parallelism() > 1
        && t.shared.driver.capabilities().contains(Capability.SEGMENTED_SCANS)) {
      List<ScanSegment> plan =
          t.shared.retrier.call(
              () -> t.shared.driver.segments(t.layout, null, options.parallelism()));
      state =
          state.withSegments(
              plan.stream()
                  .map(s -> new CursorState.SegmentMark(s.bounds(), null, false))
                  .toList());
    }
    if (state.segments() != null) {
      return segmentedStep();
    }
    Key after = state.anchor() == null ? null : state.anchor().key();
    DriverScan ds = new DriverScan(options.pageSize(), after, true);
    t.shared.metrics.queries.increment();
    QueryResult page = t.retrier.call(() -> t.shared.driver.scan(t.layout, ds));
    add(walk(page.items()));
    if (!page.items().isEmpty()) {
      after = t.spec.keySchema().keyOf(page.items().get(page.items().size() - 1).item());
      state = state.at(true, new Position(after, null), false);
    }
    record();
    return page.items().isEmpty() || !page.more();
  }

  /**
   * One page of every unfinished segment, read and rewritten in parallel by up to {@code
   * parallelism} threads; the state then holds every segment's new checkpoint.
   */
  private boolean segmentedStep() {
    List<CursorState.SegmentMark> marks = new ArrayList<>(state.segments());
    int total = marks.size();
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      if (!marks.get(i).done()) {
        open.add(i);
      }
    }
    if (open.isEmpty()) {
      return true;
    }
    if (pool == null) {
      pool =
          Executors.newFixedThreadPool(
              Math.min(options.parallelism(), total),
              r -> {
                Thread th = new Thread(r, "stowage-maintenance");
                th.setDaemon(true);
                return th;
              });
    }
    List<Future<Tally>> pages = new ArrayList<>();
    List<SegmentPage> read = new ArrayList<>(java.util.Collections.nCopies(total, null));
    for (int i : open) {
      CursorState.SegmentMark m = marks.get(i);
      ScanSegment segment = new ScanSegment(null, i, total, m.bounds());
      pages.add(
          pool.submit(
              () -> {
                t.shared.metrics.queries.increment();
                SegmentPage page =
                    t.retrier.call(
                        () ->
                            t.shared.driver.scanSegment(
                                t.layout,
                                new SegmentScan(
                                    segment, options.pageSize(), m.checkpoint(), true)));
                synchronized (read) {
                  read.set(segment.number(), page);
                }
                return walk(page.items());
              }));
    }
    RuntimeException failure = null;
    for (int k = 0; k < pages.size(); k++) {
      try {
        add(pages.get(k).get());
        SegmentPage page = read.get(open.get(k));
        marks.set(
            open.get(k),
            new CursorState.SegmentMark(
                marks.get(open.get(k)).bounds(), page.checkpoint(), page.done()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IllegalStateException("interrupted", e);
      } catch (ExecutionException e) {
        // The other segments' pages still count: their rewrites happened.
        failure =
            e.getCause() instanceof RuntimeException re
                ? re
                : new IllegalStateException(e.getCause());
      }
    }
    state = state.withSegments(marks);
    record();
    if (failure != null) {
      throw failure;
    }
    return marks.stream().allMatch(CursorState.SegmentMark::done);
  }

  /** Checks and rewrites the items of one page. Thread-safe. */
  private Tally walk(List<StoredItem> items) {
    long n = 0;
    long rewrote = 0;
    long staleHere = 0;
    long missingHere = 0;
    long skippedHere = 0;
    for (StoredItem s : items) {
      Key key = t.spec.keySchema().keyOf(s.item());
      n++;
      if (state.job() == CursorState.REENCRYPT) {
        if (!underOldKeys(s.item())) {
          continue;
        }
      } else {
        StoredForm.IndexState found = t.form.indexState(s.item(), key);
        if (found == StoredForm.IndexState.CURRENT) {
          continue;
        }
        if (found == StoredForm.IndexState.STALE) {
          staleHere++;
        } else {
          missingHere++;
        }
      }
      if (options.dryRun() || rewrite(key)) {
        rewrote++;
      } else {
        skippedHere++;
      }
    }
    return new Tally(n, rewrote, staleHere, missingHere, skippedHere);
  }

  private void add(Tally x) {
    scanned += x.scanned();
    scannedThisRun += x.scanned();
    rewritten += x.rewritten();
    stale += x.stale();
    missing += x.missing();
    skipped += x.skipped();
  }

  private void record() {
    state =
        state
            .withCounts(scanned, rewritten, 0)
            .withFindings(new CursorState.Findings(stale, missing, skipped));
  }

  @Override
  protected void close() {
    if (pool != null) {
      pool.shutdownNow();
      pool = null;
    }
  }

  @Override
  protected long unitsThisRun() {
    return scannedThisRun;
  }

  @Override
  protected Object target() {
    return t.ref;
  }

  @Override
  protected String counts(Progress p) {
    String counts = p.scanned() + " scanned, " + p.rewritten() + " rewritten";
    if (state.job() != CursorState.REENCRYPT) {
      counts +=
          " (" + p.stale() + " stale, " + p.missing() + " missing, " + p.skipped() + " skipped)";
    } else if (p.skipped() > 0) {
      counts += ", " + p.skipped() + " skipped";
    }
    return counts;
  }

  @Override
  protected String name() {
    String job =
        switch (state.job()) {
          case CursorState.REENCRYPT -> "re-encryption";
          case CursorState.VERIFY -> "index verification";
          default -> "index backfill";
        };
    return options.dryRun() ? job + " (dry run)" : job;
  }

  /**
   * Rewrites an item through the conditional path; false if its current form cannot be written back
   * (a value over the backend's limits or against Stowage's rules, typically written by another
   * tool), which is logged and skipped so that one such item does not stop the walk.
   */
  private boolean rewrite(Key key) {
    try {
      t.rewrite(key);
      return true;
    } catch (InvalidRequestException | ItemTooLargeException e) {
      JobLog.skipped(name(), t.ref, key, e.getMessage());
      return false;
    }
  }

  private boolean underOldKeys(Item stored) {
    for (Map.Entry<String, AttributeValue> e : stored.attributes().entrySet()) {
      // Catches values under an old key, plaintext left from a migration window and
      // ciphertext left in attributes that are no longer encrypted.
      if (!AttributeNames.isReserved(e.getKey())
          && !t.spec.keySchema().isKeyAttribute(e.getKey())
          && t.shared.codecs.needsRewrite(t.spec.policy(e.getKey()), e.getValue())) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected Progress progress(Duration elapsed, boolean done) {
    return new Progress(
        scanned, rewritten, stale, missing, skipped, elapsed, done, t.shared.sealer.seal(state));
  }
}
