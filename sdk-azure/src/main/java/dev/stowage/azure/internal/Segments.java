package dev.stowage.azure.internal;

import com.azure.data.tables.models.TableEntity;
import dev.stowage.StowageException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * Segmented scans of a table by PartitionKey ranges. Azure Tables can neither count nor sample, so
 * planning probes the key space: starting from the first PartitionKey, it repeatedly splits the
 * gaps between the keys found so far at their midpoint (in printable ASCII) and asks for the first
 * PartitionKey at or after it ({@code $top=1}, PartitionKey only), until it has about four keys per
 * segment or has spent its probe budget; then it takes evenly spaced keys as boundaries. The
 * boundaries spread with the keys' spelling rather than their count, which suits keys with a common
 * prefix and varying tails (ids, numbers, hashes); planning costs about {@code 8 × total + 40}
 * requests at most, whatever the table's size.
 *
 * <p>Segment {@code i} holds the PartitionKeys from boundary {@code i} (inclusive) to boundary
 * {@code i + 1} (exclusive), the first and last unbounded, so a partition is never divided and an
 * item never moves between segments. Stowage's own tables read only item rows (not mirror rows);
 * adopted tables every entity, as {@link Queries#scan} does. An index segment reads the same range
 * and keeps the items in the index ({@link IndexLayout#holds}). Bounds are {@code <lower>~<upper>}
 * with each bound {@code =} and the PartitionKey as URL-safe base64 of its UTF-8 (empty when
 * unbounded); a checkpoint is the last entity read, {@code base64(PartitionKey).base64(RowKey)}; a
 * plan of an empty table gives the first segment the whole key space and the others {@code empty}.
 */
public final class Segments {
  private static final String EMPTY = "empty";
  private static final int MAX_TOP = 1000;
  private static final char FIRST = 0x20;
  private static final char LAST = 0x7e;

  private final Tables tables;
  private final ItemStore store;

  public Segments(Tables tables, ItemStore store) {
    this.tables = tables;
    this.store = store;
  }

  /** Plans {@code total} PartitionKey-range segments. */
  public List<ScanSegment> plan(TableLayout layout, String index, int total) {
    if (total < 1 || total > ScanSegment.MAX_TOTAL) {
      throw new IllegalArgumentException(
          "a plan has 1 to " + ScanSegment.MAX_TOTAL + " segments, not " + total);
    }
    if (index != null) {
      index(layout, index);
    }
    List<ScanSegment> out = new ArrayList<>(total);
    if (total == 1) {
      out.add(new ScanSegment(index, 0, 1, "~"));
      return out;
    }
    List<String> keys = new ArrayList<>(sample(layout, total));
    if (keys.isEmpty()) {
      for (int i = 0; i < total; i++) {
        out.add(new ScanSegment(index, i, total, i == 0 ? "~" : EMPTY));
      }
      return out;
    }
    String lower = "";
    for (int i = 0; i < total; i++) {
      String upper =
          i == total - 1 ? "" : "=" + b64(keys.get((int) ((long) keys.size() * (i + 1) / total)));
      out.add(new ScanSegment(index, i, total, lower + "~" + upper));
      lower = upper;
    }
    return out;
  }

  /**
   * A gap between a PartitionKey found ({@code lo}, exclusive) and a bound (exclusive, or null).
   */
  private record Gap(String lo, String hi) {}

  private TreeSet<String> sample(TableLayout layout, int total) {
    TreeSet<String> found = new TreeSet<>();
    String first = firstAtOrAfter(layout, null, false);
    if (first == null) {
      return found;
    }
    found.add(first);
    int budget = 8 * total + 40;
    int probes = 1;
    List<Gap> gaps = List.of(new Gap(first, layout.adopted() ? null : "l"));
    while (found.size() < 4 * total && !gaps.isEmpty() && probes < budget) {
      List<Gap> next = new ArrayList<>();
      for (Gap g : gaps) {
        if (probes >= budget) {
          break;
        }
        String mid = midpoint(g.lo(), g.hi());
        if (mid.compareTo(g.lo()) <= 0) {
          continue; // too close to split in printable ASCII
        }
        String k = firstAtOrAfter(layout, mid, true);
        probes++;
        if (k != null && (g.hi() == null || k.compareTo(g.hi()) < 0)) {
          found.add(k);
          next.add(new Gap(k, g.hi()));
        }
        // Is there a key between lo and mid at all? Ask once; an empty gap is dropped.
        String after = probes < budget ? firstAtOrAfter(layout, g.lo(), false) : null;
        probes++;
        if (after != null && after.compareTo(mid) < 0) {
          found.add(after);
          next.add(new Gap(after, mid));
        }
      }
      gaps = next;
    }
    return found;
  }

  /**
   * The first PartitionKey at or after ({@code inclusive}) or strictly after {@code from} (null:
   * the first of all), or null if there is none.
   */
  private String firstAtOrAfter(TableLayout layout, String from, boolean inclusive) {
    StringBuilder f = new StringBuilder(base(layout));
    if (from != null) {
      and(f)
          .append("PartitionKey ")
          .append(inclusive ? "ge " : "gt ")
          .append(Filters.literal(from));
    }
    try {
      Iterator<TableEntity> rows =
          Queries.list(tables.data(layout), f.isEmpty() ? null : f.toString(), 1, "PartitionKey");
      return rows.hasNext() ? rows.next().getPartitionKey() : null;
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "sampling the keys of " + layout.ref());
    }
  }

  /**
   * A string between {@code lo} and {@code hi} (null: beyond every key), computed over printable
   * ASCII digits one longer than the longer of the two; characters outside that range count as its
   * ends. Never less than {@code lo} in that digit space; callers check it exceeds {@code lo}.
   */
  static String midpoint(String lo, String hi) {
    int n = Math.max(lo.length(), hi == null ? 0 : hi.length()) + 1;
    int base = LAST - FIRST + 1;
    int[] a = digits(lo, n, 0);
    int[] b = hi == null ? filled(n, base - 1) : digits(hi, n, 0);
    int[] sum = new int[n];
    int carry = 0;
    for (int i = n - 1; i >= 0; i--) {
      int s = a[i] + b[i] + carry;
      sum[i] = s % base;
      carry = s / base;
    }
    // Halve the sum (carry is the top digit).
    StringBuilder out = new StringBuilder(n);
    int rem = carry;
    for (int i = 0; i < n; i++) {
      int cur = rem * base + sum[i];
      out.append((char) (FIRST + cur / 2));
      rem = cur % 2;
    }
    int end = out.length();
    while (end > 0 && out.charAt(end - 1) == FIRST) {
      end--;
    }
    return out.substring(0, end);
  }

  private static int[] digits(String s, int n, int pad) {
    int[] d = new int[n];
    for (int i = 0; i < n; i++) {
      if (i < s.length()) {
        char c = s.charAt(i);
        d[i] = c < FIRST ? 0 : c > LAST ? LAST - FIRST : c - FIRST;
      } else {
        d[i] = pad;
      }
    }
    return d;
  }

  private static int[] filled(int n, int digit) {
    int[] d = new int[n];
    java.util.Arrays.fill(d, digit);
    return d;
  }

  /** Reads the next page of a segment. */
  public SegmentPage scan(TableLayout layout, SegmentScan s) {
    ScanSegment seg = s.segment();
    IndexLayout ix = seg.index() == null ? null : index(layout, seg.index());
    if (seg.bounds().equals(EMPTY)) {
      return SegmentPage.last(List.of());
    }
    String[] bounds = seg.bounds().split("~", -1);
    if (bounds.length != 2) {
      throw new IllegalArgumentException(seg + " was not planned by the Azure Tables driver");
    }
    String lower = bound(bounds[0], seg);
    String upper = bound(bounds[1], seg);
    StringBuilder f = new StringBuilder(base(layout));
    if (lower != null) {
      and(f).append("PartitionKey ge ").append(Filters.literal(lower));
    }
    if (upper != null) {
      and(f).append("PartitionKey lt ").append(Filters.literal(upper));
    }
    if (s.checkpoint() != null) {
      String[] at = s.checkpoint().split("\\.", -1);
      if (at.length != 2) {
        throw new IllegalArgumentException(seg + ": not a checkpoint of the Azure Tables driver");
      }
      String pk = Filters.literal(unb64(at[0], seg));
      String rk = Filters.literal(unb64(at[1], seg));
      and(f)
          .append("(PartitionKey gt ")
          .append(pk)
          .append(" or (PartitionKey eq ")
          .append(pk)
          .append(" and RowKey gt ")
          .append(rk)
          .append("))");
    }
    try {
      Iterator<TableEntity> rows =
          Queries.list(
              tables.data(layout),
              f.isEmpty() ? null : f.toString(),
              Math.min(MAX_TOP, s.limit() + 1));
      List<StoredItem> items = new ArrayList<>();
      TableEntity last = null;
      int read = 0;
      while (read < s.limit() && rows.hasNext()) {
        last = rows.next();
        read++;
        StoredItem item = store.read(layout, last).stored();
        if (ix == null || ix.holds(item.item())) {
          items.add(item);
        }
      }
      if (!rows.hasNext()) {
        return SegmentPage.last(items);
      }
      return new SegmentPage(
          items, b64(last.getPartitionKey()) + "." + b64(last.getRowKey()), false);
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "scanning " + seg + " of " + layout.ref());
    }
  }

  /** Stowage's layout: item rows only (not mirror rows); an adopted table: every entity. */
  private static String base(TableLayout layout) {
    return layout.adopted()
        ? ""
        : "PartitionKey ge 'k' and PartitionKey lt 'l' and RowKey ge 'k' and RowKey lt 'l'";
  }

  private static StringBuilder and(StringBuilder f) {
    return f.isEmpty() ? f : f.append(" and ");
  }

  private static String b64(String s) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A bound: empty for none, else {@code =} and the PartitionKey in base64. */
  private static String bound(String s, ScanSegment seg) {
    if (s.isEmpty()) {
      return null;
    }
    if (s.charAt(0) != '=') {
      throw new IllegalArgumentException(seg + " was not planned by the Azure Tables driver");
    }
    return unb64(s.substring(1), seg);
  }

  private static String unb64(String s, ScanSegment seg) {
    try {
      return new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(seg + ": not a key the Azure Tables driver wrote", e);
    }
  }

  private static IndexLayout index(TableLayout layout, String index) {
    return layout
        .index(index)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "table '" + layout.ref() + "' has no index '" + index + "'"));
  }
}
