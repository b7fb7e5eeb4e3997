package dev.stowage.internal;

import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every stored item of a table as one stream, read in parallel segments ({@link
 * StorageDriver#segments}) by up to {@code parallelism} daemon threads that hand pages to the
 * consumer through a bounded queue (at most {@code 2 × parallelism} pages wait); a driver without
 * segmented scans is scanned page by page on the consumer's thread. Items come in no particular
 * order. Closing the stream (or an error) stops the readers; a reader's error is rethrown to the
 * consumer. One consumer per stream.
 */
public final class SegmentedReader {
  private static final int PAGE = 500;

  /** A page, the end of one segment, or a reader's failure. */
  private record Handoff(List<StoredItem> items, RuntimeException failure) {}

  private SegmentedReader() {}

  /** The table's stored items, read with {@code parallelism} readers over as many segments. */
  public static Stream<StoredItem> items(
      StorageDriver driver, TableLayout layout, Retrier retrier, int parallelism) {
    if (parallelism <= 1 || !driver.capabilities().contains(Capability.SEGMENTED_SCANS)) {
      return sequential(driver, layout, retrier);
    }
    List<ScanSegment> plan = retrier.call(() -> driver.segments(layout, null, parallelism));
    BlockingQueue<Handoff> queue = new ArrayBlockingQueue<>(2 * parallelism + plan.size());
    ExecutorService readers =
        Executors.newFixedThreadPool(
            Math.min(parallelism, plan.size()),
            r -> {
              Thread t = new Thread(r, "stowage-segment-reader");
              t.setDaemon(true);
              return t;
            });
    AtomicInteger open = new AtomicInteger(plan.size());
    for (ScanSegment segment : plan) {
      readers.execute(
          () -> {
            try {
              String checkpoint = null;
              while (!Thread.currentThread().isInterrupted()) {
                String at = checkpoint;
                SegmentPage page =
                    retrier.call(
                        () -> driver.scanSegment(layout, new SegmentScan(segment, PAGE, at, true)));
                if (!page.items().isEmpty()) {
                  queue.put(new Handoff(page.items(), null));
                }
                if (page.done()) {
                  break;
                }
                checkpoint = page.checkpoint();
              }
              queue.put(new Handoff(null, null));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
              try {
                queue.put(new Handoff(null, e));
              } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
              }
            }
          });
    }
    readers.shutdown();
    Iterator<StoredItem> it =
        new Iterator<>() {
          private List<StoredItem> page = List.of();
          private int i;

          @Override
          public boolean hasNext() {
            while (i >= page.size() && open.get() > 0) {
              Handoff h;
              try {
                h = queue.poll(1, TimeUnit.MINUTES);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                readers.shutdownNow();
                throw new IllegalStateException("interrupted while reading segments", e);
              }
              if (h == null) {
                continue;
              }
              if (h.failure() != null) {
                readers.shutdownNow();
                throw h.failure();
              }
              if (h.items() == null) {
                open.decrementAndGet();
              } else {
                page = h.items();
                i = 0;
              }
            }
            return i < page.size();
          }

          @Override
          public StoredItem next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.get(i++);
          }
        };
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, 0), false)
        .onClose(readers::shutdownNow);
  }

  private static Stream<StoredItem> sequential(
      StorageDriver driver, TableLayout layout, Retrier retrier) {
    Iterator<StoredItem> it =
        new Iterator<>() {
          private List<StoredItem> page = List.of();
          private int i;
          private dev.stowage.item.Key after;
          private boolean more = true;

          @Override
          public boolean hasNext() {
            while (i >= page.size() && more) {
              DriverScan scan = new DriverScan(PAGE, after, true);
              QueryResult r = retrier.call(() -> driver.scan(layout, scan));
              page = r.items();
              i = 0;
              more = r.more() && !page.isEmpty();
              if (!page.isEmpty()) {
                after = layout.keySchema().keyOf(page.get(page.size() - 1).item());
              }
            }
            return i < page.size();
          }

          @Override
          public StoredItem next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.get(i++);
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false);
  }
}
