package dev.stowage.beam.internal;

/**
 * The names of the metrics the pipeline steps count, in Beam's metrics namespace {@code stowage}.
 */
public final class Metric {
  public static final String NAMESPACE = "stowage";
  public static final String SOURCE = "source";
  public static final String TARGET = "target";
  public static final String TARGET_INDEX = "targetIndex";
  public static final String SOURCE_SEGMENTS = "sourceSegments";
  public static final String COPIED = "copiedItems";
  public static final String BLOBS = "copiedBlobs";
  public static final String BLOB_BYTES = "copiedBlobBytes";
  public static final String MISSING_BLOBS = "missingBlobs";
  public static final String MISFITS = "misfits";
  public static final String MATCHED = "verifiedItems";

  /**
   * Source items the verification compared: the source count of a verified run. The read's own
   * count can fall short on Spark when a failed task is retried: the failed attempt's counters are
   * dropped while the partition it read stays in Spark's cache, and the retry reads it from there.
   */
  public static final String COMPARED_SOURCE = "comparedSourceItems";

  public static final String MISSING = "missingItems";
  public static final String EXTRA = "extraItems";
  public static final String DIFFERENT = "differentItems";
  public static final String INDEX_MATCHED = "verifiedIndexEntries";
  public static final String INDEX_MISSING = "missingIndexEntries";
  public static final String INDEX_EXTRA = "extraIndexEntries";
  public static final String EXAMPLES = "mismatchExamples";

  private Metric() {}
}
