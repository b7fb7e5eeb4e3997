package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.StowageException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.SegmentSplit;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Segmented scans of a table by PartitionKey ranges. A table of at most {@value #PLAN_ROWS} rows is
 * planned by count: one listing of PartitionKeys ({@code $top=1000}, PartitionKey only) reads them
 * all, and each cut goes at the start of the partition nearest its share of the rows, so the
 * segments hold about equal numbers of rows in a few requests (on Azurite, whose every query
 * filters and sorts the whole table, far cheaper than the probes below). A larger table is planned
 * by probing, as Azure Tables can neither count nor sample: starting from the first PartitionKey,
 * it repeatedly splits the gaps between the keys found so far at their midpoint (in printable
 * ASCII) and asks for the first PartitionKey at or after it ({@code $top=1}, PartitionKey only),
 * until it has about four keys per segment or has spent its probe budget; then it takes evenly
 * spaced keys as boundaries. The boundaries spread with the keys' spelling rather than their count,
 * which suits keys with a common prefix and varying tails (ids, numbers, hashes); planning costs
 * about {@code 8 × total + 40} requests at most, whatever the table's size (after the listings that
 * found it larger).
 *
 * <p>Segment {@code i} holds the PartitionKeys from boundary {@code i} (inclusive) to boundary
 * {@code i + 1} (exclusive), the first and last unbounded, so a partition is never divided and an
 * item never moves between segments. Stowage's own tables read only item rows (not mirror rows);
 * adopted tables every entity, as {@link Queries#scan} does. An index segment reads the same range
 * and keeps the items in the index ({@link IndexLayout#holds}). Bounds are {@code <lower>~<upper>}
 * with each bound {@code =} and the PartitionKey as URL-safe base64 of its UTF-8 (empty when
 * unbounded); a checkpoint is the last entity read, {@code base64(PartitionKey).base64(RowKey)}; a
 * plan of an empty table gives the first segment the whole key space and the others {@code empty}.
 *
 * <p>A split of a segment's unread part cuts at the start of a partition after the checkpoint's (a
 * partition stays whole): it reads the PartitionKeys of the rows left (up to {@value #SPLIT_ROWS}
 * rows) and cuts at the partition that starts nearest {@code fraction} of them; a longer remainder
 * is cut at the fraction of the PartitionKeys the planning probe finds in it.
 */
public final class Segments {
  /** Most rows a split reads to place its cut by count. */
  static final int SPLIT_ROWS = 10_000;

  /** PartitionKeys a split of a long remainder probes for. */
  private static final int SPLIT_SAMPLE = 64;

  private static final String EMPTY = "empty";
  private static final int MAX_TOP = 1000;
  private static final char FIRST = 0x20;
  private static final char LAST = 0x7e;

  /** Most rows a plan reads the PartitionKeys of to place its cuts by count. */
  public static final int PLAN_ROWS = 10_000;

  private final Tables tables;
  private final int planRows;

  public Segments(Tables tables) {
    this(tables, PLAN_ROWS);
  }

  /**
   * With plans counting the rows of tables of at most {@code planRows} rows (tests and benchmarks:
   * fewer; 0: every plan probes).
   */
  public Segments(Tables tables, int planRows) {
    this.tables = tables;
    this.planRows = planRows;
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
    Optional<List<String>> counted = countedCuts(layout, total);
    if (counted.isPresent()) {
      return fromCuts(index, total, counted.get());
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
   * For a table of at most {@code planRows} rows: the PartitionKeys to cut it at, placed by count
   * (each cut at the start of the partition nearest {@code i / total} of the rows, after the first
   * partition; ascending, without repeats, at most {@code total - 1}; empty for an empty table or a
   * single partition), read in {@code planRows / 1000 + 1} listings of PartitionKeys at most. Empty
   * for a larger table, whose plan probes the key space instead.
   */
  private Optional<List<String>> countedCuts(TableLayout layout, int total) {
    if (planRows == 0) {
      return Optional.empty();
    }
    List<String> starts = new ArrayList<>();
    List<Integer> startRows = new ArrayList<>();
    String previous = null;
    int rows = 0;
    String f = base(layout);
    try {
      Iterator<TableEntity> it =
          Queries.list(tables.data(layout), f.isEmpty() ? null : f, MAX_TOP, "PartitionKey");
      while (it.hasNext()) {
        if (rows == planRows) {
          return Optional.empty();
        }
        String pk = it.next().getPartitionKey();
        if (previous != null && !pk.equals(previous)) {
          starts.add(pk);
          startRows.add(rows);
        }
        previous = pk;
        rows++;
      }
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "counting the rows of " + layout.ref());
    }
    List<String> cuts = new ArrayList<>();
    int at = 0;
    for (int i = 1; i < total && !starts.isEmpty(); i++) {
      double target = (double) rows * i / total;
      while (at + 1 < starts.size()
          && Math.abs(startRows.get(at + 1) - target) <= Math.abs(startRows.get(at) - target)) {
        at++;
      }
      String cut = starts.get(at);
      if (cuts.isEmpty() || !cuts.get(cuts.size() - 1).equals(cut)) {
        cuts.add(cut);
      }
    }
    return Optional.of(cuts);
  }

  /**
   * A plan of {@code total} segments from ascending cuts: one segment per range between them (the
   * first and last unbounded), then empty segments; an empty table's plan as {@link #plan} makes
   * it.
   */
  private static List<ScanSegment> fromCuts(String index, int total, List<String> cuts) {
    List<ScanSegment> out = new ArrayList<>(total);
    String lower = "";
    for (int i = 0; i < total; i++) {
      if (i > cuts.size()) {
        out.add(new ScanSegment(index, i, total, EMPTY));
        continue;
      }
      String upper = i == cuts.size() ? "" : "=" + b64(cuts.get(i));
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
    String first = firstAtOrAfter(layout, null, false);
    if (first == null) {
      return new TreeSet<>();
    }
    return sample(layout, first, layout.adopted() ? null : "l", 4 * total);
  }

  /**
   * About {@code wanted} PartitionKeys from {@code first} (a PartitionKey found, included) to
   * {@code hi} (exclusive; null: beyond every key), in at most {@code 2 × wanted + 40} probes.
   */
  private TreeSet<String> sample(TableLayout layout, String first, String hi, int wanted) {
    TreeSet<String> found = new TreeSet<>();
    found.add(first);
    int budget = 2 * wanted + 40;
    int probes = 1;
    List<Gap> gaps = List.of(new Gap(first, hi));
    while (found.size() < wanted && !gaps.isEmpty() && probes < budget) {
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
    StringBuilder f = filter(layout, seg, bounds, s.checkpoint());
    // Each Azure page asks for no more entities than the page still needs ($top), and the next
    // Azure page continues from the last one's token, so no entity is read to be dropped and read
    // again by the next page. Whether more follow is Azure's to say: no continuation token means
    // nothing does. A full page with a token says more may follow (the contract allows the next
    // page to turn out empty) rather than paying a look-ahead for every full page.
    try {
      TableClient client = tables.data(layout);
      String filter = f.isEmpty() ? null : f.toString();
      List<StoredItem> items = new ArrayList<>();
      TableEntity last = null;
      int read = 0;
      boolean more;
      String token = null;
      do {
        Queries.EntityPage page = Queries.page(client, filter, s.limit() - read, token);
        Iterator<TableEntity> rows = page.entities().iterator();
        while (read < s.limit() && rows.hasNext()) {
          last = rows.next();
          read++;
          // Decoded without remembering a write template: a segment scan reads items in bulk
          // for copies, checks and sweeps, whose writes back (if any) read the item first, so
          // remembering would only take the templates' lock once per entity on every reader.
          StoredItem item = ItemStore.row(layout, last).stored();
          if (ix == null || ix.holds(item.item())) {
            items.add(item);
          }
        }
        token = page.continuation();
        // Entities past the limit (a service answering more than $top) are read again next page.
        more = rows.hasNext() || token != null;
      } while (read < s.limit() && token != null);
      if (!more) {
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

  /** The rows of a segment after a checkpoint (null: all of them). */
  private static StringBuilder filter(
      TableLayout layout, ScanSegment seg, String[] bounds, String checkpoint) {
    String lower = bound(bounds[0], seg);
    String upper = bound(bounds[1], seg);
    StringBuilder f = new StringBuilder(base(layout));
    if (lower != null) {
      and(f).append("PartitionKey ge ").append(Filters.literal(lower));
    }
    if (upper != null) {
      and(f).append("PartitionKey lt ").append(Filters.literal(upper));
    }
    if (checkpoint != null) {
      String[] at = checkpoint.split("\\.", -1);
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
    return f;
  }

  /** Splits the unread part of a segment at the start of a partition. */
  public Optional<SegmentSplit> split(
      TableLayout layout, ScanSegment seg, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    if (seg.index() != null) {
      index(layout, seg.index());
    }
    if (seg.bounds().equals(EMPTY)) {
      return Optional.empty();
    }
    String[] bounds = seg.bounds().split("~", -1);
    if (bounds.length != 2) {
      throw new IllegalArgumentException(seg + " was not planned by the Azure Tables driver");
    }
    StringBuilder f = filter(layout, seg, bounds, checkpoint);
    // The PartitionKey of each row left, in order, and where each partition after the first starts.
    List<String> starts = new ArrayList<>();
    List<Integer> startRows = new ArrayList<>();
    String first = null;
    String previous = null;
    int rows = 0;
    try {
      Iterator<TableEntity> it =
          Queries.list(
              tables.data(layout), f.isEmpty() ? null : f.toString(), MAX_TOP, "PartitionKey");
      while (rows < SPLIT_ROWS && it.hasNext()) {
        String pk = it.next().getPartitionKey();
        if (first == null) {
          first = pk;
        } else if (!pk.equals(previous)) {
          starts.add(pk);
          startRows.add(rows);
        }
        previous = pk;
        rows++;
      }
      if (first != null && rows == SPLIT_ROWS && it.hasNext()) {
        // A long remainder: cut among the PartitionKeys a probe finds in it instead.
        String upper = bound(bounds[1], seg);
        String hi = upper != null ? upper : layout.adopted() ? null : "l";
        List<String> sampled = new ArrayList<>(sample(layout, first, hi, SPLIT_SAMPLE));
        if (sampled.size() >= 2) {
          int at =
              (int)
                  Math.max(1, Math.min(sampled.size() - 1, Math.round(fraction * sampled.size())));
          return Optional.of(cut(seg, bounds, sampled.get(at)));
        }
      }
    } catch (StowageException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "splitting " + seg + " of " + layout.ref());
    }
    if (starts.isEmpty()) {
      return Optional.empty(); // one partition left: partitions are never divided
    }
    // The partition starting nearest the fraction of the rows left.
    double target = fraction * rows;
    int best = 0;
    for (int i = 1; i < starts.size(); i++) {
      if (Math.abs(startRows.get(i) - target) < Math.abs(startRows.get(best) - target)) {
        best = i;
      }
    }
    return Optional.of(cut(seg, bounds, starts.get(best)));
  }

  private static SegmentSplit cut(ScanSegment seg, String[] bounds, String partitionKey) {
    String at = "=" + b64(partitionKey);
    return new SegmentSplit(
        new ScanSegment(seg.index(), seg.number(), seg.total(), bounds[0] + "~" + at),
        new ScanSegment(seg.index(), seg.number(), seg.total(), at + "~" + bounds[1]));
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
