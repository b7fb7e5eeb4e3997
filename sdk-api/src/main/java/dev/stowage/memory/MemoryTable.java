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
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * One table of the memory driver: each stored key's {@link Slot}, found by key in a hash table and
 * held in key order by its partition's ordered map, plus one ordered map per index partition.
 * Writers synchronize on the table; readers use the concurrent maps and read a slot's current
 * version.
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

  /**
   * One key's place in the table, which the hash table {@link #byKey} finds in one lookup (gets and
   * overwrites: no walk of an ordered map) and the key's partition map (and each index the item is
   * in) holds in key order. A write of a stored key replaces what the slot holds, so neither map
   * changes; only a new key or a delete changes them.
   *
   * <p>{@link #stored} is the current version, read without the lock: null until a new key's slot
   * is in every map, and again from the moment the key is deleted (a reader that found the slot
   * then reads no item). Every view reads items through it, so it is where a create or a delete
   * takes effect for all of them at once. {@code entries[i]} and {@code indexPartitions[i]} are its
   * entry and partition in index {@code i} of {@link #indexLayouts}, both null where it is not in
   * that index; kept so that a write compares the new item's index values with these (and removes a
   * moved entry by them) without looking into the replaced item, and leaves the indexes alone when
   * nothing indexed changed. They are read and written under the table lock only. Every slot holds
   * its placements in the current indexes: {@link #addIndexes} places them all anew when they
   * change.
   */
  static final class Slot {
    volatile StoredItem stored;
    IndexEntry[] entries;
    KeyValue[] indexPartitions;

    Slot(StoredItem stored) {
      this.stored = stored;
    }
  }

  private static final IndexEntry[] NO_ENTRIES = new IndexEntry[0];
  private static final KeyValue[] NO_PARTITIONS = new KeyValue[0];

  volatile TableLayout layout;

  /** Set once the driver no longer holds this table (dropped, or the driver closed). */
  volatile boolean dropped;

  /**
   * The indexes of {@link #layout}, in its order, which the slots' placements follow; replaced
   * (with every slot's placements) only when the indexes change.
   */
  private volatile IndexLayout[] indexLayouts;

  private final DriverLimits limits;

  /** Every stored key's slot: a get or an overwrite finds its item here in one hash lookup. */
  private final ConcurrentHashMap<Key, Slot> byKey = new ConcurrentHashMap<>();

  // The same slots in their partition's ordered map, for queries and scans (one ordered insert
  // per new key); scans walk the partitions in key order through partitionOrder, which changes
  // only when one is created.
  private final Map<KeyValue, ConcurrentSkipListMap<Key, Slot>> partitions =
      new ConcurrentHashMap<>();
  private final ConcurrentSkipListSet<KeyValue> partitionOrder =
      new ConcurrentSkipListSet<>(KeyValue::compare);
  private final Map<String, Map<KeyValue, ConcurrentSkipListMap<IndexEntry, Slot>>> indexes =
      new ConcurrentHashMap<>();

  /**
   * The last version written; a plain field, as every write holds the table lock (an atomic counter
   * would cost a locked instruction per write for nothing).
   */
  private long versions;

  /**
   * @param lastVersion the version the table's first write follows (the highest a dropped table of
   *     the driver wrote)
   */
  MemoryTable(TableLayout layout, DriverLimits limits, long lastVersion) {
    this.layout = layout;
    this.limits = limits;
    this.versions = lastVersion;
    this.indexLayouts = layout.indexes().toArray(IndexLayout[]::new);
    layout.indexes().forEach(i -> indexes.put(i.name(), new ConcurrentHashMap<>()));
  }

  /**
   * Adds indexes the table did not have, filling them from the items (online backfill). An index
   * whose attributes changed (a native index redefined), or that the table's layout had dropped, is
   * rebuilt the same way; an index Stowage maintains keeps its entries, which its synthesized
   * values tell apart.
   */
  synchronized void addIndexes(TableLayout newLayout) {
    IndexLayout[] now = indexLayouts;
    IndexLayout[] next = newLayout.indexes().toArray(IndexLayout[]::new);
    if (sameIndexes(now, next)) {
      layout = newLayout;
      return;
    }
    java.util.Set<String> rebuilt = new java.util.HashSet<>();
    for (IndexLayout i : next) {
      IndexLayout old = layout.index(i.name()).orElse(null);
      if (old == null || !old.sameKeys(i)) {
        indexes.put(i.name(), new ConcurrentHashMap<>());
        rebuilt.add(i.name());
      }
    }
    // Every slot is placed anew for the new indexes (slots always hold their placements in the
    // current indexes), and enters the indexes built afresh.
    for (KeyValue p : partitionOrder) {
      for (Map.Entry<Key, Slot> e : partitions.get(p).entrySet()) {
        Slot slot = e.getValue();
        place(slot, e.getKey(), slot.stored.item(), next);
        for (int i = 0; i < next.length; i++) {
          if (slot.entries[i] != null && rebuilt.contains(next[i].name())) {
            enter(next[i], slot.indexPartitions[i], slot.entries[i], slot);
          }
        }
      }
    }
    indexLayouts = next;
    layout = newLayout;
  }

  /**
   * Marks the table dropped and answers its last version; its writes fail from now on (a writer
   * that found it before the drop), so no version after this one is given out.
   */
  synchronized long retire() {
    dropped = true;
    return versions;
  }

  /** Fails a write to a table the driver dropped; the caller holds the table lock. */
  private void requireLive() {
    if (dropped) {
      throw new dev.stowage.NotFoundException("table '" + layout.ref() + "' does not exist");
    }
  }

  /** Whether two lists of indexes are the same indexes, in the same order. */
  private static boolean sameIndexes(IndexLayout[] a, IndexLayout[] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int i = 0; i < a.length; i++) {
      if (!a[i].name().equals(b[i].name()) || !a[i].sameKeys(b[i])) {
        return false;
      }
    }
    return true;
  }

  Optional<StoredItem> get(Key key) {
    StoredItem s = find(key);
    return Optional.ofNullable(s);
  }

  /** The stored item under {@code key}, or null. */
  StoredItem find(Key key) {
    Slot slot = byKey.get(key);
    return slot == null ? null : slot.stored;
  }

  /** Stores an item; the caller holds the table lock. */
  String write(Key key, Item item) {
    return put(key, item, false).token();
  }

  /**
   * Stores an item and answers its token and, if asked, the version it replaced; the caller holds
   * the table lock. Overwriting a stored key replaces its slot's item (one hash lookup, no ordered
   * map touched) and, only where an indexed value changed, moves its index entries.
   */
  WriteResult put(Key key, Item item, boolean returnPrevious) {
    requireLive();
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
    String token = Long.toString(++versions);
    StoredItem stored = new StoredItem(item, token);
    IndexLayout[] ils = indexLayouts;
    Slot slot = byKey.get(key);
    if (slot == null) {
      insert(key, stored, ils);
      return new WriteResult(Optional.empty(), token);
    }
    StoredItem previous = slot.stored;
    if (ils.length == 0 || samePlacements(ils, slot, item)) {
      // Lock-free readers see the old or the new item, never a gap.
      slot.stored = stored;
      return written(token, previous, returnPrevious);
    }
    IndexEntry[] before = slot.entries;
    KeyValue[] beforePartitions = slot.indexPartitions;
    place(slot, key, item, ils);
    // The new entries are in place before the new item is in the slot, and the old ones leave
    // after: a reader that gets the new item finds it where its values put it in every index. (An
    // index query meanwhile may meet the slot at both entries, as it could before; the core checks
    // each hit's values against the query.)
    boolean[] moved = new boolean[ils.length];
    for (int i = 0; i < ils.length; i++) {
      IndexEntry was = before[i];
      IndexEntry now = slot.entries[i];
      moved[i] =
          was != now
              && (was == null
                  || !was.equals(now)
                  || !beforePartitions[i].equals(slot.indexPartitions[i]));
      if (moved[i] && now != null) {
        enter(ils[i], slot.indexPartitions[i], now, slot);
      }
    }
    slot.stored = stored;
    for (int i = 0; i < ils.length; i++) {
      if (moved[i] && before[i] != null) {
        leave(ils[i], beforePartitions[i], before[i]);
      }
    }
    return written(token, previous, returnPrevious);
  }

  /**
   * Stores the first version of a key: a new slot in the hash table, its partition and indexes. The
   * slot enters the maps empty and gets its item last: gets, queries and scans all read the item
   * from the slot, so the new key shows in every one of them from the same moment (a get that found
   * it is never followed by a query that does not).
   */
  private void insert(Key key, StoredItem stored, IndexLayout[] ils) {
    Slot slot = new Slot(null);
    place(slot, key, stored.item(), ils);
    ConcurrentSkipListMap<Key, Slot> part = partitions.get(key.partition());
    if (part == null) {
      part = new ConcurrentSkipListMap<>();
      partitions.put(key.partition(), part);
      partitionOrder.add(key.partition());
    }
    part.put(key, slot);
    byKey.put(key, slot);
    for (int i = 0; i < ils.length; i++) {
      if (slot.entries[i] != null) {
        enter(ils[i], slot.indexPartitions[i], slot.entries[i], slot);
      }
    }
    slot.stored = stored;
  }

  private static WriteResult written(String token, StoredItem replaced, boolean returnPrevious) {
    return new WriteResult(
        returnPrevious && replaced != null ? Optional.of(replaced) : Optional.empty(), token);
  }

  /** Removes an item; the caller holds the table lock. */
  void remove(Key key) {
    requireLive();
    Slot slot = byKey.get(key);
    if (slot == null) {
      return;
    }
    // The item goes first, from the slot every view reads it through, so it is gone from gets,
    // queries and scans at the same moment (a get that missed it is never followed by a query
    // that finds it); the slot then leaves the maps.
    slot.stored = null;
    byKey.remove(key);
    partitions.get(key.partition()).remove(key);
    IndexLayout[] ils = indexLayouts;
    for (int i = 0; i < ils.length; i++) {
      if (slot.entries[i] != null) {
        leave(ils[i], slot.indexPartitions[i], slot.entries[i]);
      }
    }
  }

  private void leave(IndexLayout i, KeyValue partition, IndexEntry entry) {
    var entries = indexes.get(i.name()).get(partition);
    if (entries != null) {
      entries.remove(entry);
    }
  }

  private void enter(IndexLayout i, KeyValue partition, IndexEntry entry, Slot slot) {
    indexes
        .get(i.name())
        .computeIfAbsent(partition, x -> new ConcurrentSkipListMap<>())
        .put(entry, slot);
  }

  /** Sets the slot's placements in {@code ils}, computed from the attributes of {@code item}. */
  private static void place(Slot slot, Key key, Item item, IndexLayout[] ils) {
    if (ils.length == 0) {
      slot.entries = NO_ENTRIES;
      slot.indexPartitions = NO_PARTITIONS;
      return;
    }
    IndexEntry[] entries = new IndexEntry[ils.length];
    KeyValue[] parts = new KeyValue[ils.length];
    for (int i = 0; i < ils.length; i++) {
      Placement at = placement(ils[i], item);
      if (at != null) {
        entries[i] = new IndexEntry(at.sort(), key);
        parts[i] = at.partition();
      }
    }
    slot.entries = entries;
    slot.indexPartitions = parts;
  }

  /**
   * Whether {@code item} sits where {@code slot}'s item does in every index (or outside it, where
   * that one is), allocating nothing.
   */
  private static boolean samePlacements(IndexLayout[] ils, Slot slot, Item item) {
    for (int i = 0; i < ils.length; i++) {
      IndexLayout il = ils[i];
      KeyValue p = typed(item, il.partitionAttribute(), il.partitionType());
      KeyValue s =
          p == null || il.sortAttribute() == null
              ? null
              : typed(item, il.sortAttribute(), il.sortType());
      boolean in = p != null && (il.sortAttribute() == null || s != null);
      IndexEntry e = slot.entries[i];
      if (!in) {
        if (e != null) {
          return false;
        }
        continue;
      }
      if (e == null
          || p != slot.indexPartitions[i] && !p.equals(slot.indexPartitions[i])
          || !java.util.Objects.equals(s, e.sort())) {
        return false;
      }
    }
    return true;
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

  private static KeyValue typed(Item item, String name, dev.stowage.item.AttributeType type) {
    KeyValue k = dev.stowage.internal.KeyValues.asKey(item.attributes().get(name));
    return k != null && k.type() == type ? k : null;
  }

  QueryResult query(DriverQuery q) {
    return q.index() != null ? indexQuery(q) : primaryQuery(q);
  }

  private QueryResult primaryQuery(DriverQuery q) {
    NavigableMap<Key, Slot> part = partitions.get(q.partition());
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
    NavigableMap<IndexEntry, Slot> part = indexes.get(il.name()).get(q.partition());
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
    // An overwrite that moves an item within this partition enters its new entry before it leaves
    // the old one, so a walk meanwhile can meet its slot at both: the page holds it once.
    Set<Slot> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean more = false;
    for (Map.Entry<IndexEntry, Slot> e : part.entrySet()) {
      KeyValue sort = e.getKey().sort();
      if (sort != null && !inRange(q.range(), sort)) {
        continue;
      }
      StoredItem s = e.getValue().stored;
      if (s == null) {
        continue; // deleted since the walk passed its entry
      }
      if (!seen.add(e.getValue())) {
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
      NavigableMap<Key, Slot> part = partitions.get(p);
      if (start != null && p.equals(start.partition())) {
        part = part.tailMap(start, false);
      }
      for (Slot slot : part.values()) {
        StoredItem stored = slot.stored;
        if (stored == null) {
          continue;
        }
        if (out.size() == scan.limit()) {
          return new QueryResult(out, true);
        }
        out.add(stored);
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
      for (Map.Entry<Key, Slot> e : partitions.get(p).entrySet()) {
        StoredItem stored = e.getValue().stored;
        if (stored != null && (index == null || placement(index, stored.item()) != null)) {
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
      NavigableMap<Key, Slot> part = partitions.get(p);
      if (from != null && p.equals(from.partition())) {
        part = part.tailMap(from, fromInclusive);
      }
      if (upper != null && p.equals(upper.partition())) {
        part = part.headMap(upper, false);
      }
      for (Map.Entry<Key, Slot> e : part.entrySet()) {
        StoredItem stored = e.getValue().stored;
        if (stored == null || index != null && placement(index, stored.item()) == null) {
          continue;
        }
        if (out.size() == limit) {
          return new Range(out, last, true);
        }
        out.add(stored);
        last = e.getKey();
      }
    }
    return new Range(out, last, false);
  }

  private static QueryResult take(Iterable<Slot> source, int limit) {
    List<StoredItem> out = new ArrayList<>();
    for (Slot slot : source) {
      StoredItem stored = slot.stored;
      if (stored == null) {
        continue;
      }
      if (out.size() == limit) {
        return new QueryResult(out, true);
      }
      out.add(stored);
    }
    return new QueryResult(out, false);
  }
}
