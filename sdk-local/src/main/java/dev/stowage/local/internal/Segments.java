package dev.stowage.local.internal;

import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.SegmentSplit;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Segmented scans as key ranges of the table, as the memory driver makes them: a plan's boundaries
 * are keys at even steps through the items present when it is made (the items in the index, for an
 * index plan), segment {@code i} holds the keys from boundary {@code i} (inclusive) to boundary
 * {@code i + 1} (exclusive), the first and last unbounded. An index segment is the same range of
 * the table keeping only the items in the index, so an item never moves between segments.
 *
 * <p>Bounds are {@code <lower>~<upper>} ({@code empty} for the segments beyond the first of a plan
 * of an empty table); a key is the URL-safe base64 of its partition bytes and of its sort bytes
 * ({@link KeyBytes}) joined by {@code .}, empty when unbounded. A checkpoint is the last key
 * returned, written the same way. A split counts the keys left after the checkpoint (in SQL, or row
 * by row for an index segment) and cuts the range at the one {@code fraction} of the way through
 * them. Stateless.
 */
final class Segments {
  private static final String EMPTY = "empty";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder UNB64 = Base64.getUrlDecoder();

  /** A key as the bytes of its partition and sort values. */
  record KeyPos(byte[] pk, byte[] sk) {
    int compareTo(KeyPos o) {
      int c = Arrays.compareUnsigned(pk, o.pk);
      return c != 0 ? c : Arrays.compareUnsigned(sk, o.sk);
    }
  }

  private Segments() {}

