package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidCursorException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Query;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the pages of a query on one of Stowage's own (synthesized) indexes, for {@link Pager}. It
 * also adds the items of Pager's other reads (the table, a native index) to their pages ({@link
 * #acceptAt}), so every page is filtered and projected alike.
 *
 * <p>Every index hit is checked against the item itself ({@link #verified}) before it counts, and
 * the entries of a bucket of long sort values are read whole and ordered by the items' full sort
 * values and keys, so pages come in the index's true order (docs/FORMAT.md, "Long index values").
 * Native indexes ({@link IndexSpec#isNative()}) are read by {@link Pager} itself.
 */
final class IndexPageReader {
  private static final org.slf4j.Logger INDEX_LOG =
      org.slf4j.LoggerFactory.getLogger("dev.stowage.indexes");

  private final CoreTable t;

  IndexPageReader(CoreTable t) {
    this.t = t;
  }

  /**
   * Reads an index in the order of its full sort values and primary keys. Drivers return entries in
   * the order of their stored sort values; an entry whose stored value is a bucket of long values
   * (docs/FORMAT.md, "Long index values") shares it with every other value starting with the same
   * bytes, so the whole bucket is read, ordered by the items' own values and keys, and the read
   * goes on beyond it. A position inside a bucket (a page that ended there) reads the bucket again
   * and skips what precedes the position.
   */
  void fetchIndex(CursorState st, QueryPlan plan, Pager.Out out) {
    Query q = st.query();
    boolean descending = !st.towardAfter();
    Position anchor = st.anchor();
    long max = t.shared.driver.limits(t.layout).maxIndexTupleBytes();
    if (anchor != null && st.anchorInclusive()) {
      Optional<StoredItem> s = t.driverGet(anchor.key(), false);
      if (s.isPresent()) {
        StoredForm.Synthesized now = verified(plan, s.get().item(), anchor.key(), false);
        if (now != null && now.fullSort().equals(anchor.indexSort())) {
          accept(
              s.get(),
              anchor.key(),
              Pager.restoreAll(t, List.of(s.get()), out.needed).get(0),
              now,
              out);
        }
      }
    }
    KeyRange range = plan.range();
    Position start = null;
    if (anchor != null) {
      if (!(anchor.indexSort() instanceof BinaryValue a)) {
        throw new InvalidCursorException(
            InvalidCursorException.Reason.MALFORMED,
            "an index query position lacks its sort value");
      }
      Bytes stored = IndexValues.storedSort(a.value(), max);
      if (stored != a.value()) {
        BinaryValue bucket = AttributeValue.of(stored);
        if (range.contains(bucket)) {
          readBucket(plan, bucket, descending, anchor, null, out);
        }
        range = beyond(range, bucket, descending);
      } else {
        start = anchor;
      }
    }
    boolean more = range != null;
    while (!out.full() && more) {
      DriverQuery dq =
          new DriverQuery(
              plan.index().name(),
              plan.partition(),
              range,
              descending,
              out.ask(),
              start,
              q.consistentRead(),
              out.fetched);
      QueryResult r = Pager.driverQuery(t, dq);
      more = r.more() && !r.items().isEmpty();
      List<StoredItem> items = r.items();
      int i = 0;
      while (i < items.size() && !out.full()) {
        int j = i;
        while (j < items.size() && !isBucket(storedSort(items.get(j).item(), plan))) {
          j++;
        }
        List<StoredItem> plain = items.subList(i, j);
        List<Item> restored = Pager.restoreAll(t, plain, out.needed);
        for (int k = 0; k < plain.size() && !out.full(); k++) {
          StoredItem s = plain.get(k);
          Key key = t.spec.keySchema().keyOf(s.item());
          start = new Position(key, storedSort(s.item(), plan));
          StoredForm.Synthesized now = verified(plan, s.item(), key, true);
          if (now != null) {
            accept(s, key, restored.get(k), now, out);
          }
        }
        if (j == items.size() || out.full()) {
          break;
        }
        BinaryValue bucket = storedSort(items.get(j).item(), plan);
        int end = j;
        while (end < items.size() && bucket.equals(storedSort(items.get(end).item(), plan))) {
          end++;
        }
        if (end < items.size() || !r.more()) {
          // The page holds the whole bucket: order it and go on with the page.
          readBucket(plan, bucket, descending, null, items.subList(j, end), out);
          i = end;
          continue;
        }
        // The page ends inside the bucket: read it whole, then what lies beyond it.
        readBucket(plan, bucket, descending, null, null, out);
        range = beyond(range, bucket, descending);
        start = null;
        more = range != null;
        break;
      }
    }
  }

  private static boolean isBucket(BinaryValue stored) {
    return stored != null && IndexValues.isSortBucket(stored.value());
  }

  /** An index hit with its verified values. */
  private record Hit(StoredItem stored, Key key, StoredForm.Synthesized now) {}

  /**
   * Reads every entry of a bucket, orders the current ones by full sort value and key in the read's
   * direction and accepts those beyond {@code after} (a position inside the bucket, or null).
   *
   * @param read every entry of the bucket when a page already held them all, else null to read them
   */
  private void readBucket(
      QueryPlan plan,
      BinaryValue bucket,
      boolean descending,
      Position after,
      List<StoredItem> read,
      Pager.Out out) {
    KeyRange exact = new KeyRange(bucket, true, bucket, true, null);
    List<Hit> hits = new ArrayList<>();
    Position from = null;
    if (read != null) {
      for (StoredItem s : read) {
        Key key = t.spec.keySchema().keyOf(s.item());
        StoredForm.Synthesized now = verified(plan, s.item(), key, true);
        if (now != null) {
          hits.add(new Hit(s, key, now));
        }
      }
    }
    while (read == null) {
      DriverQuery dq =
          new DriverQuery(
              plan.index().name(),
              plan.partition(),
              exact,
              false,
              1000,
              from,
              out.q.consistentRead(),
              out.fetched);
      QueryResult r = Pager.driverQuery(t, dq);
      for (StoredItem s : r.items()) {
        Key key = t.spec.keySchema().keyOf(s.item());
        from = new Position(key, bucket);
        StoredForm.Synthesized now = verified(plan, s.item(), key, true);
        if (now != null) {
          hits.add(new Hit(s, key, now));
        }
      }
      if (!r.more() || r.items().isEmpty()) {
        break;
      }
    }
    Comparator<Hit> order =
        Comparator.<Hit, Bytes>comparing(h -> h.now().fullSort().value()).thenComparing(Hit::key);
    if (descending) {
      order = order.reversed();
    }
    hits.sort(order);
    int i = 0;
    if (after != null) {
      Bytes afterSort = ((BinaryValue) after.indexSort()).value();
      Comparator<Hit> o = order;
      Hit mark =
          new Hit(
              null,
              after.key(),
              new StoredForm.Synthesized(null, null, null, AttributeValue.of(afterSort)));
      while (i < hits.size() && o.compare(hits.get(i), mark) <= 0) {
        i++;
      }
    }
    while (i < hits.size() && !out.full()) {
      int n = Math.min(hits.size() - i, Math.max(out.want - out.items.size(), 1));
      List<Hit> chunk = hits.subList(i, i + n);
      List<Item> restored =
          t.restoreAll(chunk.stream().map(h -> h.stored().item()).toList(), out.needed);
      for (int j = 0; j < chunk.size() && !out.full(); j++) {
        Hit h = chunk.get(j);
        accept(h.stored(), h.key(), restored.get(j), h.now(), out);
      }
      i += n;
    }
  }

  /** The part of {@code range} beyond a bucket in the read's direction, or null if none is left. */
  private static KeyRange beyond(KeyRange range, BinaryValue bucket, boolean descending) {
    if (!descending) {
      if (range.upper() != null && KeyValue.compare(bucket, range.upper()) >= 0) {
        return null;
      }
      return new KeyRange(bucket, false, range.upper(), range.upperInclusive(), null);
    }
    if (range.lower() != null && KeyValue.compare(range.lower(), bucket) >= 0) {
      return null;
    }
    return new KeyRange(range.lower(), range.lowerInclusive(), bucket, false, null);
  }

  /** The stored sort value of an index hit, or null if it has none. */
  private static BinaryValue storedSort(Item stored, QueryPlan plan) {
    AttributeValue s = stored.find(plan.layout().sortAttribute()).orElse(null);
    return s instanceof BinaryValue b ? b : null;
  }

  /**
   * Adds an item to the page if it passes the filter.
   *
   * @param s the item as stored (with its overflow pointer, for jobs that release blobs)
   * @param key the item's primary key, as the read that found it took it from the item
   * @param restored the same item with overflowed attributes put back, or null if it was deleted
   *     while the page was read
   * @param now for index queries, the hit's verified index values (see {@link #verified}); null for
   *     the primary key
   */
  private void accept(
      StoredItem s, Key key, Item restored, StoredForm.Synthesized now, Pager.Out out) {
    acceptAt(s, key, restored, now == null ? null : now.fullSort(), out);
  }

  /**
   * {@link #accept}, at the given sort value of the index position (null for none). The primary key
   * and native index reads of {@link Pager} add their items to a page here too, so every page is
   * filtered and projected alike.
   */
  void acceptAt(StoredItem s, Key key, Item restored, KeyValue indexSort, Pager.Out out) {
    if (restored == null) {
      return; // deleted while the page was read
    }
    Query q = out.q;
    Item decoded = t.form.decode(restored, key, out.needed);
    if (q.filter().isPresent() && !ConditionEvaluator.test(q.filter().get(), decoded)) {
      return;
    }
    Item item = t.project(decoded, out.projection);
    IndexSpec index = q.index().flatMap(t.spec::index).orElse(null);
    if (index != null && index.projection() == IndexSpec.Projection.KEYS_ONLY) {
      Set<String> keep = new HashSet<>(index.attributes());
      item = t.project(item, keep);
    }
    out.items.add(item);
    out.positions.add(new Position(key, indexSort));
    out.stored.add(s);
  }

  /**
   * The index values of a hit if it still belongs where the index found it: the values the item's
   * own attributes give now (see {@link StoredForm#synthesize}) are the ones stored on it, their
   * full partition value is the query's and their full sort value lies in its range. Another tool
   * may have changed an indexed attribute without touching Stowage's synthesized ones, leaving the
   * item under values it no longer has (in the wrong partition or the wrong place of the order);
   * such a hit is left out (null), counted ({@link Metrics#staleIndexHits}) and logged at DEBUG
   * under {@code dev.stowage.indexes}. Long values are compared in full, so a digest or a bucket
   * shared with other values never stands for the value itself. Drivers return whole stored items
   * from index queries (every driver stores projection ALL), and indexed attributes are never
   * encoded or moved to a blob, so the stored item holds them as written.
   *
   * @param count false to leave a mismatch uncounted (the anchor of a cursor, which may simply have
   *     changed since)
   */
  private StoredForm.Synthesized verified(QueryPlan plan, Item stored, Key key, boolean count) {
    StoredForm.Synthesized now = t.form.synthesize(plan.index().name(), stored, key, false);
    String problem;
    if (now == null) {
      problem = "its attributes now give no entry in the index";
    } else if (!now.fullPartition().equals(plan.fullPartition())) {
      problem = "its attributes now give another partition";
    } else if (!plan.fullRange().contains(now.fullSort())) {
      problem = "its attributes now give a sort value outside the query's range";
    } else if (!now.partition().equals(stored.find(plan.layout().partitionAttribute()).orElse(null))
        || !now.sort().equals(storedSort(stored, plan))) {
      problem = "its stored index values are not the ones its attributes give";
    } else {
      return now;
    }
    if (!count) {
      return null;
    }
    t.shared.metrics.staleIndexHits.increment();
    if (INDEX_LOG.isDebugEnabled()) {
      INDEX_LOG.debug(
          "index '{}' of {}: left out {}, whose index values are stale ({}); run"
              + " Table.verifyIndexes to repair them",
          plan.index().name(),
          t.ref,
          key,
          problem);
    }
    return null;
  }
}
