package dev.stowage.migrate.internal;

import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Reads a run's source in segments ({@link StorageDriver#segments}), in parallel, each segment by
 * one of up to {@link Migration#parallelism()} reader threads, handing pages to the run's {@link
 * PageWriters}; each segment resumes from its own chain of pages in the checkpoint, and a resumed
 * run reads the segments the checkpoint recorded. Used once, by the run's thread.
 */
final class SegmentRunner {
  /** The target's calls of copies a segment's first page in a run holds at most. */
  private static final int FIRST_PAGE_CALLS = 4;

  private final CopyRun run;
  private final Migration m;
  private final PageWriters writers;

  SegmentRunner(CopyRun run, PageWriters writers) {
    this.run = run;
    this.m = run.m;
    this.writers = writers;
  }

  /**
   * Reads every segment (the checkpoint's plan, else a new plan of {@link Migration#segments()},
   * recorded), and returns once every reader has stopped.
   */
  void copySegments(Checkpoint cp) {
    List<ScanSegment> plan;
    if (cp != null && cp.plan().isPresent()) {
      List<String> bounds = cp.plan().get();
      plan = new ArrayList<>(bounds.size());
      for (int i = 0; i < bounds.size(); i++) {
        plan.add(new ScanSegment(null, i, bounds.size(), bounds.get(i)));
      }
    } else {
      plan = m.retry().call(() -> m.sourceDriver().segments(m.sourceLayout(), null, m.segments()));
      if (cp != null) {
        cp.plan(plan.stream().map(ScanSegment::bounds).toList());
      }
    }
    CopyCounters.Segment[] counters = new CopyCounters.Segment[plan.size()];
    for (int i = 0; i < counters.length; i++) {
      counters[i] = new CopyCounters.Segment(i);
    }
    run.counters.segments = counters;
    CopyRun.LOG.info("reading {} in {} segments", m.sourceSide().describe(), plan.size());
    ExecutorService readers =
        Executors.newFixedThreadPool(
            Math.min(plan.size(), m.parallelism()), CopyRun.daemonThreads());
    try {
      for (ScanSegment segment : plan) {
        readers.execute(
            () -> {
              try {
                copySegment(cp, segment);
              } catch (RuntimeException e) {
                run.fail(e);
              }
            });
      }
      readers.shutdown();
      CopyRun.awaitQuietly(readers);
    } finally {
      readers.shutdownNow();
    }
  }

  /** Reads one segment page by page, from where the checkpoint's chain of its pages ends. */
  private void copySegment(Checkpoint cp, ScanSegment segment) {
    CopyCounters c = run.counters;
    String first = segment.number() + "@" + KeyText.START;
    String end = segment.number() + "@$";
    String pageStart = cp == null ? first : cp.resumeFrom(first);
    CopyCounters.Segment seg = c.segments[segment.number()];
    if (cp != null) {
      long before = cp.itemsBeforeResume(first);
      c.skipped.add(before);
      seg.skipped.add(before);
    }
    // The segment's first read in this run asks for a short page (see firstPageSize), unless
    // writes of the page it resumes are recorded: those count positions in a page of pageSize.
    boolean shortPage = cp == null || !cp.anyWritten(pageStart);
    while (!run.stopped() && !pageStart.equals(end)) {
      String at = pageStart.substring(pageStart.indexOf('@') + 1);
      String checkpoint = at.equals(KeyText.START) ? null : at;
      int limit = shortPage ? firstPageSize() : m.pageSize();
      shortPage = false;
      SegmentPage page =
          m.retry()
              .call(
                  () ->
                      m.sourceDriver()
                          .scanSegment(
                              m.sourceLayout(), new SegmentScan(segment, limit, checkpoint, true)));
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
          writers.dispatch(cp, thisStart, next, page.items(), seg);
        } catch (RuntimeException e) {
          seg.abandoned = true;
          run.fail(e);
          break;
        }
      }
      pageStart = next;
      seg.read = pageStart.equals(end);
      run.report();
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
    int call = Math.max(1, m.targetDriver().maxBatchWriteCopies(m.targetLayout()));
    return (int) Math.min(m.pageSize(), (long) FIRST_PAGE_CALLS * call);
  }
}
