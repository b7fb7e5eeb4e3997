package dev.stowage.internal;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidCursorException;
import dev.stowage.UnsupportedCapabilityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.spi.Capability;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads query and scan pages: filters with top-up, bidirectional anchors, sealed cursors.
 *
 * <p>A page reads from its anchor toward "after" (ascending sort order) or "before" (descending),
 * collects {@code limit + 1} matching items to learn whether more follow, and presents the first
 * {@code limit} in the query's own order. Positions come from returned items only, so items a
 * filter trimmed are evaluated again by the next page and nothing is skipped.
 *
 * <p>Every index hit is checked against the item itself: a hit whose attributes no longer give the
 * query's partition value and a sort value in its range (another tool changed them) is left out
 * like a filtered item, so pages still fill up to their limit from the hits that follow.
 */
final class Pager {
  private static final org.slf4j.Logger INDEX_LOG =
      org.slf4j.LoggerFactory.getLogger("dev.stowage.indexes");

  private final CoreTable t;

  Pager(CoreTable t) {
    this.t = t;
  }

  /** Items matched by one fetch, in reading order, with their positions and stored forms. */
  record Fetched(List<Item> items, List<Position> positions, List<StoredItem> stored) {}

  CursorState startState(Query q) {
    QueryPlan plan = QueryPlan.of(t.spec, q, t.shared.driver.limits(t.layout));
    ConditionEvaluator.validate(q.filter().orElse(null), t.spec, "a filter");
    if (plan.index() != null
        && q.consistentRead()
        && !t.shared.driver.consistentIndexQueries(t.layout, plan.index().name())) {
      throw new UnsupportedCapabilityException(
          Capability.CONSISTENT_INDEX_QUERIES.name(),
          t.shared.driver.name()
              + " queries of index '"
              + plan.index().name()
              + "' are eventually consistent");
    }
    return new CursorState(
        t.ref.namespace(),
        t.ref.table(),
        expiry(),
        q,
        null,
        !q.descending(),
        null,
        false,
        0,
        0,
        0,
        CursorState.PAGE,
        plan.index() == null ? null : IndexValues.fingerprint(plan.index()));
  }

  /**
   * Refuses a query cursor or delete-job token whose index was redefined since it was issued: its
   * positions belong to the old definition's order, and its query would now match other items.
   */
  static void requireSameIndex(CoreTable t, CursorState s) {
    if (s.query() == null || s.query().index().isEmpty()) {
      return;
    }
    String name = s.query().index().get();
    IndexSpec index = t.spec.index(name).orElse(null);
    Integer now = index == null ? null : IndexValues.fingerprint(index);
    if (now == null || !now.equals(s.indexFingerprint())) {
      throw new InvalidCursorException(
          InvalidCursorException.Reason.INDEX_CHANGED,
          "index '"
              + name
              + "' of table '"
              + t.ref.table()
              + "' "
              + (index == null
                  ? "no longer exists"
                  : "was redefined (now partitioned by "
                      + index.partitionAttributes()
                      + ", sorted by "
                      + index.sortAttributes()
                      + ")")
              + " since this cursor was issued: start the query again"
              + (index == null ? "" : ", after backfilling the index"));
    }
  }

  private long expiry() {
    return t.shared.clock.millis() + t.shared.cursorTtl.toMillis();
  }

  Page first(Query q) {
    return run(startState(q));
  }

  Page page(String cursor) {
    CursorState s =
        t.shared.sealer.open(cursor, t.ref.namespace(), t.ref.table(), CursorState.PAGE);
    requireSameIndex(t, s);
    return s.query() != null ? run(s) : runScan(s);
  }

  Page firstScan(Scan scan) {
    ConditionEvaluator.validate(scan.filter(), t.spec, "a filter");
    return runScan(
        new CursorState(
            t.ref.namespace(),
            t.ref.table(),
            expiry(),
            null,
            scan,
            true,
            null,
            false,
            0,
            0,
            0,
            CursorState.PAGE,
            null));
  }

  Stream<Item> all(Query q) {
    CursorState start = startState(q);
    Iterator<Item> it =
        new Iterator<>() {
          Page page = run(start);
          int i = 0;

          @Override
          public boolean hasNext() {
            while (i >= page.items().size()) {
              boolean more = q.descending() ? page.hasBefore() : page.hasAfter();
              Optional<String> next = q.descending() ? page.before() : page.after();
              if (!more || next.isEmpty()) {
                return false;
              }
              page = page(next.get());
              i = 0;
            }
            return true;
          }

          @Override
          public Item next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.items().get(i++);
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false);
  }

