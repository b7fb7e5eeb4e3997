package dev.stowage.memory;

import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One table of the memory driver: items in key order, grouped by partition, plus one ordered map
 * per index partition. Writers synchronize on the table; readers use the concurrent maps.
 *
 * <p>An index partition is keyed by the index's partition value: the synthesized binary value of an
 * index Stowage maintains, or the raw value of a native index's partition attribute. Entries order
 * by sort value (likewise synthesized or raw; null for a native index without sort attribute), then
 * primary key.
 */
final class MemoryTable {
  /**
   * An index entry within one index partition: index sort value (or null), then primary key. A
   * probe for a range bound has no key and an {@code edge}: -1 sorts before every entry of its sort
   * value, +1 after all of them (entries have edge 0).
   */
  record IndexEntry(KeyValue sort, Key key, int edge) implements Comparable<IndexEntry> {
    IndexEntry(KeyValue sort, Key key) {
      this(sort, key, 0);
    }

    @Override
    public int compareTo(IndexEntry o) {
      // Entries of one index partition have sort values of one type (or none at all).
      int c = sort == null || o.sort == null ? 0 : KeyValue.compare(sort, o.sort);
      if (c != 0) {
        return c;
      }
      return edge != 0 || o.edge != 0 ? Integer.compare(edge, o.edge) : key.compareTo(o.key);
    }
  }

  /** Where an item sits in one index: its partition value and sort value (null: no sort). */
  private record Placement(KeyValue partition, KeyValue sort) {}

  volatile TableLayout layout;
  private final DriverLimits limits;
  // Items live in their partition's ordered map only (one ordered insert per write); scans walk
  // the partitions in key order through partitionOrder, which changes only when one is created.
  private final Map<KeyValue, ConcurrentSkipListMap<Key, StoredItem>> partitions =
      new ConcurrentHashMap<>();
  private final ConcurrentSkipListSet<KeyValue> partitionOrder =
      new ConcurrentSkipListSet<>(KeyValue::compare);
  private final Map<String, Map<KeyValue, ConcurrentSkipListMap<IndexEntry, Key>>> indexes =
      new ConcurrentHashMap<>();
  private final AtomicLong versions = new AtomicLong();

  MemoryTable(TableLayout layout, DriverLimits limits) {
    this.layout = layout;
    this.limits = limits;
    layout.indexes().forEach(i -> indexes.put(i.name(), new ConcurrentHashMap<>()));
  }

  /**
   * Adds indexes the table did not have, filling them from the items (online backfill). An index
   * whose attributes changed (a native index redefined) is rebuilt the same way; an index Stowage
   * maintains keeps its entries, which its synthesized values tell apart.
   */
  synchronized void addIndexes(TableLayout newLayout) {
    for (IndexLayout i : newLayout.indexes()) {
      IndexLayout old = layout.index(i.name()).orElse(null);
      boolean redefined = old != null && !MemoryDriver.sameKeys(old, i);
      if (redefined || !indexes.containsKey(i.name())) {
        indexes.put(i.name(), new ConcurrentHashMap<>());
        for (KeyValue p : partitionOrder) {
          for (Map.Entry<Key, StoredItem> e : partitions.get(p).entrySet()) {
            addEntry(i, e.getKey(), e.getValue().item());
          }
        }
      }
    }
    layout = newLayout;
  }

  Optional<StoredItem> get(Key key) {
    ConcurrentSkipListMap<Key, StoredItem> part = partitions.get(key.partition());
    return part == null ? Optional.empty() : Optional.ofNullable(part.get(key));
  }

  /** Stores an item; the caller holds the table lock. */
  String write(Key key, Item item) {
    return put(key, item).token();
  }

  /**
   * What a write did: the new version's token and the version it replaced (null: none).
   *
   * @param token the stored version's token
   * @param replaced the version replaced, or null
   */
  record Written(String token, StoredItem replaced) {}

  /**
   * Stores an item and answers the version it replaced, found by the same walk of the ordered map
   * that stores it; the caller holds the table lock.
   */
  Written put(Key key, Item item) {
    long size = dev.stowage.internal.ItemAccess.itemBytes(item, limits.sizeModel());
    if (size > limits.maxItemBytes() || item.size() > limits.maxAttributes()) {
      throw new ItemTooLargeException(
          "item "
              + key
              + " of "
              + size
              + " bytes and "
              + item.size()
              + " attributes exceeds the"
              + " memory driver's limits");
    }
    String token = Long.toString(versions.incrementAndGet());
    StoredItem stored = new StoredItem(item, token);
    // Replace in place so lock-free readers see the old or the new item, never a gap.
    ConcurrentSkipListMap<Key, StoredItem> part = partitions.get(key.partition());
    if (part == null) {
      part = new ConcurrentSkipListMap<>();
      partitions.put(key.partition(), part);
      partitionOrder.add(key.partition());
    }
    StoredItem old = part.put(key, stored);
    for (IndexLayout i : layout.indexes()) {
      // Add the new entry before removing the old one, and keep an unchanged entry in place.
      boolean unchanged = old != null && samePlacement(i, old.item(), item);
      if (!unchanged) {
        addEntry(i, key, item);
        if (old != null) {
          removeEntry(i, key, old.item());
        }
      }
    }
    return new Written(token, old);
  }

