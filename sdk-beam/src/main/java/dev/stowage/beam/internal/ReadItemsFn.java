package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.beam.StoreSpec;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Reads one segment as the application sees its items: each page of keys the segment scan returns
 * is read back through the table ({@link Table#batchGet}), which decodes compressed and encrypted
 * attributes with the {@link Stowage}'s keys and fetches overflowed attributes. An item deleted
 * between the scan and the read is skipped; one written meanwhile is read in its newer version.
 */
public final class ReadItemsFn extends DoFn<ScanSegment, Item> {
  private static final long serialVersionUID = 1L;
  private final StoreSpec.Opener<Stowage> opener;
  private final SpecSnapshot spec;
  private final int pageSize;
  private final Counter items = Metrics.counter(Metric.NAMESPACE, "decodedItems");
  private transient Stowage stowage;
  private transient Table table;
  private transient TableLayout layout;

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
  }

  @ProcessElement
  public void process(@Element ScanSegment segment, OutputReceiver<Item> out) {
    String checkpoint = null;
    while (true) {
      // Keys only: the items are read whole, decoded, by the table.
      SegmentScan scan =
          new SegmentScan(
              segment, pageSize, checkpoint, true, java.util.Set.copyOf(keyAttributes()));
      SegmentPage page = RetryPolicy.DEFAULT.call(() -> stowage.driver().scanSegment(layout, scan));
      List<dev.stowage.item.Key> keys = new ArrayList<>(page.items().size());
      for (StoredItem s : page.items()) {
        keys.add(spec.spec().keySchema().keyOf(s.item()));
      }
      if (!keys.isEmpty()) {
        Map<dev.stowage.item.Key, Item> found = table.batchGet(keys);
        for (dev.stowage.item.Key k : keys) {
          Item item = found.get(k);
          if (item != null) {
            out.output(item);
            items.inc();
          }
        }
      }
      if (page.done()) {
        return;
      }
      checkpoint = page.checkpoint();
    }
  }

  private List<String> keyAttributes() {
    List<String> names = new ArrayList<>();
    names.add(spec.spec().keySchema().partitionName());
    spec.spec().keySchema().sortName().ifPresent(names::add);
    return names;
  }

  @Teardown
  public void teardown() {
    if (stowage != null) {
      stowage.close();
    }
  }
}
