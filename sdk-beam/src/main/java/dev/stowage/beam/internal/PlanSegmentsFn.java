package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.spi.ScanSegment;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Plans the segments of a table (an element "") or of one of its indexes (the element names it)
 * when the pipeline runs, so building a pipeline needs no access to the store. The driver plans
 * {@code elements × perElement} segments; each output element is a group of {@code perElement}
 * consecutive ones: the unit a runner distributes, which a splittable read ({@link ReadSegmentFn})
 * can divide again at its segments' boundaries, at page checkpoints and, where the driver's
 * segments are key ranges, at a key inside a segment while reading it.
 */
public final class PlanSegmentsFn extends DoFn<String, List<ScanSegment>> {
  private static final long serialVersionUID = 1L;
  private final TableAccess table;
  private final int elements;
  private final int perElement;
  private final Counter planned;
  private transient TableAccess.Reader reader;

  public PlanSegmentsFn(TableAccess table, int elements, int perElement) {
    this(table, elements, perElement, null);
  }

  /** Also counts the driver segments planned in the counter {@code metric} (null: none). */
  public PlanSegmentsFn(TableAccess table, int elements, int perElement, String metric) {
    this.table = table;
    this.elements = elements;
    this.perElement = perElement;
    this.planned = metric == null ? null : Metrics.counter(Metric.NAMESPACE, metric);
  }

  /** How many segments the driver plans for {@code elements} groups of {@code perElement}. */
  public static int total(int elements, int perElement) {
    return (int) Math.min(ScanSegment.MAX_TOTAL, (long) elements * perElement);
  }

  @Setup
  public void setup() {
    reader = table.open();
  }

  @ProcessElement
  public void process(@Element String index, OutputReceiver<List<ScanSegment>> out) {
    String name = index.isEmpty() ? null : index;
    int total = total(elements, perElement);
    List<ScanSegment> plan =
        RetryPolicy.DEFAULT.call(() -> reader.driver().segments(reader.layout(), name, total));
    if (planned != null) {
      planned.inc(plan.size());
    }
    // Group sizes differ by at most one when the cap on a plan's size cut the total.
    for (int g = 0; g < elements && g < plan.size(); g++) {
      int from = (int) ((long) plan.size() * g / elements);
      int to = (int) ((long) plan.size() * (g + 1) / elements);
      if (to > from) {
        out.output(List.copyOf(plan.subList(from, to)));
      }
    }
  }

  @Teardown
  public void teardown() {
    if (reader != null) {
      reader.close();
    }
  }
}
