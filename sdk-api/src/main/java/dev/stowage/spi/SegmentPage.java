package dev.stowage.spi;

import java.util.List;

/**
 * One page of a {@linkplain ScanSegment segment} (see {@link StorageDriver#scanSegment}).
 *
 * @param items the items of the page; may be empty even when the segment is not finished (a backend
 *     that stopped reading after a size or time budget)
 * @param checkpoint resumes the segment after this page ({@link SegmentScan#checkpoint()}):
 *     printable ASCII without line breaks, opaque to the caller; null exactly when {@code done}
 * @param done true once the segment has nothing after this page
 */
public record SegmentPage(List<StoredItem> items, String checkpoint, boolean done) {
  public SegmentPage {
    items = List.copyOf(items);
    if (done != (checkpoint == null)) {
      throw new IllegalArgumentException("a page has a checkpoint exactly when more may follow");
    }
    if (checkpoint != null) {
      for (int i = 0; i < checkpoint.length(); i++) {
        char c = checkpoint.charAt(i);
        if (c < 0x20 || c > 0x7e) {
          throw new IllegalArgumentException("segment checkpoints must be printable ASCII");
        }
      }
    }
  }

  /** The last page of a segment. */
  public static SegmentPage last(List<StoredItem> items) {
    return new SegmentPage(items, null, true);
  }
}
