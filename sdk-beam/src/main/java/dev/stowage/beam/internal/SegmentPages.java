package dev.stowage.beam.internal;

import dev.stowage.beam.internal.SegmentRange.Position;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import java.util.List;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;

/** The page loop the splittable segment reads share. */
final class SegmentPages {
  private SegmentPages() {}

  /** Reads one page of a segment, from its start (null) or after a checkpoint. */
  interface Reader {
    SegmentPage read(ScanSegment segment, String checkpoint);
  }

  /** Takes the items of a claimed page. */
  interface Sink {
    void accept(SegmentPage page);
  }

  /**
   * Reads the tracker's range of {@code group} page by page, claiming each page before handing it
   * to {@code sink}; stops at the range's end (which a split may move) or at a refused claim. Each
   * page is read with the segment the range holds at that place (a split may narrow it; a page read
   * just before is read again, see {@link PageClaim}).
   *
   * @return whether the range ended before the group's end: a part was split off it
   */
  static boolean read(
      List<ScanSegment> group,
      RestrictionTracker<SegmentRange, PageClaim> tracker,
      Reader reader,
      Sink sink) {
    Position at = tracker.currentRestriction().start();
    while (!tracker.currentRestriction().exhaustedAt(at) && at.segment() < group.size()) {
      ScanSegment segment = tracker.currentRestriction().segment(at.segment(), group);
      SegmentPage page = reader.read(segment, at.checkpoint());
      Position to =
          page.done()
              ? Position.startOf(at.segment() + 1)
              : new Position(at.segment(), page.checkpoint());
      PageClaim claim = new PageClaim(at, to, segment);
      if (!tracker.tryClaim(claim)) {
        break;
      }
      if (claim.reread()) {
        continue; // a split narrowed the segment while the page was read: read it again
      }
      sink.accept(page);
      at = to;
    }
    SegmentRange r = tracker.currentRestriction();
    return !r.end().equals(Position.startOf(group.size())) || !r.narrowed().isEmpty();
  }
}
