package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.spi.ScanSegment;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Plans the segments of a table (an element "") or of one of its indexes (the element names it)
 * when the pipeline runs, so building a pipeline needs no access to the store.
 */
public final class PlanSegmentsFn extends DoFn<String, ScanSegment> {
  private static final long serialVersionUID = 1L;
  private final TableAccess table;
  private final int total;
  private transient TableAccess.Reader reader;

  public PlanSegmentsFn(TableAccess table, int total) {
    this.table = table;
    this.total = total;
  }

  @Setup
  public void setup() {
    reader = table.open();
  }

  @ProcessElement
  public void process(@Element String index, OutputReceiver<ScanSegment> out) {
    String name = index.isEmpty() ? null : index;
    for (ScanSegment s :
        RetryPolicy.DEFAULT.call(() -> reader.driver().segments(reader.layout(), name, total))) {
      out.output(s);
    }
  }

  @Teardown
  public void teardown() {
    if (reader != null) {
      reader.close();
    }
  }
}
