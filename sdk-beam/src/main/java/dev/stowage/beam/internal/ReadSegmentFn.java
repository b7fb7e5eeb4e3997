package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;

/**
 * Reads a group of segments page by page, emitting every stored item: a splittable DoFn whose
 * restriction is the unread part of the group ({@link SegmentRange}), so a runner can split a
 * running read at a page checkpoint, at a later segment's start or at a key the driver picks inside
 * the last segment ({@link SegmentRangeTracker}). A failed bundle is read again by the runner from
 * its restriction's start; the failed attempt's output is discarded, so no item is emitted twice.
 */
@DoFn.BoundedPerElement
public final class ReadSegmentFn extends DoFn<List<ScanSegment>, Item> {
  private static final long serialVersionUID = 1L;
  private final TableAccess table;
  private final int pageSize;
  private final Counter items;
  private final Counter pages;
  private final Counter splits;
  private transient TableAccess.Reader reader;

  public ReadSegmentFn(TableAccess table, int pageSize, String metricPrefix) {
    this.table = table;
    this.pageSize = pageSize;
    this.items = Metrics.counter(Metric.NAMESPACE, metricPrefix + "Items");
    this.pages = Metrics.counter(Metric.NAMESPACE, metricPrefix + "Pages");
    // Restrictions that ended before their group's end: a runner split a part off them.
    this.splits = Metrics.counter(Metric.NAMESPACE, metricPrefix + "Splits");
  }

  @Setup
  public void setup() {
    reader = table.open();
  }

  @GetInitialRestriction
  public SegmentRange initialRestriction(@Element List<ScanSegment> group) {
    return SegmentRange.whole(group.size());
  }

  @NewTracker
  public SegmentRangeTracker newTracker(
      @Element List<ScanSegment> group, @Restriction SegmentRange range) {
    // A runner's dynamic split of the last segment asks the driver where to cut it.
    return new SegmentRangeTracker(
        range,
        group,
        (segment, checkpoint, fraction) ->
            RetryPolicy.DEFAULT.call(
                () ->
                    reader.driver().splitSegment(reader.layout(), segment, checkpoint, fraction)));
  }

  @GetRestrictionCoder
  public Coder<SegmentRange> restrictionCoder() {
    return SegmentRange.Coder.of();
  }

  @GetSize
  public double size(@Restriction SegmentRange range) {
    return SegmentRangeTracker.size(range);
  }

  @ProcessElement
  public void process(
      @Element List<ScanSegment> group,
      RestrictionTracker<SegmentRange, PageClaim> tracker,
      OutputReceiver<Item> out) {
    boolean split =
        SegmentPages.read(
            group,
            tracker,
            (segment, checkpoint) ->
                RetryPolicy.DEFAULT.call(
                    () ->
                        reader
                            .driver()
                            .scanSegment(
                                reader.layout(),
                                new SegmentScan(segment, pageSize, checkpoint, true))),
            page -> {
              for (StoredItem s : page.items()) {
                out.output(s.item());
              }
              items.inc(page.items().size());
              pages.inc();
            });
    if (split) {
      splits.inc();
    }
  }

  @Teardown
  public void teardown() {
    if (reader != null) {
      reader.close();
    }
  }
}
