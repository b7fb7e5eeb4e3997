package dev.stowage.datastore.internal;

import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The entities this driver read or wrote most recently, as the templates of the next writes
 * replacing them (see {@link Values}): a put of an item the application read keeps the native
 * types, index flags and meanings of the values it read without reading the entity again.
 *
 * <p>Bounded by {@link #MAX_ENTITIES} entities and about {@link #MAX_BYTES} bytes of property
 * values, least recently used first out; an entity above {@link #MAX_ENTITY_BYTES} is not kept (its
 * next write reads nothing, see {@link Writes#put}). Thread-safe.
 */
final class Templates {
  static final int MAX_ENTITIES = 10_000;
  static final long MAX_BYTES = 32L << 20;
  static final long MAX_ENTITY_BYTES = 256L << 10;

  private record Held(Entity entity, long bytes) {}

  private final LinkedHashMap<Key, Held> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;

  /** The entity remembered under {@code key}, or null. */
  Entity get(Key key) {
    synchronized (entries) {
      Held h = entries.get(key);
      return h == null ? null : h.entity();
    }
  }

  /** Remembers an entity read or written. */
  void remember(Entity e) {
    remember(e, size(e));
  }

  /** Remembers an entity read or written whose {@link #size} is already known. */
  void remember(Entity e, long size) {
    synchronized (entries) {
      Held old =
          size > MAX_ENTITY_BYTES
              ? entries.remove(e.getKey())
              : entries.put(e.getKey(), new Held(e, size));
      if (old != null) {
        bytes -= old.bytes();
      }
      if (size <= MAX_ENTITY_BYTES) {
        bytes += size;
      }
      var it = entries.entrySet().iterator();
      while ((entries.size() > MAX_ENTITIES || bytes > MAX_BYTES) && it.hasNext()) {
        Map.Entry<Key, Held> eldest = it.next();
        bytes -= eldest.getValue().bytes();
        it.remove();
      }
    }
  }

  /** Forgets an entity (deleted). */
  void forget(Key key) {
    synchronized (entries) {
      if (entries.isEmpty()) {
        return; // (a key's hash is computed afresh on every lookup)
      }
      Held old = entries.remove(key);
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

  /** Entities remembered now (for tests). */
  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** About the bytes an entity's values hold: strings and blobs by length, other values 16. */
  static long size(FullEntity<?> e) {
    long n = 64;
    for (Map.Entry<String, Value<?>> p : e.getProperties().entrySet()) {
      n += p.getKey().length() + size(p.getValue());
    }
    return n;
  }

  private static long size(Value<?> v) {
    if (v instanceof StringValue s) {
      return 16 + 2L * s.get().length();
    }
    if (v instanceof BlobValue b) {
      return 16 + b.get().getLength();
    }
    if (v instanceof EntityValue ev) {
      return size(ev.get());
    }
    if (v instanceof ListValue l) {
      long n = 16;
      for (Value<?> x : l.get()) {
        n += size(x);
      }
      return n;
    }
    return 16;
  }
}