  static List<ScanSegment> plan(
      Connection c, long table, TableLayout layout, String index, int total) throws SQLException {
    IndexLayout il = index == null ? null : requireIndex(layout, index);
    List<KeyPos> keys = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            il == null
                ? "SELECT pk, sk FROM stowage_items WHERE tbl = ? ORDER BY pk, sk"
                : "SELECT pk, sk, token, item FROM stowage_items WHERE tbl = ? ORDER BY pk, sk")) {
      s.setLong(1, table);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          if (il == null || inIndex(il, r.getLong(3), r.getBytes(4))) {
            keys.add(new KeyPos(r.getBytes(1), r.getBytes(2)));
          }
        }
      }
    }
    List<ScanSegment> out = new ArrayList<>(total);
    if (keys.isEmpty()) {
      // Nothing to divide: the first segment takes the whole key space, the others nothing, so
      // items written later still fall into exactly one segment.
      for (int i = 0; i < total; i++) {
        out.add(new ScanSegment(index, i, total, i == 0 ? "~" : EMPTY));
      }
      return out;
    }
    KeyPos lower = null;
    for (int i = 0; i < total; i++) {
      KeyPos upper = i == total - 1 ? null : keys.get((int) ((long) keys.size() * (i + 1) / total));
      out.add(new ScanSegment(index, i, total, encode(lower) + "~" + encode(upper)));
      lower = upper;
    }
    return out;
  }

  static SegmentPage scan(Connection c, long table, TableLayout layout, SegmentScan scan)
      throws SQLException {
    ScanSegment seg = scan.segment();
    IndexLayout il = seg.index() == null ? null : requireIndex(layout, seg.index());
    if (seg.bounds().equals(EMPTY)) {
      return SegmentPage.last(List.of());
    }
    String[] parts = seg.bounds().split("~", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(seg + " was not planned by the local store");
    }
    KeyPos lower = decode(parts[0], seg);
    KeyPos upper = decode(parts[1], seg);
    KeyPos after = scan.checkpoint() == null ? null : decode(scan.checkpoint(), seg);
    if (after != null
        && ((lower != null && after.compareTo(lower) < 0)
            || (upper != null && after.compareTo(upper) >= 0))) {
      throw new IllegalArgumentException("the checkpoint lies outside " + seg);
    }
    StringBuilder sql =
        new StringBuilder("SELECT pk, sk, token, item FROM stowage_items WHERE tbl = ?");
    List<byte[]> args = new ArrayList<>();
    if (after != null) {
      sql.append(" AND (pk, sk) > (?, ?)");
      args.add(after.pk());
      args.add(after.sk());
    } else if (lower != null) {
      sql.append(" AND (pk, sk) >= (?, ?)");
      args.add(lower.pk());
      args.add(lower.sk());
    }
    if (upper != null) {
      sql.append(" AND (pk, sk) < (?, ?)");
      args.add(upper.pk());
      args.add(upper.sk());
    }
    sql.append(" ORDER BY pk, sk");
    if (il == null) {
      sql.append(" LIMIT ").append(scan.limit() + 1);
    }
    List<StoredItem> out = new ArrayList<>();
    KeyPos last = null;
    try (PreparedStatement s = c.prepareStatement(sql.toString())) {
      s.setLong(1, table);
      for (int k = 0; k < args.size(); k++) {
        s.setBytes(2 + k, args.get(k));
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          StoredItem item = ItemRows.decode(r.getLong(3), r.getBytes(4));
          if (il != null && ItemRows.placement(il, item.item()) == null) {
            continue;
          }
          if (out.size() == scan.limit()) {
            return new SegmentPage(out, encode(last), false);
          }
          out.add(item);
          last = new KeyPos(r.getBytes(1), r.getBytes(2));
        }
      }
    }
    return SegmentPage.last(out);
  }

  static Optional<SegmentSplit> split(
      Connection c,
      long table,
      TableLayout layout,
      ScanSegment seg,
      String checkpoint,
      double fraction)
      throws SQLException {
    StorageDriver.requireSplitFraction(fraction);
    IndexLayout il = seg.index() == null ? null : requireIndex(layout, seg.index());
    if (seg.bounds().equals(EMPTY)) {
      return Optional.empty();
    }
    String[] parts = seg.bounds().split("~", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(seg + " was not planned by the local store");
    }
    KeyPos lower = decode(parts[0], seg);
    KeyPos upper = decode(parts[1], seg);
    KeyPos after = checkpoint == null ? null : decode(checkpoint, seg);
    StringBuilder where = new StringBuilder(" FROM stowage_items WHERE tbl = ?");
    List<byte[]> args = new ArrayList<>();
    if (after != null) {
      where.append(" AND (pk, sk) > (?, ?)");
      args.add(after.pk());
      args.add(after.sk());
    } else if (lower != null) {
      where.append(" AND (pk, sk) >= (?, ?)");
      args.add(lower.pk());
      args.add(lower.sk());
    }
    if (upper != null) {
      where.append(" AND (pk, sk) < (?, ?)");
      args.add(upper.pk());
      args.add(upper.sk());
    }
    KeyPos cut;
    if (il == null) {
      long n;
      try (PreparedStatement s = bind(c, "SELECT COUNT(*)" + where, table, args);
          ResultSet r = s.executeQuery()) {
        r.next();
        n = r.getLong(1);
      }
      if (n < 2) {
        return Optional.empty();
      }
      try (PreparedStatement s =
              bind(
                  c,
                  "SELECT pk, sk" + where + " ORDER BY pk, sk LIMIT 1 OFFSET " + cutAt(n, fraction),
                  table,
                  args);
          ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        cut = new KeyPos(r.getBytes(1), r.getBytes(2));
      }
    } else {
      List<KeyPos> keys = new ArrayList<>();
      try (PreparedStatement s =
              bind(c, "SELECT pk, sk, token, item" + where + " ORDER BY pk, sk", table, args);
          ResultSet r = s.executeQuery()) {
        while (r.next()) {
          if (inIndex(il, r.getLong(3), r.getBytes(4))) {
            keys.add(new KeyPos(r.getBytes(1), r.getBytes(2)));
          }
        }
      }
      if (keys.size() < 2) {
        return Optional.empty();
      }
      cut = keys.get((int) cutAt(keys.size(), fraction));
    }
    String at = encode(cut);
    return Optional.of(
        new SegmentSplit(
            new ScanSegment(seg.index(), seg.number(), seg.total(), parts[0] + "~" + at),
            new ScanSegment(seg.index(), seg.number(), seg.total(), at + "~" + parts[1])));
  }

  /** Where to cut {@code n >= 2} keys: each side keeps at least one. */
  private static long cutAt(long n, double fraction) {
    return Math.max(1, Math.min(n - 1, Math.round(fraction * n)));
  }

  private static PreparedStatement bind(Connection c, String sql, long table, List<byte[]> args)
      throws SQLException {
    PreparedStatement s = c.prepareStatement(sql);
    s.setLong(1, table);
    for (int k = 0; k < args.size(); k++) {
      s.setBytes(2 + k, args.get(k));
    }
    return s;
  }

  private static boolean inIndex(IndexLayout il, long token, byte[] item) {
    return ItemRows.placement(il, ItemRows.decode(token, item).item()) != null;
  }

  private static IndexLayout requireIndex(TableLayout layout, String index) {
    return layout
        .index(index)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "table '" + layout.ref() + "' has no index '" + index + "'"));
  }

  private static String encode(KeyPos k) {
    return k == null ? "" : B64.encodeToString(k.pk()) + "." + B64.encodeToString(k.sk());
  }

  private static KeyPos decode(String s, ScanSegment segment) {
    if (s.isEmpty()) {
      return null;
    }
    int dot = s.indexOf('.');
    try {
      if (dot >= 0 && s.indexOf('.', dot + 1) < 0) {
        return new KeyPos(UNB64.decode(s.substring(0, dot)), UNB64.decode(s.substring(dot + 1)));
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          segment + ": not a key the local store wrote: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(segment + ": not a key the local store wrote");
  }
}