  Page run(CursorState st) {
    Query q = st.query();
    int limit = q.limit();
    Fetched f = fetch(st, limit + 1, q.projection().orElse(null));
    boolean moreInDirection = f.items().size() > limit;
    List<Item> items = new ArrayList<>(f.items().subList(0, Math.min(limit, f.items().size())));
    List<Position> pos = f.positions().subList(0, items.size());
    boolean hasOpposite = st.anchor() != null;
    CursorState fresh = st.expiring(expiry());
    String before;
    String after;
    boolean hasBefore;
    boolean hasAfter;
    if (items.isEmpty()) {
      String same = t.shared.sealer.seal(fresh);
      String opposite =
          t.shared.sealer.seal(
              fresh.at(
                  !st.towardAfter(), st.anchor(), st.anchor() != null && !st.anchorInclusive()));
      before = st.towardAfter() ? opposite : same;
      after = st.towardAfter() ? same : opposite;
      hasBefore = !st.towardAfter() ? false : hasOpposite;
      hasAfter = st.towardAfter() ? false : hasOpposite;
    } else {
      Position firstRead = pos.get(0);
      Position lastRead = pos.get(pos.size() - 1);
      Position smallest = st.towardAfter() ? firstRead : lastRead;
      Position largest = st.towardAfter() ? lastRead : firstRead;
      before = t.shared.sealer.seal(fresh.at(false, smallest, false));
      after = t.shared.sealer.seal(fresh.at(true, largest, false));
      hasBefore = st.towardAfter() ? hasOpposite : moreInDirection;
      hasAfter = st.towardAfter() ? moreInDirection : hasOpposite;
    }
    if (st.towardAfter() == q.descending()) {
      Collections.reverse(items);
    }
    return new Page(items, Optional.of(before), hasBefore, Optional.of(after), hasAfter);
  }

  /**
   * Reads up to {@code want} matching items from the state's anchor in its direction.
   *
   * @param projection attributes to return, or null for all
   */
  Fetched fetch(CursorState st, int want, Set<String> projection) {
    Query q = st.query();
    QueryPlan plan = QueryPlan.of(t.spec, q, t.shared.driver.limits(t.layout));
    boolean readDescending = !st.towardAfter();
    String indexName = plan.index() == null ? null : plan.index().name();
    Set<String> needed = needed(q.filter().orElse(null), projection, plan.index());
    List<Item> items = new ArrayList<>();
    List<Position> positions = new ArrayList<>();
    List<StoredItem> storedOut = new ArrayList<>();
    Position cursor = st.anchor();
    if (cursor != null && st.anchorInclusive() && !plan.matchesNothing()) {
      anchorItem(plan, cursor)
          .ifPresent(
              s ->
                  accept(
                      s,
                      restoreAll(List.of(s), needed).get(0),
                      q,
                      needed,
                      projection,
                      plan,
                      items,
                      positions,
                      storedOut));
    }
    boolean more = !plan.matchesNothing();
    while (items.size() < want && more) {
      int ask = Math.min(1000, Math.max(want - items.size(), q.filter().isPresent() ? 100 : 1));
      DriverQuery dq =
          new DriverQuery(
              indexName,
              plan.partition(),
              plan.range(),
              readDescending,
              ask,
              cursor,
              q.consistentRead());
      t.shared.metrics.queries.increment();
      QueryResult r = t.shared.retrier.call(() -> t.shared.driver.query(t.layout, dq));
      more = r.more() && !r.items().isEmpty();
      List<Item> restored = restoreAll(r.items(), needed);
      for (int i = 0; i < r.items().size() && items.size() < want; i++) {
        StoredItem s = r.items().get(i);
        cursor = position(s.item(), plan);
        accept(s, restored.get(i), q, needed, projection, plan, items, positions, storedOut);
      }
    }
    return new Fetched(items, positions, storedOut);
  }

  /**
   * Adds an item to the page if it passes the filter.
   *
   * @param s the item as stored (with its overflow pointer, for jobs that release blobs)
   * @param restored the same item with overflowed attributes put back, or null if it was deleted
   *     while the page was read
   */
  private void accept(
      StoredItem s,
      Item restored,
      Query q,
      Set<String> needed,
      Set<String> projection,
      QueryPlan plan,
      List<Item> items,
      List<Position> positions,
      List<StoredItem> storedOut) {
    if (restored == null) {
      return; // deleted while the page was read
    }
    Key key = t.spec.keySchema().keyOf(s.item());
    if (plan.index() != null && !plan.index().isNative() && !matchesIndex(plan, s.item(), key)) {
      return;
    }
    Item decoded = t.form.decode(restored, key, needed);
    if (q.filter().isPresent() && !ConditionEvaluator.test(q.filter().get(), decoded)) {
      return;
    }
    Item out = t.project(decoded, projection);
    if (plan.index() != null && plan.index().projection() == IndexSpec.Projection.KEYS_ONLY) {
      Set<String> keep = new HashSet<>(plan.index().attributes());
      out = t.project(out, keep);
    }
    items.add(out);
    positions.add(position(s.item(), plan));
    storedOut.add(s);
  }

