package dev.stowage.spi;

import java.util.Objects;

/**
 * A segment's unread part divided in two at a point inside it (see {@link
 * StorageDriver#splitSegment}).
 *
 * <p>{@code primary} is the segment narrowed to end at the split point: read on from the checkpoint
 * the split was asked at (which stays valid for it), it returns the items between that checkpoint
 * and the split point. {@code residual} holds the rest of the segment, from the split point to the
 * segment's end, and is read from its own start (checkpoint null). An item that the unsplit segment
 * would have returned after the checkpoint is returned by exactly one of the two; each is an
 * ordinary segment of the same plan (same index, number and total), which can be split again.
 *
 * @param primary the part up to the split point, read on from the split's checkpoint
 * @param residual the part from the split point to the segment's end, read from its start
 */
public record SegmentSplit(ScanSegment primary, ScanSegment residual) {
  public SegmentSplit {
    Objects.requireNonNull(primary, "primary");
    Objects.requireNonNull(residual, "residual");
  }
}
