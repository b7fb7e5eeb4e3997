package dev.stowage.beam.internal;

import dev.stowage.beam.internal.SegmentRange.Position;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentSplit;
import dev.stowage.spi.StorageDriver;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
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
 *   <li>fraction above 0 while later segments remain unread: the residual starts at the start of a
 *       later segment, {@code fraction} of the way through the unread segments;
 *   <li>fraction above 0 in the range's last segment: the driver cuts that segment's unread part at
 *       about {@code fraction} of its keys ({@link StorageDriver#splitSegment}); the primary reads
 *       on to the cut, the residual from the cut to the segment's end. Drivers whose segments are
 *       not key ranges (DynamoDB's parallel scan) cannot cut, and the split is declined, as it is
 *       when the driver fails or finds fewer than two keys left.
 * </ul>
 *
 * A page being read while a split narrows its segment may hold items of the residual: its claim is
 * accepted without moving on and marked to be read again ({@link PageClaim#reread()}), and the
 * reader reads it anew with the narrowed segment. The primary keeps the claimed pages; primary and
 * residual together cover the range exactly once.
 */
public final class SegmentRangeTracker extends RestrictionTracker<SegmentRange, PageClaim>
    implements RestrictionTracker.HasProgress {
  /** Cuts a segment's unread part (a driver's {@link StorageDriver#splitSegment}). */
  @FunctionalInterface
  public interface Splitter {
    Optional<SegmentSplit> split(ScanSegment segment, String checkpoint, double fraction);
  }

  private SegmentRange range;
  private final List<ScanSegment> group;
  private final Splitter splitter;

  /** Where the next page starts: after the last claimed page, or the range's start. */
  private Position next;

  private boolean refused;

  /**
   * A tracker that splits inside a segment with {@code splitter}.
   *
   * @param group the element's segments, which {@code range} indexes
   */
  public SegmentRangeTracker(SegmentRange range, List<ScanSegment> group, Splitter splitter) {
    this.range = Objects.requireNonNull(range, "range");
    this.group = group;
    this.splitter = splitter;
    this.next = range.start();
  }

  /** A tracker that splits only at segment starts and page checkpoints. */
  public SegmentRangeTracker(SegmentRange range) {
    this(range, null, null);
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
    ScanSegment now = range.narrowed().get(page.from().segment());
    if (page.read() != null && now != null && !now.equals(page.read())) {
      // Read with bounds a split has narrowed since: the page is read again, not claimed.
      page.markReread();
      return true;
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
        return splitInside(fractionOfRemainder);
      }
      int touched = last + 1 - next.segment();
      int k = next.segment() + (int) Math.ceil(fractionOfRemainder * touched);
      at = Position.startOf(Math.max(first, Math.min(last, k)));
    }
    SegmentRange primary = new SegmentRange(range.start(), at, range.narrowed(), range.shares());
    SegmentRange residual = new SegmentRange(at, range.end(), range.narrowed(), range.shares());
    range = primary;
    return SplitResult.of(primary, residual);
  }

  /** Splits the range's last segment, being read, at a point the driver chooses. */
  private SplitResult<SegmentRange> splitInside(double fraction) {
    Position end = range.end();
    int i = next.segment();
    if (splitter == null
        || group == null
        || fraction >= 1
        || end.checkpoint() != null
        || end.segment() != i + 1
        || i >= group.size()) {
      return null;
    }
    Optional<SegmentSplit> cut;
    try {
      cut = splitter.split(range.segment(i, group), next.checkpoint(), fraction);
    } catch (RuntimeException e) {
      return null; // a split is an optimisation: the read goes on whole
    }
    if (cut.isEmpty()) {
      return null;
    }
    SortedMap<Integer, ScanSegment> kept = new TreeMap<>(range.narrowed());
    kept.put(i, cut.get().primary());
    // The residual holds about (1 - fraction) of the segment's unread part (all of it, or half
    // when pages of it were read, as progress counts a partly read segment); the primary the rest.
    double whole = range.share(i);
    double unread = next.checkpoint() == null ? whole : whole / 2;
    double residualShare = Math.max(Double.MIN_NORMAL, unread * (1 - fraction));
    SortedMap<Integer, Double> keptShares = new TreeMap<>(range.shares());
    keptShares.put(i, Math.max(Double.MIN_NORMAL, whole - residualShare));
    SegmentRange primary = new SegmentRange(range.start(), end, kept, keptShares);
    SegmentRange residual =
        new SegmentRange(
            Position.startOf(i),
            end,
            new TreeMap<>(Map.of(i, cut.get().residual())),
            new TreeMap<>(Map.of(i, residualShare)));
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
    double done = range.units(next) - range.units(range.start());
    double left = Math.max(0, range.units(range.end()) - range.units(next));
    return Progress.from(Math.max(0, done), left);
  }

  /**
   * The size of a range in segments, for runners' estimates: a partly read one counts half, a
   * segment cut inside by its share ({@link SegmentRange#share}), so the two parts of a cut segment
   * add up to the one segment they were.
   */
  public static double size(SegmentRange r) {
    return Math.max(0, r.units(r.end()) - r.units(r.start()));
  }
}