  /** Removes an item; the caller holds the table lock. */
  void remove(Key key) {
    ConcurrentSkipListMap<Key, StoredItem> part = partitions.get(key.partition());
    StoredItem old = part == null ? null : part.remove(key);
    if (old == null) {
      return;
    }
    for (IndexLayout i : layout.indexes()) {
      removeEntry(i, key, old.item());
    }
  }

  private void removeEntry(IndexLayout i, Key key, Item item) {
    Placement at = placement(i, item);
    if (at != null) {
      var entries = indexes.get(i.name()).get(at.partition());
      if (entries != null) {
        entries.remove(new IndexEntry(at.sort(), key));
      }
    }
  }

  private void addEntry(IndexLayout i, Key key, Item item) {
    Placement at = placement(i, item);
    if (at != null) {
      indexes
          .get(i.name())
          .computeIfAbsent(at.partition(), x -> new ConcurrentSkipListMap<>())
          .put(new IndexEntry(at.sort(), key), key);
    }
  }

  /**
   * Where an item sits in an index, or null if it is not in it: it lacks an index attribute, or
   * holds a value of another type there (as a backend indexes only values of its declared types).
   */
  private static Placement placement(IndexLayout i, Item item) {
    KeyValue p = typed(item, i.partitionAttribute(), i.partitionType());
    if (p == null) {
      return null;
    }
    if (i.sortAttribute() == null) {
      return new Placement(p, null);
    }
    KeyValue s = typed(item, i.sortAttribute(), i.sortType());
    return s == null ? null : new Placement(p, s);
  }

  /**
   * Whether two items sit at the same place of an index (or both outside it), allocating nothing.
   */
  private static boolean samePlacement(IndexLayout i, Item a, Item b) {
    KeyValue pa = typed(a, i.partitionAttribute(), i.partitionType());
    if (!java.util.Objects.equals(pa, typed(b, i.partitionAttribute(), i.partitionType()))) {
      return false;
    }
    if (pa == null || i.sortAttribute() == null) {
      return true;
    }
    return java.util.Objects.equals(
        typed(a, i.sortAttribute(), i.sortType()), typed(b, i.sortAttribute(), i.sortType()));
  }

  private static KeyValue typed(Item item, String name, dev.stowage.item.AttributeType type) {
    return item.attributes().get(name) instanceof KeyValue k && k.type() == type ? k : null;
  }

  QueryResult query(DriverQuery q) {
    return q.index() != null ? indexQuery(q) : primaryQuery(q);
  }

  private QueryResult primaryQuery(DriverQuery q) {
    NavigableMap<Key, StoredItem> part = partitions.get(q.partition());
    if (part == null) {
      return new QueryResult(List.of(), false);
    }
    KeyRange r = q.range();
    if (layout.keySchema().hasSort()) {
      if (r.lower() != null) {
        part = part.tailMap(Key.of(q.partition(), r.lower()), r.lowerInclusive());
      }
      if (r.upper() != null) {
        part = part.headMap(Key.of(q.partition(), r.upper()), r.upperInclusive());
      }
    }
    if (q.descending()) {
      part = part.descendingMap();
    }
    if (q.exclusiveStart() != null) {
      part = part.tailMap(q.exclusiveStart().key(), false);
    }
    return take(part.values(), q.limit());
  }

