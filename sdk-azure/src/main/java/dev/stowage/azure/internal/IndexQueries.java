package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Index queries of the Azure driver ({@link Queries} takes primary queries and scans).
 *
 * <p>An index query reads the index rows of its range (forward rows, or reverse rows when
 * descending on a table that keeps them) in order and verifies each hit with a point read of the
 * item, in parallel: a hit counts only if the item's nonce and synthesized values match the entry;
 * otherwise the entry is garbage, skipped and deleted (read repair). Descending index queries on
 * tables whose entries keep no reverse rows ({@link Tables#reverseRows}) read the forward rows of
 * the range ascending up to the page's start, keeping the last {@code limit + 1}, as descending
 * primary queries without mirror rows do (see {@link #indexDescendingByKeys}).
 */
final class IndexQueries {
  private static final int MAX_TOP = 1000;

  private final Tables tables;
  private final IndexEntries index;
  private final Queries queries;
  private final java.time.Clock clock;

  /**
   * @param queries the point reads of the items hits name, and the once-per-table notice of
   *     descending queries without reverse rows
   * @param clock tells the age of entries for read repair (see {@link Queries#REPAIR_GRACE})
   */
  IndexQueries(Tables tables, IndexEntries index, Queries queries, java.time.Clock clock) {
    this.tables = tables;
    this.index = index;
    this.queries = queries;
    this.clock = clock;
  }

  /**
   * An index query. Rows come in composite order, which is (index sort, key) order except within a
   * run of cut key parts (see {@link AzureKeys#storedKeyPart}), whose entries follow each other in
   * nonce order: a run is read whole and sorted by key, and a query resuming inside a run reads the
   * run again and skips the keys up to its position. Runs exist only where items with long keys
   * share an index sort value and the first hundred or more characters of their key parts.
   */
  QueryResult query(TableLayout layout, IndexLayout il, DriverQuery q) {
    if (!(q.partition() instanceof AttributeValue.BinaryValue bp)) {
      throw new InvalidRequestException("index query partitions are binary synthesized values");
    }
    Bytes partition = bp.value();
    if (q.descending() && !tables.reverseRows(layout)) {
      return indexDescendingByKeys(layout, il, partition, q);
    }
    String pk = AzureKeys.indexPartitionKey(il.name(), partition);
    TableClient client = tables.index(layout);
    Comparator<Key> keyOrder =
        q.descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
    Deque<Parsed> pending = new ArrayDeque<>();
    String start = resumeAt(layout, il, client, pk, q, keyOrder, pending);
    RowRange range = RowRange.index(q.range(), start, q.descending());
    List<StoredItem> items = new ArrayList<>();
    List<IndexEntries.Entry> garbage = new ArrayList<>();
    // Each Azure page asks for the entries the page still lacks and one more, its look-ahead;
    // entries beyond garbage are asked for as the page needs them. A run is read whole, however
    // few entries the page lacks, so the rest of one asks for as many as a page holds.
    boolean[] inRun = {false};
    PeekingRows rows =
        new PeekingRows(
            Queries.reading(
                client,
                range.filter(pk),
                () -> inRun[0] ? q.limit() + 1 : q.limit() - items.size() - pending.size() + 1));
    while (items.size() < q.limit() && (!pending.isEmpty() || rows.hasNext())) {
      while (pending.size() < q.limit() - items.size() && rows.hasNext()) {
        Parsed e = parse(layout, il, pk, rows.next(), q.descending());
        if (e.entry().run() == null) {
          pending.add(e);
          continue;
        }
        List<Parsed> run = new ArrayList<>(List.of(e));
        inRun[0] = true;
        while (rows.hasNext() && e.entry().run().equals(runOf(rows.peek(), q.descending()))) {
          run.add(parse(layout, il, pk, rows.next(), q.descending()));
        }
        inRun[0] = false;
        run.sort(Comparator.comparing(x -> x.entry().key(), keyOrder));
        pending.addAll(run);
      }
      readPendingItems(layout, il, partition, pending, q.limit(), items, garbage);
    }
    if (!garbage.isEmpty()) {
      index.deleteQuietly(layout, garbage);
    }
    return new QueryResult(items, !pending.isEmpty() || rows.hasNext());
  }

  /**
   * Where an index page resumes: the entry prefix of the query's exclusive start (null for a first
   * page). A start inside a run of cut key parts also puts the rest of that run, in {@code
   * keyOrder}, into {@code pending}, for the page to take before what lies beyond the run.
   */
  private String resumeAt(
      TableLayout layout,
      IndexLayout il,
      TableClient client,
      String pk,
      DriverQuery q,
      Comparator<Key> keyOrder,
      Deque<Parsed> pending) {
    Position from = q.exclusiveStart();
    if (from == null) {
      return null;
    }
    if (!(from.indexSort() instanceof AttributeValue.BinaryValue fromSort)) {
      throw new InvalidRequestException("an index query position needs the index sort value");
    }
    String start = AzureKeys.entryPrefix(fromSort.value(), from.key());
    if (AzureKeys.keyPartCut(start + KeyCodec.SEP)) {
      for (Parsed e : run(layout, il, client, pk, start, keyOrder)) {
        if (keyOrder.compare(e.entry().key(), from.key()) > 0) {
          pending.add(e);
        }
      }
    }
    return start;
  }

  /**
   * Takes pending entries from the head of {@code pending} until {@code items} would hold {@code
   * limit}, reads their items in one go (a range read per item partition where several share one)
   * and adds each item whose entry still matches it; an entry whose item is gone or no longer
   * carries it goes to {@code garbage}, for the caller to delete, unless its write may still land
   * ({@link IndexEntries#isGarbage}).
   */
  private void readPendingItems(
      TableLayout layout,
      IndexLayout il,
      Bytes partition,
      Deque<Parsed> pending,
      int limit,
      List<StoredItem> items,
      List<IndexEntries.Entry> garbage) {
    List<Parsed> chunk = new ArrayList<>();
    while (!pending.isEmpty() && chunk.size() < limit - items.size()) {
      chunk.add(pending.poll());
    }
    // The hits of one item partition are read together (one range read between the lowest and
    // highest, see BatchReads), so a page costs about one request per partition its hits fall in
    // rather than one per hit.
    Map<Key, Row> found =
        queries.batchReads().rows(layout, chunk.stream().map(x -> x.entry().key()).toList());
    for (Parsed p : chunk) {
      Row row = found.get(p.entry().key());
      if (IndexEntries.matches(il, partition, p.entry(), row)) {
        items.add(row.stored());
      } else if (IndexEntries.isGarbage(p.raw(), row) || abandoned(p)) {
        garbage.add(p.raw());
      }
      // Otherwise the entry's write may still land its item: skipped, and left to it.
    }
  }

  /**
   * Whether an entry was written longer than {@link Queries#REPAIR_GRACE} ago (by its Timestamp).
   */
  private boolean abandoned(Parsed p) {
    return p.written() != null
        && p.written().toInstant().isBefore(clock.instant().minus(Queries.REPAIR_GRACE));
  }

  /**
   * A descending index page on a table whose entries keep no reverse rows, with the same entries,
   * order and read repair as {@link #query} on reverse rows: the forward rows of the range below
   * the page's start are read ascending (1000 per request), keeping the last {@code limit + 1} (and
   * whole runs of cut key parts, which are sorted by key); their items are read and verified as on
   * reverse rows. Should entries turn out to be garbage, the rows below the lowest one kept are
   * read again in the same way until the page is full or the range exhausted. A page filled by the
   * rest of the run it resumes in reads no window; one RowKey below the run then says whether more
   * follow. Cost, as for descending primary pages without mirror rows: every entry between the
   * range's lower end and the page's start, per page.
   */
  private QueryResult indexDescendingByKeys(
      TableLayout layout, IndexLayout il, Bytes partition, DriverQuery q) {
    queries.tellAboutDescending(layout);
    String pk = AzureKeys.indexPartitionKey(il.name(), partition);
    TableClient client = tables.index(layout);
    Comparator<Key> keyOrder = Comparator.reverseOrder();
    Deque<Parsed> pending = new ArrayDeque<>();
    String upper = resumeAt(layout, il, client, pk, q, keyOrder, pending);
    // Rows may lie below upper until a window read says otherwise.
    boolean below = true;
    boolean windowRead = false;
    List<StoredItem> items = new ArrayList<>();
    List<IndexEntries.Entry> garbage = new ArrayList<>();
    while (items.size() < q.limit() && (!pending.isEmpty() || below)) {
      if (pending.isEmpty()) {
        windowRead = true;
        List<TableEntity> window = new ArrayList<>();
        below =
            lastIndexRows(
                client,
                RowRange.indexBelow(q.range(), upper).filter(pk),
                q.limit() - items.size() + 1,
                window);
        if (window.isEmpty()) {
          break;
        }
        // Descending: the window from its top, each run sorted by key.
        for (int i = window.size() - 1; i >= 0; ) {
          Parsed e = parse(layout, il, pk, window.get(i--), false);
          if (e.entry().run() == null) {
            pending.add(e);
            continue;
          }
          List<Parsed> run = new ArrayList<>(List.of(e));
          while (i >= 0 && e.entry().run().equals(runOf(window.get(i), false))) {
            run.add(parse(layout, il, pk, window.get(i--), false));
          }
          run.sort(Comparator.comparing(x -> x.entry().key(), keyOrder));
          pending.addAll(run);
        }
        TableEntity lowest = window.get(0);
        String lowestRun = runOf(lowest, false);
        upper = lowestRun != null ? lowestRun : composite(lowest, false);
      }
      readPendingItems(layout, il, partition, pending, q.limit(), items, garbage);
    }
    if (pending.isEmpty() && !windowRead) {
      // The page was the rest of the run it resumed in, exactly: whether more follow depends on
      // the rows below that run, and the first of them is enough to tell.
      below = anyRow(client, RowRange.indexBelow(q.range(), upper).filter(pk));
    }
    if (!garbage.isEmpty()) {
      index.deleteQuietly(layout, garbage);
    }
    return new QueryResult(items, !pending.isEmpty() || below);
  }

  /** True if a row matches {@code filter}: one request for at most one RowKey. */
  private static boolean anyRow(TableClient client, String filter) {
    return Queries.list(client, filter, 1, "RowKey").hasNext();
  }

  /**
   * Reads the forward index rows matching {@code filter} ascending and puts the last {@code keep}
   * into {@code window}, ascending, together with the rest of a run the lowest of them belongs to
   * (a run's rows are adjacent, and it is read whole). Returns true if rows below the window were
   * left out.
   */
  private static boolean lastIndexRows(
      TableClient client, String filter, int keep, List<TableEntity> window) {
    Iterator<TableEntity> rows = Queries.list(client, filter, MAX_TOP);
    ArrayDeque<TableEntity> last = new ArrayDeque<>();
    boolean dropped = false;
    while (rows.hasNext()) {
      last.addLast(rows.next());
      while (last.size() > keep) {
        // The lowest row, with the rest of its run: dropped only together, and only if the
        // window stays full without them.
        Iterator<TableEntity> it = last.iterator();
        String run = runOf(it.next(), false);
        int group = 1;
        while (run != null && it.hasNext() && run.equals(runOf(it.next(), false))) {
          group++;
        }
        if (last.size() - group < keep) {
          break;
        }
        for (int i = 0; i < group; i++) {
          last.removeFirst();
        }
        dropped = true;
      }
    }
    window.addAll(last);
    return dropped;
  }

  /**
   * An index row parsed, with the entry it belongs to and when the service wrote it (null if the
   * listing did not say).
   */
  private record Parsed(
      AzureKeys.IndexEntry entry, IndexEntries.Entry raw, java.time.OffsetDateTime written) {}

  private static Parsed parse(
      TableLayout layout, IndexLayout il, String pk, TableEntity row, boolean reverse) {
    String composite = composite(row, reverse);
    Object keyPart = row.getProperty(IndexEntries.KEY_PART);
    String k = keyPart instanceof String str ? str : null;
    Object replaces = row.getProperty(IndexEntries.REPLACES);
    AzureKeys.IndexEntry e = AzureKeys.parseComposite(layout.keySchema(), composite, k);
    return new Parsed(
        e,
        new IndexEntries.Entry(
            il.name(),
            pk,
            composite,
            e.run() == null ? null : k,
            replaces instanceof String r ? r : null),
        row.getTimestamp());
  }

  private static String composite(TableEntity row, boolean reverse) {
    String rk = row.getRowKey();
    return reverse ? KeyCodec.unreverse(rk.substring(1)) : rk.substring(1);
  }

  /** The run a row belongs to (its composite without the nonce) if its key part is cut. */
  private static String runOf(TableEntity row, boolean reverse) {
    String c = composite(row, reverse);
    return AzureKeys.keyPartCut(c) ? c.substring(0, c.lastIndexOf(KeyCodec.SEP)) : null;
  }

  /** Every entry of a run, sorted by key in {@code keyOrder}. */
  private static List<Parsed> run(
      TableLayout layout,
      IndexLayout il,
      TableClient client,
      String pk,
      String run,
      Comparator<Key> keyOrder) {
    List<Parsed> out = new ArrayList<>();
    Iterator<TableEntity> rows = Queries.list(client, RowRange.run(run).filter(pk), MAX_TOP);
    while (rows.hasNext()) {
      out.add(parse(layout, il, pk, rows.next(), false));
    }
    out.sort(Comparator.comparing(x -> x.entry().key(), keyOrder));
    return out;
  }

  /** Rows with a look at the next one. */
  private static final class PeekingRows {
    private final Iterator<TableEntity> it;
    private TableEntity next;

    PeekingRows(Iterator<TableEntity> it) {
      this.it = it;
    }

    boolean hasNext() {
      return next != null || it.hasNext();
    }

    TableEntity peek() {
      if (next == null) {
        next = it.next();
      }
      return next;
    }

    TableEntity next() {
      TableEntity n = peek();
      next = null;
      return n;
    }
  }
}
