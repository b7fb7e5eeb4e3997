package dev.stowage.beam.internal;

import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Compares what both sides hold for one key (an item, or an item's entry in one index) and counts
 * the outcome; emits a line for each mismatch ({@code missing|extra|different <key>}).
 */
public final class CompareFn extends DoFn<KV<String, Iterable<String>>, String> {
  private static final long serialVersionUID = 1L;
  private final Counter matched = Metrics.counter(Metric.NAMESPACE, Metric.MATCHED);
  private final Counter compared = Metrics.counter(Metric.NAMESPACE, Metric.COMPARED_SOURCE);
  private final Counter missing = Metrics.counter(Metric.NAMESPACE, Metric.MISSING);
  private final Counter extra = Metrics.counter(Metric.NAMESPACE, Metric.EXTRA);
  private final Counter different = Metrics.counter(Metric.NAMESPACE, Metric.DIFFERENT);
  private final Counter indexMatched = Metrics.counter(Metric.NAMESPACE, Metric.INDEX_MATCHED);
  private final Counter indexMissing = Metrics.counter(Metric.NAMESPACE, Metric.INDEX_MISSING);
  private final Counter indexExtra = Metrics.counter(Metric.NAMESPACE, Metric.INDEX_EXTRA);

  @ProcessElement
  public void process(@Element KV<String, Iterable<String>> e, OutputReceiver<String> out) {
    String source = null;
    String target = null;
    int sources = 0;
    int targets = 0;
    for (String v : e.getValue()) {
      if (v.startsWith("S")) {
        source = v.substring(1);
        sources++;
      } else {
        target = v.substring(1);
        targets++;
      }
    }
    boolean index = e.getKey().contains("#");
    String what = index ? "index entry " : "item ";
    if (!index && sources > 0) {
      compared.inc();
    }
    if (sources > 1 || targets > 1) {
      // A key read twice from one side: a segment plan that covered an item twice.
      (index ? indexExtra : extra).inc();
      out.output("duplicate " + what + e.getKey());
    } else if (target == null) {
      (index ? indexMissing : missing).inc();
      out.output("missing " + what + e.getKey());
    } else if (source == null) {
      (index ? indexExtra : extra).inc();
      out.output("extra " + what + e.getKey());
    } else if (!source.equals(target)) {
      different.inc();
      out.output("different " + what + e.getKey());
    } else {
      (index ? indexMatched : matched).inc();
    }
  }
}
