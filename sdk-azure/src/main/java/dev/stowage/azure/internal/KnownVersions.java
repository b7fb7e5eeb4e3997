package dev.stowage.azure.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The versions this driver last wrote of items whose puts want the replaced item back (the core
 * asks for it when a blob store is configured, to release the replaced version's overflow blob).
 * The next such put of the item writes under the remembered ETag ({@code If-Match}): when it
 * succeeds, the remembered version is exactly the one it replaced, learned without a read; when
 * another writer changed the item meanwhile, Azure refuses the write and {@link ItemWriter} reads
 * the item before writing, as for an item it does not remember. A stale memory therefore costs a
 * request, never a wrong answer.
 *
 * <p>Bounded by {@link #CAPACITY} items and about {@link #MAX_BYTES} bytes of attribute values,
 * least recently used first out; an item above {@link #MAX_ITEM_BYTES} is not kept. Thread-safe.
 */
final class KnownVersions {
  static final int CAPACITY = 10_000;
  static final long MAX_BYTES = 32L << 20;
  static final long MAX_ITEM_BYTES = 64L << 10;

  private record Held(StoredItem version, long bytes) {}

  private final LinkedHashMap<String, Held> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;

  /** The version remembered for an item, or null. */
  StoredItem get(TableLayout layout, String pk, String rk) {
    String k = key(layout, pk, rk);
    synchronized (entries) {
      Held h = entries.get(k);
      return h == null ? null : h.version();
    }
  }

  /** Remembers the version just written (its item and ETag). */
  void remember(TableLayout layout, String pk, String rk, StoredItem version) {
    long size = size(version.item());
    String k = key(layout, pk, rk);
    synchronized (entries) {
      Held old =
          size > MAX_ITEM_BYTES ? entries.remove(k) : entries.put(k, new Held(version, size));
      if (old != null) {
        bytes -= old.bytes();
      }
      if (size <= MAX_ITEM_BYTES) {
        bytes += size;
      }
      var it = entries.entrySet().iterator();
      while ((entries.size() > CAPACITY || bytes > MAX_BYTES) && it.hasNext()) {
        bytes -= it.next().getValue().bytes();
        it.remove();
      }
    }
  }

  /** Forgets an item (deleted, or its memory proved stale). */
  void forget(TableLayout layout, String pk, String rk) {
    String k = key(layout, pk, rk);
    synchronized (entries) {
      Held old = entries.remove(k);
      if (old != null) {
        bytes -= old.bytes();
      }
    }
  }

  /** Forgets everything (a table was dropped). */
  void clear() {
    synchronized (entries) {
      entries.clear();
      bytes = 0;
    }
  }

  /** Items remembered now (for tests). */
  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** About the bytes an item holds: strings at two bytes a character, binaries by length. */
  static long size(Item item) {
    long n = 64;
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      n += 2L * e.getKey().length() + size(e.getValue());
    }
    return n;
  }

  private static long size(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return 16 + 2L * s.value().length();
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return 16 + b.value().size();
    }
    if (v instanceof AttributeValue.ListValue l) {
      long n = 16;
      for (AttributeValue x : l.values()) {
        n += size(x);
      }
      return n;
    }
    if (v instanceof AttributeValue.MapValue m) {
      long n = 16;
      for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
        n += 2L * e.getKey().length() + size(e.getValue());
      }
      return n;
    }
    if (v instanceof AttributeValue.StringSetValue s) {
      long n = 16;
      for (String x : s.values()) {
        n += 16 + 2L * x.length();
      }
      return n;
    }
    if (v instanceof AttributeValue.BinarySetValue s) {
      long n = 16;
      for (var x : s.values()) {
        n += 16 + x.size();
      }
      return n;
    }
    if (v instanceof AttributeValue.NumberSetValue s) {
      return 16 + 24L * s.values().size();
    }
    return 24;
  }

  private static String key(TableLayout layout, String pk, String rk) {
    // Azure refuses control characters in table names and keys, so '\n' separates unambiguously.
    return Tables.dataName(layout) + '\n' + pk + '\n' + rk;
  }
}
