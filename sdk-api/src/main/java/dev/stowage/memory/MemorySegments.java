package dev.stowage.memory;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.SegmentSplit;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Segmented scans of the memory driver: key ranges of the table. A plan's boundaries are keys at
 * even steps through the items present when it is made (of the items in the index, for an index
 * plan), so segment {@code i} holds the keys from boundary {@code i} (inclusive) to boundary {@code
 * i + 1} (exclusive), the first and last unbounded. An index segment is the same range of the
 * table, keeping only the items in the index: an item never moves between segments.
 *
 * <p>Bounds are {@code <lower>~<upper>} (or {@code empty} for the segments beyond the first of a
 * plan of an empty table), each the URL-safe base64 of the key's canonical encoding (empty when
 * unbounded); a checkpoint is the last key returned, encoded the same way. A split ({@link #split})
 * counts the keys left after the checkpoint and cuts the range at the one {@code fraction} of the
 * way through them.
 */
final class MemorySegments {
  /** The bounds of a segment that holds nothing. */
  private static final String EMPTY = "empty";

  private MemorySegments() {}

  static List<ScanSegment> plan(MemoryTable t, TableLayout layout, String index, int total) {
    IndexLayout il = index == null ? null : requireIndex(layout, index);
    List<Key> keys = t.keysInOrder(il);
    List<ScanSegment> out = new ArrayList<>(total);
    if (keys.isEmpty()) {
      // Nothing to divide: the first segment takes the whole key space, the others nothing, so
      // items written later still fall into exactly one segment.
      for (int i = 0; i < total; i++) {
        out.add(new ScanSegment(index, i, total, i == 0 ? "~" : EMPTY));
      }
      return out;
    }
    Key lower = null;
    for (int i = 0; i < total; i++) {
      Key upper = i == total - 1 ? null : boundary(keys, i + 1, total);
      // Equal neighbouring boundaries (fewer keys than segments) make empty segments.
      if (upper != null && lower != null && upper.compareTo(lower) < 0) {
        upper = lower;
      }
      out.add(new ScanSegment(index, i, total, encode(lower) + "~" + encode(upper)));
      lower = upper;
    }
    return out;
  }

  /** The key {@code k/total} of the way through {@code keys} (not empty), {@code 0 < k < total}. */
  private static Key boundary(List<Key> keys, int k, int total) {
    return keys.get((int) ((long) keys.size() * k / total));
  }

  static SegmentPage scan(MemoryTable t, TableLayout layout, SegmentScan scan) {
    ScanSegment s = scan.segment();
    IndexLayout il = s.index() == null ? null : requireIndex(layout, s.index());
    if (s.bounds().equals(EMPTY)) {
      return SegmentPage.last(List.of());
    }
    String[] parts = s.bounds().split("~", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(s + " was not planned by the memory driver");
    }
    Key lower = decode(parts[0], s);
    Key upper = decode(parts[1], s);
    Key after = scan.checkpoint() == null ? null : decode(scan.checkpoint(), s);
    if (after != null
        && ((lower != null && after.compareTo(lower) < 0)
            || (upper != null && after.compareTo(upper) >= 0))) {
      throw new IllegalArgumentException("checkpoint " + after + " lies outside " + s);
    }
    MemoryTable.Range r = t.range(lower, upper, after, il, scan.limit());
    if (!r.more()) {
      return SegmentPage.last(r.items());
    }
    return new SegmentPage(r.items(), encode(r.last()), false);
  }

  static Optional<SegmentSplit> split(
      MemoryTable t, TableLayout layout, ScanSegment s, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    IndexLayout il = s.index() == null ? null : requireIndex(layout, s.index());
    if (s.bounds().equals(EMPTY)) {
      return Optional.empty();
    }
    String[] parts = s.bounds().split("~", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(s + " was not planned by the memory driver");
    }
    Key lower = decode(parts[0], s);
    Key upper = decode(parts[1], s);
    Key after = checkpoint == null ? null : decode(checkpoint, s);
    List<Key> left = new ArrayList<>();
    for (Key k : t.keysInOrder(il)) {
      boolean fromOk =
          after != null ? k.compareTo(after) > 0 : lower == null || k.compareTo(lower) >= 0;
      if (fromOk && (upper == null || k.compareTo(upper) < 0)) {
        left.add(k);
      }
    }
    if (left.size() < 2) {
      return Optional.empty();
    }
    // The primary keeps at least one key after the checkpoint, the residual at least one.
    int at = (int) Math.max(1, Math.min(left.size() - 1, Math.round(fraction * left.size())));
    String cut = encode(left.get(at));
    return Optional.of(
        new SegmentSplit(
            new ScanSegment(s.index(), s.number(), s.total(), parts[0] + "~" + cut),
            new ScanSegment(s.index(), s.number(), s.total(), cut + "~" + parts[1])));
  }

  private static IndexLayout requireIndex(TableLayout layout, String index) {
    return layout
        .index(index)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "table '" + layout.ref() + "' has no index '" + index + "'"));
  }

  static String encode(Key k) {
    if (k == null) {
      return "";
    }
    List<AttributeValue> parts = new ArrayList<>(2);
    parts.add(k.partition());
    k.sort().ifPresent(parts::add);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(ValueWire.encode(new AttributeValue.ListValue(parts)));
  }

  private static Key decode(String s, ScanSegment segment) {
    if (s.isEmpty()) {
      return null;
    }
    try {
      AttributeValue v = ValueWire.decode(Base64.getUrlDecoder().decode(s));
      if (v instanceof AttributeValue.ListValue l
          && !l.values().isEmpty()
          && l.values().size() <= 2
          && l.values().stream().allMatch(x -> x instanceof KeyValue)) {
        KeyValue p = (KeyValue) l.values().get(0);
        return l.values().size() == 1 ? Key.of(p) : Key.of(p, (KeyValue) l.values().get(1));
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          segment + ": not a key the memory driver wrote: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(segment + ": not a key the memory driver wrote");
  }
}
