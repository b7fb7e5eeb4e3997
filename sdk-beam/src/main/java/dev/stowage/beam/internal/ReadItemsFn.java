package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.beam.StoreSpec;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;

/**
 * Reads a group of segments as the application sees its items: each page of keys the segment scan
 * returns is read back through the table ({@link Table#batchGet}), which decodes compressed and
 * encrypted attributes with the {@link Stowage}'s keys and fetches overflowed attributes. An item
 * deleted between the scan and the read is skipped; one written meanwhile is read in its newer
 * version. Splittable as {@link ReadSegmentFn} is.
 */
@DoFn.BoundedPerElement
public final class ReadItemsFn extends DoFn<List<ScanSegment>, Item> {
  private static final long serialVersionUID = 1L;
  private final StoreSpec.Opener<Stowage> opener;
  private final SpecSnapshot spec;
  private final int pageSize;
  private final Counter items = Metrics.counter(Metric.NAMESPACE, "decodedItems");
  private final Counter splits = Metrics.counter(Metric.NAMESPACE, "decodedSplits");
  private transient Stowage stowage;
  private transient Table table;
  private transient TableLayout layout;
  private transient Set<String> keyAttributes;

  public ReadItemsFn(StoreSpec.Opener<Stowage> opener, SpecSnapshot spec, int pageSize) {
    this.opener = opener;
    this.spec = spec;
    this.pageSize = pageSize;
  }

  @Setup
  public void setup() {
    stowage = opener.open();
    table = stowage.table(spec.spec());
    layout = Layouts.of(stowage.namespace(), spec.spec());
    List<String> names = new ArrayList<>();
    names.add(spec.spec().keySchema().partitionName());
    spec.spec().keySchema().sortName().ifPresent(names::add);
    keyAttributes = Set.copyOf(names);
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
                () -> stowage.driver().splitSegment(layout, segment, checkpoint, fraction)));
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
            // Keys only: the items are read whole, decoded, by the table.
            (segment, checkpoint) ->
                RetryPolicy.DEFAULT.call(
                    () ->
                        stowage
                            .driver()
                            .scanSegment(
                                layout,
                                new SegmentScan(
                                    segment, pageSize, checkpoint, true, keyAttributes))),
            page -> {
              List<dev.stowage.item.Key> keys = new ArrayList<>(page.items().size());
              for (StoredItem s : page.items()) {
                keys.add(spec.spec().keySchema().keyOf(s.item()));
              }
              if (keys.isEmpty()) {
                return;
              }
              Map<dev.stowage.item.Key, Item> found = table.batchGet(keys);
              for (dev.stowage.item.Key k : keys) {
                Item item = found.get(k);
                if (item != null) {
                  out.output(item);
                  items.inc();
                }
              }
            });
    if (split) {
      splits.inc();
    }
  }

  @Teardown
  public void teardown() {
    if (stowage != null) {
      stowage.close();
    }
  }
}
