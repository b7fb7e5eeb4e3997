package dev.stowage.beam.internal;

import dev.stowage.beam.internal.SegmentRange.Position;
import java.util.Objects;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.SplitResult;

/**
 * Tracks the pages read of a {@link SegmentRange} and splits off the unread part while a worker
 * reads it, so a runner can rebalance a read that turned out long.
 *
 * <p>A reader claims each page after reading it and before emitting its items ({@link PageClaim}:
 * where the page started and where it ended), in order; a claim starting at or past the range's end
 * is refused and the reader stops. Splits:
 *
 * <ul>
 *   <li>fraction 0 (a checkpoint, as runners take to pause a read): the residual is everything
 *       after the last claimed page, starting from that page's checkpoint, possibly in the middle
 *       of a segment;
 *   <li>fraction above 0: the residual starts at the start of a later segment, {@code fraction} of
 *       the way through the unread segments. Inside one segment only checkpoint splits are
 *       possible: the drivers' resume tokens are opaque, so nothing but the driver could place a
 *       point between the current page and the segment's end. Finer dynamic splits come from more
 *       segments per element.
 * </ul>
 *
 * The primary keeps the claimed pages; primary and residual together cover the range exactly once.
 */
public final class SegmentRangeTracker extends RestrictionTracker<SegmentRange, PageClaim>
    implements RestrictionTracker.HasProgress {
  private SegmentRange range;

  /** Where the next page starts: after the last claimed page, or the range's start. */
  private Position next;

  private boolean refused;

  public SegmentRangeTracker(SegmentRange range) {
    this.range = Objects.requireNonNull(range, "range");
    this.next = range.start();
  }

  @Override
  public boolean tryClaim(PageClaim page) {
    if (!page.from().equals(next)) {
      throw new IllegalArgumentException(
          "pages are claimed in order: expected one from " + next + ", got " + page);
    }
    if (refused || range.exhaustedAt(page.from())) {
      refused = true;
      return false;
    }
    next = page.to();
    return true;
  }

  @Override
  public SegmentRange currentRestriction() {
    return range;
  }

  @Override
  public SplitResult<SegmentRange> trySplit(double fractionOfRemainder) {
    if (refused || range.exhaustedAt(next)) {
      return null;
    }
    Position at;
    if (fractionOfRemainder <= 0) {
      at = next;
    } else {
      Position end = range.end();
      // Segments the unread part touches: the current one (whole or partly read) to the last.
      int last = end.checkpoint() == null ? end.segment() - 1 : end.segment();
      int first = next.segment() + 1;
      if (first > last) {
        return null;
      }
      int touched = last + 1 - next.segment();
      int k = next.segment() + (int) Math.ceil(fractionOfRemainder * touched);
      at = Position.startOf(Math.max(first, Math.min(last, k)));
    }
    SegmentRange primary = new SegmentRange(range.start(), at);
    SegmentRange residual = new SegmentRange(at, range.end());
    range = primary;
    return SplitResult.of(primary, residual);
  }

  @Override
  public void checkDone() throws IllegalStateException {
    if (!refused && !range.exhaustedAt(next)) {
      throw new IllegalStateException(
          "the read stopped at " + next + " before the end of its range " + range);
    }
  }

  @Override
  public IsBounded isBounded() {
    return IsBounded.BOUNDED;
  }

  @Override
  public Progress getProgress() {
    double done = units(next) - units(range.start());
    double left = Math.max(0, units(range.end()) - units(next));
    return Progress.from(Math.max(0, done), left);
  }

  /** Segments before a position, counting a partly read segment as half. */
  static double units(Position p) {
    return p.segment() + (p.checkpoint() == null ? 0 : 0.5);
  }

  /** The size of a range in segments (a partly read one counts half), for runners' estimates. */
  public static double size(SegmentRange r) {
    return Math.max(0, units(r.end()) - units(r.start()));
  }
}