  /**
   * Whether an index hit still matches the query: the index values the item's own attributes give
   * now (see {@link StoredForm#synthesize}) have the query's partition value and a sort value in
   * its range. Another tool may have changed an indexed attribute without touching Stowage's
   * synthesized ones, leaving the item under values it no longer has; such a hit is left out,
   * counted ({@link Metrics#staleIndexHits}) and logged at DEBUG under {@code dev.stowage.indexes}.
   * Drivers return whole stored items from index queries (every driver stores projection ALL), and
   * indexed attributes are never encoded or moved to a blob, so the stored item holds them as
   * written.
   */
  private boolean matchesIndex(QueryPlan plan, Item stored, Key key) {
    StoredForm.Synthesized now = t.form.synthesize(plan.index().name(), stored, key, false);
    String problem;
    if (now == null) {
      problem = "its attributes now give no entry in the index";
    } else if (!now.partition().equals(plan.partition())) {
      problem = "its attributes now give another partition";
    } else if (!plan.range().contains(now.sort())) {
      problem = "its attributes now give a sort value outside the query's range";
    } else {
      return true;
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
    return false;
  }

  private Optional<StoredItem> anchorItem(QueryPlan plan, Position anchor) {
    Optional<StoredItem> s = t.driverGet(anchor.key(), false);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    Item item = s.get().item();
    if (plan.layout() == null) {
      KeyValue sort = anchor.key().sortOrNull();
      boolean inRange = sort == null || plan.range().contains(sort);
      return inRange && anchor.key().partition().equals(plan.partition()) ? s : Optional.empty();
    }
    AttributeValue p = item.find(plan.layout().partitionAttribute()).orElse(null);
    if (plan.layout().sortAttribute() == null) {
      // A native index without sort attribute: entries order by primary key alone.
      return plan.partition().equals(p) ? s : Optional.empty();
    }
    AttributeValue sv = item.find(plan.layout().sortAttribute()).orElse(null);
    boolean same =
        plan.partition().equals(p)
            && sv instanceof KeyValue k
            && k.equals(anchor.indexSort())
            && plan.range().contains(k);
    return same ? s : Optional.empty();
  }

  /** The items of a page restored; an item deleted while the page was read is null. */
  private List<Item> restoreAll(List<StoredItem> stored, Set<String> needed) {
    return t.restoreAll(stored.stream().map(StoredItem::item).toList(), needed);
  }

  private Set<String> needed(
      dev.stowage.query.Condition filter, Set<String> projection, IndexSpec index) {
    if (projection == null && (index == null || index.projection() == IndexSpec.Projection.ALL)) {
      return null;
    }
    Set<String> n = new HashSet<>();
    if (projection != null) {
      n.addAll(projection);
    } else {
      n.addAll(index.attributes());
    }
    if (filter != null) {
      n.addAll(ConditionEvaluator.attributes(filter));
    }
    return n;
  }

  Position position(Item stored, QueryPlan plan) {
    Key key = t.spec.keySchema().keyOf(stored);
    if (plan.layout() == null) {
      return new Position(key, null);
    }
    AttributeValue s = stored.find(plan.layout().sortAttribute()).orElse(null);
    return new Position(key, s instanceof KeyValue k ? k : null);
  }

  // ---- scans -------------------------------------------------------------------------------

  Page runScan(CursorState st) {
    Scan scan = st.scan();
    int want = scan.limit() + 1;
    Set<String> needed = null;
    if (scan.projection() != null) {
      needed = new HashSet<>(scan.projection());
      if (scan.filter() != null) {
        needed.addAll(ConditionEvaluator.attributes(scan.filter()));
      }
    }
    List<Item> items = new ArrayList<>();
    List<Key> keys = new ArrayList<>();
    Key cursor = st.anchor() == null ? null : st.anchor().key();
    boolean more = true;
    while (items.size() < want && more) {
      int ask = Math.min(1000, Math.max(want - items.size(), scan.filter() != null ? 100 : 1));
      DriverScan ds = new DriverScan(ask, cursor, scan.consistentRead());
      t.shared.metrics.queries.increment();
      QueryResult r = t.shared.retrier.call(() -> t.shared.driver.scan(t.layout, ds));
      more = r.more() && !r.items().isEmpty();
      List<Item> restored = restoreAll(r.items(), needed);
      for (int i = 0; i < r.items().size() && items.size() < want; i++) {
        Key key = t.spec.keySchema().keyOf(r.items().get(i).item());
        cursor = key;
        if (restored.get(i) == null) {
          continue; // deleted while the page was read
        }
        Item decoded = t.form.decode(restored.get(i), key, needed);
        if (scan.filter() != null && !ConditionEvaluator.test(scan.filter(), decoded)) {
          continue;
        }
        items.add(t.project(decoded, scan.projection()));
        keys.add(key);
      }
    }
    boolean hasAfter = items.size() > scan.limit();
    List<Item> page = items.subList(0, Math.min(scan.limit(), items.size()));
    Optional<String> after = Optional.empty();
    if (hasAfter) {
      Key last = keys.get(page.size() - 1);
      after =
          Optional.of(
              t.shared.sealer.seal(
                  st.expiring(expiry()).at(true, new Position(last, null), false)));
    }
    return new Page(page, Optional.empty(), false, after, hasAfter);
  }
}
