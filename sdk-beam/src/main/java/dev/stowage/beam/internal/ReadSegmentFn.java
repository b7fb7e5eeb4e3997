package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Reads one segment page by page, emitting every stored item. A failed bundle is read again from
 * the segment's start by the runner; its output of the failed attempt is discarded, so no item is
 * emitted twice.
 */
public final class ReadSegmentFn extends DoFn<ScanSegment, Item> {
  private static final long serialVersionUID = 1L;
  private final TableAccess table;
  private final int pageSize;
  private final Counter items;
  private final Counter pages;
  private transient TableAccess.Reader reader;

  public ReadSegmentFn(TableAccess table, int pageSize, String metricPrefix) {
    this.table = table;
    this.pageSize = pageSize;
    this.items = Metrics.counter(Metric.NAMESPACE, metricPrefix + "Items");
    this.pages = Metrics.counter(Metric.NAMESPACE, metricPrefix + "Pages");
  }

  @Setup
  public void setup() {
    reader = table.open();
  }

  @ProcessElement
  public void process(@Element ScanSegment segment, OutputReceiver<Item> out) {
    String checkpoint = null;
    while (true) {
      SegmentScan scan = new SegmentScan(segment, pageSize, checkpoint, true);
      SegmentPage page =
          RetryPolicy.DEFAULT.call(() -> reader.driver().scanSegment(reader.layout(), scan));
      for (StoredItem s : page.items()) {
        out.output(s.item());
      }
      items.inc(page.items().size());
      pages.inc();
      if (page.done()) {
        return;
      }
      checkpoint = page.checkpoint();
    }
  }

  @Teardown
  public void teardown() {
    if (reader != null) {
      reader.close();
    }
  }
}
