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
 * index values stored on it, the query's partition value and a sort value in its range (another
 * tool changed them) is left out like a filtered item, so pages still fill up to their limit from
 * the hits that follow. A native index's hits ({@link IndexSpec#isNative()}) are the backend's own
 * answers over plain attributes and are taken as they come. Index positions (and so cursors) hold
 * an item's full sort tuple, which orders the entries of a bucket of long sort values
 * (docs/FORMAT.md, "Long index values").
 *
 * <p>This class reads the table, native indexes and scans itself; the pages of Stowage's own
 * indexes are read by {@link IndexPageReader}, which also adds every read's items to its page.
 */
final class Pager {
  private final CoreTable t;
  private final IndexPageReader indexPages;

  Pager(CoreTable t) {
    this.t = t;
    this.indexPages = new IndexPageReader(t);
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
    CursorState before;
    CursorState after;
    boolean hasBefore;
    boolean hasAfter;
    if (items.isEmpty()) {
      CursorState opposite =
          fresh.at(!st.towardAfter(), st.anchor(), st.anchor() != null && !st.anchorInclusive());
      before = st.towardAfter() ? opposite : fresh;
      after = st.towardAfter() ? fresh : opposite;
      hasBefore = !st.towardAfter() ? false : hasOpposite;
      hasAfter = st.towardAfter() ? false : hasOpposite;
    } else {
      Position firstRead = pos.get(0);
      Position lastRead = pos.get(pos.size() - 1);
      Position smallest = st.towardAfter() ? firstRead : lastRead;
      Position largest = st.towardAfter() ? lastRead : firstRead;
      before = fresh.at(false, smallest, false);
      after = fresh.at(true, largest, false);
      hasBefore = st.towardAfter() ? hasOpposite : moreInDirection;
      hasAfter = st.towardAfter() ? moreInDirection : hasOpposite;
    }
    if (st.towardAfter() == q.descending()) {
      Collections.reverse(items);
    }
    // Cursors are sealed when the caller asks for them: most pages are read for their items.
    CursorSealer sealer = t.shared.sealer;
    return PageAccess.lazy(
        items, () -> sealer.seal(before), hasBefore, () -> sealer.seal(after), hasAfter);
  }

  /**
   * Reads up to {@code want} matching items from the state's anchor in its direction.
   *
   * @param projection attributes to return, or null for all
   */
  Fetched fetch(CursorState st, int want, Set<String> projection) {
    return fetch(st, want, projection, false);
  }

  /**
   * {@link #fetch(CursorState, int, Set)}, asking the driver, when {@code narrow}, for only the
   * attributes the page needs: the projection's and the filter's, the keys, the overflow pointer
   * (the stored items keep it, for jobs that release blobs), and for an index its stored and source
   * attributes (to check each hit). Items of such a page hold no other attribute.
   */
  Fetched fetch(CursorState st, int want, Set<String> projection, boolean narrow) {
    Query q = st.query();
    QueryPlan plan = QueryPlan.of(t.spec, q, t.shared.driver.limits(t.layout));
    Out out =
        new Out(q, needed(q.filter().orElse(null), projection, plan.index()), projection, want);
    if (narrow && out.needed != null) {
      Set<String> fetched = new HashSet<>(out.needed);
      fetched.add(t.spec.keySchema().partitionName());
      t.spec.keySchema().sortName().ifPresent(fetched::add);
      fetched.add(OverflowHandler.POINTER_ATTRIBUTE);
      if (plan.index() != null) {
        fetched.addAll(plan.index().attributes());
        fetched.add(plan.layout().partitionAttribute());
        if (plan.layout().sortAttribute() != null) {
          fetched.add(plan.layout().sortAttribute());
        }
      }
      out.fetched = Set.copyOf(fetched);
    }
    if (!plan.matchesNothing()) {
      if (plan.index() == null) {
        fetchPrimary(st, plan, out);
      } else if (plan.index().isNative()) {
        fetchNative(st, plan, out);
      } else {
        indexPages.fetchIndex(st, plan, out);
      }
    }
    return new Fetched(out.items, out.positions, out.stored);
  }

  /** What a fetch collects, and for which query (filled by {@link IndexPageReader#acceptAt}). */
  static final class Out {
    final Query q;
    final Set<String> needed;
    final Set<String> projection;
    final int want;
    final List<Item> items = new ArrayList<>();
    final List<Position> positions = new ArrayList<>();
    final List<StoredItem> stored = new ArrayList<>();
    // The attributes asked of the driver, or null for whole items.
    Set<String> fetched;

    Out(Query q, Set<String> needed, Set<String> projection, int want) {
      this.q = q;
      this.needed = needed;
      this.projection = projection;
      this.want = want;
    }

    boolean full() {
      return items.size() >= want;
    }

    /** How many items a driver request should ask for. */
    int ask() {
      return Math.min(1000, Math.max(want - items.size(), q.filter().isPresent() ? 100 : 1));
    }
  }

