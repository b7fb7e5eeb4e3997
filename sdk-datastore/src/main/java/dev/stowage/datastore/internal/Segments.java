package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.Filter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.SegmentSplit;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Segmented scans of a kind by {@code __key__} ranges. The Datastore client has no query splitter
 * of its own (only the low-level {@code datastore-v1-proto-client} has one, over another client),
 * so planning does what that splitter does: it reads a sample of keys ordered by the special {@code
 * __scatter__} property, which Datastore sets on a random sample of entities, sorts it and takes
 * evenly spaced keys as boundaries. Where the sample is too small to give every boundary (a small
 * kind, or the emulator, which sets no scatter property), it reads every key of the kind once (a
 * keys-only query) and takes exact quantiles instead.
 *
 * <p>Segment {@code i} holds the keys from boundary {@code i} (inclusive) to boundary {@code i + 1}
 * (exclusive), the first and last unbounded; a page is one {@code __key__} range query in key
 * order, which needs no composite index. An index segment reads the same range of the table and
 * keeps the items in the index ({@link IndexLayout#holds}), so an item never moves between
 * segments. Bounds are {@code <lower>~<upper>} and a checkpoint the last key read, each as the
 * key's URL-safe form (empty when unbounded); a plan of an empty kind gives the first segment the
 * whole key space and the others {@code empty}.
 *
 * <p>A split of a segment's unread part reads the keys after the checkpoint (a keys-only range
 * query, up to {@value #SPLIT_KEYS} of them) and cuts at the one {@code fraction} of the way
 * through them. A longer remainder is cut at the fraction of the scatter sample's keys that fall
 * inside it, or, where the sample has fewer than two there (the emulator sets none), at the
 * fraction of the keys read.
 */
public final class Segments {
  /** Most keys a split reads to place its cut exactly. */
  static final int SPLIT_KEYS = 100_000;

  /** Sampled keys per segment, as Datastore's own query splitter takes. */
  private static final int KEYS_PER_SPLIT = 32;

  private static final String EMPTY = "empty";
  private static final String SCATTER = "__scatter__";

  private final Datastore datastore;
  private final Entities entities;

  public Segments(Datastore datastore, Entities entities) {
    this.datastore = datastore;
    this.entities = entities;
  }

  /** Plans {@code total} key-range segments of the kind. */
  public List<ScanSegment> plan(TableLayout table, String index, int total) {
    if (total < 1 || total > ScanSegment.MAX_TOTAL) {
      throw new IllegalArgumentException(
          "a plan has 1 to " + ScanSegment.MAX_TOTAL + " segments, not " + total);
    }
    if (index != null) {
      index(table, index);
    }
    List<Key> keys = total == 1 ? List.of() : sample(table, total);
    List<ScanSegment> out = new ArrayList<>(total);
    if (keys.isEmpty() && total > 1) {
      for (int i = 0; i < total; i++) {
        out.add(new ScanSegment(index, i, total, i == 0 ? "~" : EMPTY));
      }
      return out;
    }
    String lower = "";
    for (int i = 0; i < total; i++) {
      String upper =
          i == total - 1 ? "" : keys.get((int) ((long) keys.size() * (i + 1) / total)).toUrlSafe();
      out.add(new ScanSegment(index, i, total, lower + "~" + upper));
      lower = upper;
    }
    return out;
  }

  /** Sorted keys to take boundaries from: the scatter sample, or every key when that is short. */
  private List<Key> sample(TableLayout table, int total) {
    List<Key> keys = new ArrayList<>();
    try {
      KeyQuery scatter =
          Query.newKeyQueryBuilder()
              .setNamespace(table.ref().namespace())
              .setKind(Entities.kind(table))
              .setOrderBy(OrderBy.asc(SCATTER))
              .setLimit((total - 1) * KEYS_PER_SPLIT)
              .build();
      datastore.run(scatter).forEachRemaining(keys::add);
    } catch (DatastoreException e) {
      keys.clear(); // a backend that refuses to order by __scatter__: read every key instead
    }
    if (keys.size() < (total - 1) * KEYS_PER_SPLIT) {
      keys.clear();
      KeyQuery all =
          Query.newKeyQueryBuilder()
              .setNamespace(table.ref().namespace())
              .setKind(Entities.kind(table))
              .setOrderBy(OrderBy.asc(Queries.KEY))
              .build();
      try {
        datastore.run(all).forEachRemaining(keys::add);
      } catch (DatastoreException e) {
        throw Errors.translate("sampling the keys of " + Entities.describe(table), e);
      }
      return keys;
    }
    keys.sort(Segments::compare);
    return keys;
  }

  /** Datastore's order of keys of one kind and namespace: ids (numerically) before names. */
  private static int compare(Key a, Key b) {
    if (a.hasId() != b.hasId()) {
      return a.hasId() ? -1 : 1;
    }
    if (a.hasId()) {
      return Long.compare(a.getId(), b.getId());
    }
    return dev.stowage.item.Utf8Order.compare(a.getName(), b.getName());
  }

  /** Reads the next page of a segment. */
  public SegmentPage scan(TableLayout table, SegmentScan s) {
    ScanSegment seg = s.segment();
    IndexLayout ix = seg.index() == null ? null : index(table, seg.index());
    if (seg.bounds().equals(EMPTY)) {
      return SegmentPage.last(List.of());
    }
    String[] parts = bounds(seg);
    Key lower = key(table, parts[0], seg);
    Key upper = key(table, parts[1], seg);
    Key after = s.checkpoint() == null ? null : key(table, s.checkpoint(), seg);
    List<StoredItem> out = new ArrayList<>();
    while (true) {
      int ask = s.limit() - out.size();
      EntityQuery.Builder q =
          Query.newEntityQueryBuilder()
              .setNamespace(table.ref().namespace())
              .setKind(Entities.kind(table))
              .setOrderBy(OrderBy.asc(Queries.KEY))
              .setLimit(ask);
      Filter range = keyRange(after, lower, upper);
      if (range != null) {
        q.setFilter(range);
      }
      int read = 0;
      try {
        QueryResults<Entity> results = datastore.run(q.build());
        while (results.hasNext()) {
          Entity e = results.next();
          read++;
          after = e.getKey();
          StoredItem item = entities.fromEntity(table, e);
          if (ix == null || ix.holds(item.item())) {
            out.add(item);
          }
        }
      } catch (DatastoreException e) {
        throw Errors.translate("scanning " + seg + " of " + Entities.describe(table), e);
      }
      if (read < ask) {
        return SegmentPage.last(out);
      }
      if (out.size() >= s.limit() || ix == null || !out.isEmpty()) {
        return new SegmentPage(out, after.toUrlSafe(), false);
      }
    }
  }

  /** A segment's "lower~upper" bounds as the Datastore driver planned them. */
  private static String[] bounds(ScanSegment seg) {
    String[] parts = seg.bounds().split("~", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(seg + " was not planned by the Datastore driver");
    }
    return parts;
  }

  /**
   * The keys after {@code after} (or from {@code lower} when nothing was read yet) and below {@code
   * upper}; null bounds are open, and null is returned when both are.
   */
  private static Filter keyRange(Key after, Key lower, Key upper) {
    Filter from =
        after != null
            ? PropertyFilter.gt(Queries.KEY, after)
            : lower != null ? PropertyFilter.ge(Queries.KEY, lower) : null;
    Filter below = upper == null ? null : PropertyFilter.lt(Queries.KEY, upper);
    if (from == null) {
      return below;
    }
    return below == null ? from : CompositeFilter.and(from, below);
  }

  /** Splits the unread part of a segment at about {@code fraction} of its keys. */
  public Optional<SegmentSplit> split(
      TableLayout table, ScanSegment seg, String checkpoint, double fraction) {
    StorageDriver.requireSplitFraction(fraction);
    if (seg.index() != null) {
      index(table, seg.index());
    }
    if (seg.bounds().equals(EMPTY)) {
      return Optional.empty();
    }
    String[] parts = bounds(seg);
    Key lower = key(table, parts[0], seg);
    Key upper = key(table, parts[1], seg);
    Key after = checkpoint == null ? null : key(table, checkpoint, seg);
    KeyQuery.Builder q =
        Query.newKeyQueryBuilder()
            .setNamespace(table.ref().namespace())
            .setKind(Entities.kind(table))
            .setOrderBy(OrderBy.asc(Queries.KEY))
            .setLimit(SPLIT_KEYS + 1);
    Filter range = keyRange(after, lower, upper);
    if (range != null) {
      q.setFilter(range);
    }
    List<Key> keys = new ArrayList<>();
    try {
      datastore.run(q.build()).forEachRemaining(keys::add);
    } catch (DatastoreException e) {
      throw Errors.translate("splitting " + seg + " of " + Entities.describe(table), e);
    }
    if (keys.size() > SPLIT_KEYS) {
      List<Key> sampled = sampledBetween(table, keys.get(0), upper);
      if (sampled.size() >= 2) {
        keys = sampled;
      }
    }
    if (keys.size() < 2) {
      return Optional.empty();
    }
    // The primary keeps at least the first key after the checkpoint, the residual at least one.
    int at = (int) Math.max(1, Math.min(keys.size() - 1, Math.round(fraction * keys.size())));
    String cut = keys.get(at).toUrlSafe();
    return Optional.of(
        new SegmentSplit(
            new ScanSegment(seg.index(), seg.number(), seg.total(), parts[0] + "~" + cut),
            new ScanSegment(seg.index(), seg.number(), seg.total(), cut + "~" + parts[1])));
  }

  /** The scatter sample's keys from {@code first} (inclusive) to {@code upper}, in key order. */
  private List<Key> sampledBetween(TableLayout table, Key first, Key upper) {
    List<Key> out = new ArrayList<>();
    try {
      KeyQuery scatter =
          Query.newKeyQueryBuilder()
              .setNamespace(table.ref().namespace())
              .setKind(Entities.kind(table))
              .setOrderBy(OrderBy.asc(SCATTER))
              .setLimit(SPLIT_KEYS)
              .build();
      datastore
          .run(scatter)
          .forEachRemaining(
              k -> {
                if (compare(k, first) >= 0 && (upper == null || compare(k, upper) < 0)) {
                  out.add(k);
                }
              });
    } catch (DatastoreException e) {
      return List.of(); // no scatter sample: cut among the keys read instead
    }
    out.sort(Segments::compare);
    if (!out.isEmpty() && !out.get(0).equals(first)) {
      out.add(0, first);
    }
    return out;
  }

  private Key key(TableLayout table, String urlSafe, ScanSegment seg) {
    if (urlSafe.isEmpty()) {
      return null;
    }
    Key k;
    try {
      k = Key.fromUrlSafe(urlSafe);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(seg + ": not a key the Datastore driver wrote", e);
    }
    if (!k.getKind().equals(Entities.kind(table))
        || !k.getNamespace().equals(table.ref().namespace())) {
      throw new IllegalArgumentException(seg + " belongs to another kind or namespace");
    }
    return k;
  }

  private static IndexLayout index(TableLayout table, String index) {
    return table
        .index(index)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "table '" + table.ref() + "' has no index '" + index + "'"));
  }
}
