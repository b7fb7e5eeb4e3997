package dev.stowage.beam.internal;

import dev.stowage.beam.internal.SegmentRange.Position;
import dev.stowage.spi.ScanSegment;
import java.util.Objects;

/**
 * A page of a segment read, claimed before its items are emitted (see {@link SegmentRangeTracker}).
 *
 * <p>The claim names the segment the page was read with ({@code read}): a split inside that segment
 * while the page was being read narrows the segment, and the page may then hold items that now
 * belong to the part split off. The tracker accepts such a claim without moving on and marks it
 * {@linkplain #reread() to be read again}; the reader then reads the same page with the narrowed
 * segment and claims that instead, emitting nothing of the first read.
 */
public final class PageClaim {
  private final Position from;
  private final Position to;
  private final ScanSegment read;
  private volatile boolean reread;

  /**
   * A claim.
   *
   * @param from where the page started
   * @param to where the next page starts: the same segment after the page's checkpoint, or the next
   *     segment's start when the page finished its segment
   * @param read the segment the page was read with, or null when not known (no staleness check)
   */
  public PageClaim(Position from, Position to, ScanSegment read) {
    this.from = Objects.requireNonNull(from, "from");
    this.to = Objects.requireNonNull(to, "to");
    this.read = read;
  }

  /** A claim of a page read with the segment its range holds. */
  public PageClaim(Position from, Position to) {
    this(from, to, null);
  }

  public Position from() {
    return from;
  }

  public Position to() {
    return to;
  }

  public ScanSegment read() {
    return read;
  }

  /** The tracker accepted the claim but the page must be read again with the narrowed segment. */
  public boolean reread() {
    return reread;
  }

  void markReread() {
    reread = true;
  }

  @Override
  public String toString() {
    return "page from " + from + " to " + to;
  }
}