  private QueryResult indexQuery(DriverQuery q) {
    IndexLayout il = layout.index(q.index()).orElseThrow();
    NavigableMap<IndexEntry, Key> part = indexes.get(il.name()).get(q.partition());
    if (part == null) {
      return new QueryResult(List.of(), false);
    }
    // Bounds narrow the map itself, so a query starts at its range in O(log n) (a prefix range's
    // bounds are exact; the prefix is still checked below).
    KeyRange r = q.range();
    if (il.sortAttribute() != null && r.lower() != null) {
      part = part.tailMap(new IndexEntry(r.lower(), null, r.lowerInclusive() ? -1 : 1), true);
    }
    if (il.sortAttribute() != null && r.upper() != null) {
      part = part.headMap(new IndexEntry(r.upper(), null, r.upperInclusive() ? 1 : -1), false);
    }
    if (q.descending()) {
      part = part.descendingMap();
    }
    if (q.exclusiveStart() != null) {
      part =
          part.tailMap(
              new IndexEntry(q.exclusiveStart().indexSort(), q.exclusiveStart().key()), false);
    }
    List<StoredItem> matched = new ArrayList<>();
    boolean more = false;
    for (Map.Entry<IndexEntry, Key> e : part.entrySet()) {
      KeyValue sort = e.getKey().sort();
      if (sort != null && !inRange(q.range(), sort)) {
        continue;
      }
      StoredItem s = get(e.getValue()).orElse(null);
      if (s == null) {
        continue;
      }
      if (matched.size() == q.limit()) {
        more = true;
        break;
      }
      matched.add(s);
    }
    return new QueryResult(matched, more);
  }

  /** The range's bounds and, for a prefix range, the prefix itself. */
  private static boolean inRange(KeyRange r, KeyValue v) {
    if (r.prefix() instanceof AttributeValue.StringValue p
        && !(v instanceof AttributeValue.StringValue s && s.value().startsWith(p.value()))) {
      return false;
    }
    if (r.prefix() instanceof AttributeValue.BinaryValue p
        && !(v instanceof AttributeValue.BinaryValue b && b.value().startsWith(p.value()))) {
      return false;
    }
    return r.contains(v);
  }

  QueryResult scan(DriverScan scan) {
    Key start = scan.exclusiveStart();
    NavigableSet<KeyValue> from =
        start == null ? partitionOrder : partitionOrder.tailSet(start.partition(), true);
    List<StoredItem> out = new ArrayList<>();
    for (KeyValue p : from) {
      NavigableMap<Key, StoredItem> part = partitions.get(p);
      if (start != null && p.equals(start.partition())) {
        part = part.tailMap(start, false);
      }
      for (StoredItem s : part.values()) {
        if (out.size() == scan.limit()) {
          return new QueryResult(out, true);
        }
        out.add(s);
      }
    }
    return new QueryResult(out, false);
  }

  /** Items of a key range after a key, and whether more may follow the last one. */
  record Range(List<StoredItem> items, Key last, boolean more) {}

  /**
   * The keys of the table's items in key order, or of the items in {@code index} when it is not
   * null; a snapshot that concurrent writes may or may not show.
   */
  List<Key> keysInOrder(IndexLayout index) {
    List<Key> out = new ArrayList<>();
    for (KeyValue p : partitionOrder) {
      for (Map.Entry<Key, StoredItem> e : partitions.get(p).entrySet()) {
        if (index == null || placement(index, e.getValue().item()) != null) {
          out.add(e.getKey());
        }
      }
    }
    return out;
  }

  /**
   * Up to {@code limit} items with keys from {@code lower} (inclusive, null: unbounded) to {@code
   * upper} (exclusive, null: unbounded), strictly after {@code after} when given, keeping only the
   * items in {@code index} when it is not null.
   */
  Range range(Key lower, Key upper, Key after, IndexLayout index, int limit) {
    Key from = after != null ? after : lower;
    boolean fromInclusive = after == null;
    NavigableSet<KeyValue> parts =
        from == null ? partitionOrder : partitionOrder.tailSet(from.partition(), true);
    List<StoredItem> out = new ArrayList<>();
    Key last = null;
    for (KeyValue p : parts) {
      if (upper != null && KeyValue.compare(p, upper.partition()) > 0) {
        break;
      }
      NavigableMap<Key, StoredItem> part = partitions.get(p);
      if (from != null && p.equals(from.partition())) {
        part = part.tailMap(from, fromInclusive);
      }
      if (upper != null && p.equals(upper.partition())) {
        part = part.headMap(upper, false);
      }
      for (Map.Entry<Key, StoredItem> e : part.entrySet()) {
        if (index != null && placement(index, e.getValue().item()) == null) {
          continue;
        }
        if (out.size() == limit) {
          return new Range(out, last, true);
        }
        out.add(e.getValue());
        last = e.getKey();
      }
    }
    return new Range(out, last, false);
  }

  private static QueryResult take(Iterable<StoredItem> source, int limit) {
    List<StoredItem> out = new ArrayList<>();
    for (StoredItem s : source) {
      if (out.size() == limit) {
        return new QueryResult(out, true);
      }
      out.add(s);
    }
    return new QueryResult(out, false);
  }
}
