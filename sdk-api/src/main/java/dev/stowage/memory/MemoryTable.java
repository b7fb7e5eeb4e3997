package dev.stowage.memory;

import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One table of the memory driver: items in key order, grouped by partition, plus one ordered map
 * per index partition. Writers synchronize on the table; readers use the concurrent maps.
 */
final class MemoryTable {
  /** An index entry within one index partition: index sort value, then primary key. */
  record IndexEntry(Bytes sort, Key key) implements Comparable<IndexEntry> {
    @Override
    public int compareTo(IndexEntry o) {
      int c = sort.compareTo(o.sort);
      return c != 0 ? c : key.compareTo(o.key);
    }
  }

  volatile TableLayout layout;
  private final DriverLimits limits;
  private final ConcurrentSkipListMap<Key, StoredItem> items = new ConcurrentSkipListMap<>();
  private final Map<KeyValue, ConcurrentSkipListMap<Key, StoredItem>> partitions =
      new ConcurrentHashMap<>();
  private final Map<String, Map<Bytes, ConcurrentSkipListMap<IndexEntry, Key>>> indexes =
      new ConcurrentHashMap<>();
  private final AtomicLong versions = new AtomicLong();

  MemoryTable(TableLayout layout, DriverLimits limits) {
    this.layout = layout;
    this.limits = limits;
    layout.indexes().forEach(i -> indexes.put(i.name(), new ConcurrentHashMap<>()));
  }

  /** Adds indexes the table did not have, filling them from the items (online backfill). */
  synchronized void addIndexes(TableLayout newLayout) {
    for (IndexLayout i : newLayout.indexes()) {
      if (!indexes.containsKey(i.name())) {
        indexes.put(i.name(), new ConcurrentHashMap<>());
        for (Map.Entry<Key, StoredItem> e : items.entrySet()) {
          addEntry(i, e.getKey(), e.getValue().item());
        }
      }
    }
    layout = newLayout;
  }

  Optional<StoredItem> get(Key key) {
    return Optional.ofNullable(items.get(key));
  }

  /** Stores an item; the caller holds the table lock. */
  String write(Key key, Item item) {
    long size = limits.sizeModel().itemBytes(item);
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
    StoredItem old = items.put(key, stored);
    partitions
        .computeIfAbsent(key.partition(), p -> new ConcurrentSkipListMap<>())
        .put(key, stored);
    for (IndexLayout i : layout.indexes()) {
      // Add the new entry before removing the old one, and keep an unchanged entry in place.
      boolean unchanged =
          old != null
              && java.util.Objects.equals(
                  binary(old.item(), i.partitionAttribute()), binary(item, i.partitionAttribute()))
              && java.util.Objects.equals(
                  binary(old.item(), i.sortAttribute()), binary(item, i.sortAttribute()));
      if (!unchanged) {
        addEntry(i, key, item);
        if (old != null) {
          removeEntry(i, key, old.item());
        }
      }
    }
    return token;
  }

  /** Removes an item; the caller holds the table lock. */
  void remove(Key key) {
    StoredItem old = items.remove(key);
    if (old == null) {
      return;
    }
    ConcurrentSkipListMap<Key, StoredItem> part = partitions.get(key.partition());
    if (part != null) {
      part.remove(key);
    }
    for (IndexLayout i : layout.indexes()) {
      removeEntry(i, key, old.item());
    }
  }

  private void removeEntry(IndexLayout i, Key key, Item item) {
    Bytes p = binary(item, i.partitionAttribute());
    Bytes s = binary(item, i.sortAttribute());
    if (p != null && s != null) {
      var entries = indexes.get(i.name()).get(p);
      if (entries != null) {
        entries.remove(new IndexEntry(s, key));
      }
    }
  }

  private void addEntry(IndexLayout i, Key key, Item item) {
    Bytes p = binary(item, i.partitionAttribute());
    Bytes s = binary(item, i.sortAttribute());
    if (p != null && s != null) {
      indexes
          .get(i.name())
          .computeIfAbsent(p, x -> new ConcurrentSkipListMap<>())
          .put(new IndexEntry(s, key), key);
    }
  }

  private static Bytes binary(Item item, String name) {
    return item.find(name).orElse(null) instanceof AttributeValue.BinaryValue b ? b.value() : null;
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
    Bytes p = ((AttributeValue.BinaryValue) q.partition()).value();
    NavigableMap<IndexEntry, Key> part = indexes.get(il.name()).get(p);
    if (part == null) {
      return new QueryResult(List.of(), false);
    }
    if (q.descending()) {
      part = part.descendingMap();
    }
    if (q.exclusiveStart() != null) {
      Bytes s = ((AttributeValue.BinaryValue) q.exclusiveStart().indexSort()).value();
      part = part.tailMap(new IndexEntry(s, q.exclusiveStart().key()), false);
    }
    List<StoredItem> matched = new ArrayList<>();
    boolean more = false;
    for (Map.Entry<IndexEntry, Key> e : part.entrySet()) {
      if (!q.range().contains(AttributeValue.of(e.getKey().sort()))) {
        continue;
      }
      StoredItem s = items.get(e.getValue());
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

  QueryResult scan(DriverScan scan) {
    NavigableMap<Key, StoredItem> view =
        scan.exclusiveStart() == null ? items : items.tailMap(scan.exclusiveStart(), false);
    return take(view.values(), scan.limit());
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