  private void fetchPrimary(CursorState st, QueryPlan plan, Out out) {
    fetchInOrder(
        st,
        plan,
        out,
        null,
        stored -> new Position(t.spec.keySchema().keyOf(stored), null),
        this::primaryAnchorItem);
  }

  /**
   * Reads a native index ({@link IndexSpec#isNative()}): the backend's own index over plain
   * attributes, which Stowage neither synthesizes nor buckets. Its hits are the backend's answers,
   * taken as they come (not checked against synthesized values), and positions hold the raw sort
   * attribute's value.
   */
  private void fetchNative(CursorState st, QueryPlan plan, Out out) {
    fetchInOrder(
        st,
        plan,
        out,
        plan.index().name(),
        stored -> nativePosition(stored, plan),
        this::nativeAnchorItem);
  }

  /**
   * Reads the table or a native index in the driver's own order: every hit is accepted as it comes
   * at the position {@code positionOf} gives it (no synthesized values to check or buckets to
   * order), after the cursor's anchor when the cursor includes it.
   */
  private void fetchInOrder(
      CursorState st,
      QueryPlan plan,
      Out out,
      String index,
      java.util.function.Function<Item, Position> positionOf,
      java.util.function.BiFunction<QueryPlan, Position, Optional<StoredItem>> anchorOf) {
    Query q = st.query();
    Position cursor = st.anchor();
    if (cursor != null && st.anchorInclusive()) {
      anchorOf
          .apply(plan, cursor)
          .ifPresent(
              s -> {
                Position at = positionOf.apply(s.item());
                indexPages.acceptAt(
                    s, at.key(), restoreAll(t, List.of(s), out.needed).get(0), at.indexSort(), out);
              });
    }
    boolean more = true;
    while (!out.full() && more) {
      DriverQuery dq =
          new DriverQuery(
              index,
              plan.partition(),
              plan.range(),
              !st.towardAfter(),
              out.ask(),
              cursor,
              q.consistentRead(),
              out.fetched);
      QueryResult r = driverQuery(t, dq);
      more = r.more() && !r.items().isEmpty();
      List<Item> restored = restoreAll(t, r.items(), out.needed);
      for (int i = 0; i < r.items().size() && !out.full(); i++) {
        StoredItem s = r.items().get(i);
        cursor = positionOf.apply(s.item());
        indexPages.acceptAt(s, cursor.key(), restored.get(i), cursor.indexSort(), out);
      }
    }
  }

  /** A native index hit's position: its key and the raw value of the sort attribute, if any. */
  private Position nativePosition(Item stored, QueryPlan plan) {
    Key key = t.spec.keySchema().keyOf(stored);
    if (plan.layout().sortAttribute() == null) {
      return new Position(key, null);
    }
    AttributeValue s = stored.find(plan.layout().sortAttribute()).orElse(null);
    return new Position(key, s instanceof KeyValue k ? k : null);
  }

  /** The anchor of a native index query if it is still where the cursor left it. */
  private Optional<StoredItem> nativeAnchorItem(QueryPlan plan, Position anchor) {
    Optional<StoredItem> s = t.driverGet(anchor.key(), false);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    Item item = s.get().item();
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

  /** Runs one driver query, counted and retried like every read of the table. */
  static QueryResult driverQuery(CoreTable t, DriverQuery dq) {
    t.shared.metrics.queries.increment();
    return t.retrier.call(() -> t.shared.driver.query(t.layout, dq));
  }

  private Optional<StoredItem> primaryAnchorItem(QueryPlan plan, Position anchor) {
    Optional<StoredItem> s = t.driverGet(anchor.key(), false);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    KeyValue sort = anchor.key().sortOrNull();
    boolean inRange = sort == null || plan.range().contains(sort);
    return inRange && anchor.key().partition().equals(plan.partition()) ? s : Optional.empty();
  }

  /** The items of a page restored; an item deleted while the page was read is null. */
  static List<Item> restoreAll(CoreTable t, List<StoredItem> stored, Set<String> needed) {
    List<Item> items = new ArrayList<>(stored.size());
    for (int i = 0; i < stored.size(); i++) {
      items.add(stored.get(i).item());
    }
    return t.restoreAll(items, needed);
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
      QueryResult r = t.retrier.call(() -> t.shared.driver.scan(t.layout, ds));
      more = r.more() && !r.items().isEmpty();
      List<Item> restored = restoreAll(t, r.items(), needed);
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
    if (!hasAfter) {
      return new Page(page, Optional.empty(), false, Optional.empty(), false);
    }
    CursorState after =
        st.expiring(expiry()).at(true, new Position(keys.get(page.size() - 1), null), false);
    CursorSealer sealer = t.shared.sealer;
    return PageAccess.lazy(page, null, false, () -> sealer.seal(after), true);
  }
}
