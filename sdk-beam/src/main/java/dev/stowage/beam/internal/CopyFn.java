package dev.stowage.beam.internal;

import dev.stowage.item.Item;
import dev.stowage.migrate.Migrator;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.GlobalWindow;

/**
 * Writes stored source items to the target with {@link Migrator#copy}, a batch at a time, and emits
 * a line per item that does not fit the target. Idempotent: a retried bundle writes the same stored
 * forms again (unconditional puts of whole items) and copies each blob to the same key, so no item
 * is duplicated or lost; a bundle is finished only after every one of its items is written.
 */
public final class CopyFn extends DoFn<Item, String> {
  private static final long serialVersionUID = 1L;
  private final MigrationSides sides;
  private final int batchSize;
  private final Counter copied = Metrics.counter(Metric.NAMESPACE, Metric.COPIED);
  private final Counter blobs = Metrics.counter(Metric.NAMESPACE, Metric.BLOBS);
  private final Counter blobBytes = Metrics.counter(Metric.NAMESPACE, Metric.BLOB_BYTES);
  private final Counter missingBlobs = Metrics.counter(Metric.NAMESPACE, Metric.MISSING_BLOBS);
  private final Counter misfits = Metrics.counter(Metric.NAMESPACE, Metric.MISFITS);
  private transient MigrationSides.Both both;
  private transient List<Item> batch;

  public CopyFn(MigrationSides sides, int batchSize) {
    this.sides = sides;
    this.batchSize = batchSize;
  }

  @Setup
  public void setup() {
    both = sides.open();
  }

  @StartBundle
  public void startBundle() {
    batch = new ArrayList<>();
  }

  @ProcessElement
  public void process(@Element Item item, OutputReceiver<String> out) {
    batch.add(item);
    if (batch.size() >= batchSize) {
      for (String m : flush()) {
        out.output(m);
      }
    }
  }

  @FinishBundle
  public void finishBundle(FinishBundleContext context) {
    for (String m : flush()) {
      // Bounded sources: everything is in the global window.
      context.output(m, GlobalWindow.INSTANCE.maxTimestamp(), GlobalWindow.INSTANCE);
    }
  }

  private List<String> flush() {
    if (batch.isEmpty()) {
      return List.of();
    }
    Migrator.Report r = both.migrator().copy(batch);
    batch = new ArrayList<>();
    copied.inc(r.progress().itemsCopied());
    blobs.inc(r.progress().blobsCopied());
    blobBytes.inc(r.progress().blobBytes());
    missingBlobs.inc(r.progress().missingBlobs());
    misfits.inc(r.misfits().size());
    return r.misfits().stream().map(m -> m.key() + ": " + m.reason()).toList();
  }

  @Teardown
  public void teardown() {
    if (both != null) {
      both.close();
    }
  }
}
