package dev.stowage.beam.internal;

import dev.stowage.beam.internal.SegmentRange.Position;
import java.util.Objects;

/**
 * A page of a segment read, claimed before its items are emitted (see {@link SegmentRangeTracker}).
 *
 * @param from where the page started
 * @param to where the next page starts: the same segment after the page's checkpoint, or the next
 *     segment's start when the page finished its segment
 */
public record PageClaim(Position from, Position to) {
  public PageClaim {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
  }
}
