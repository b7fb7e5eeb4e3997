package dev.stowage.spi;

import java.util.Objects;
import java.util.Set;

/**
 * A read of one page of a {@linkplain ScanSegment segment}: up to {@code limit} items of the
 * segment after {@code checkpoint}, in the driver's order for the segment (any order, stable enough
 * that resuming from a checkpoint neither skips nor repeats an item that was not written
 * meanwhile).
 *
 * <p>{@code attributes}, when not null, names every attribute the caller will look at, as in {@link
 * DriverQuery#attributes()}: a driver may return only those, or whole items.
 *
 * @param segment the segment, as {@link StorageDriver#segments} planned it
 * @param limit most items to return, at least 1; a driver may return fewer (a backend page limit)
 * @param checkpoint where to continue: a {@link SegmentPage#checkpoint()} of an earlier page of the
 *     same segment, or null to start at the segment's beginning
 * @param consistentRead strongly consistent read where the backend offers it (DynamoDB table
 *     segments; ignored elsewhere)
 * @param attributes the attributes the caller needs from each item, or null for whole items
 */
public record SegmentScan(
    ScanSegment segment,
    int limit,
    String checkpoint,
    boolean consistentRead,
    Set<String> attributes) {
  public SegmentScan {
    Objects.requireNonNull(segment, "segment");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
    attributes = attributes == null ? null : Set.copyOf(attributes);
  }

  /** A read of whole items. */
  public SegmentScan(ScanSegment segment, int limit, String checkpoint, boolean consistentRead) {
    this(segment, limit, checkpoint, consistentRead, null);
  }
}
