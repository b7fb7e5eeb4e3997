package dev.stowage.azure.internal;

import dev.stowage.KeySchema;
import dev.stowage.spi.TableLayout;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The write templates of entities this driver read or wrote most recently, so that a put replacing
 * an entity the application read keeps its properties' EDM types without reading it again.
 *
 * <p>A template holds only what {@link EntityCodec#properties(KeySchema, dev.stowage.item.Item,
 * Map)} consults: properties of the EDM types Stowage never writes itself ({@code Edm.Int32},
 * {@code Edm.DateTime}, {@code Edm.Guid}) or writes only for some values ({@code Edm.Double}), and
 * properties named like a key attribute (an application's copy of its key). On Stowage's own tables
 * only entities with such properties are remembered (an entity Stowage wrote has none, so nothing
 * is remembered for it); on adopted tables every entity is, since there a put of an entity nobody
 * remembers reads it first (see {@link ItemWriter}). At most {@link #CAPACITY} entities, least
 * recently used first out. Thread-safe.
 */
final class Templates {
  /** Entities remembered at most. */
  static final int CAPACITY = 10_000;

  /** The service's last-modified property, on every entity read. */
  private static final String TIMESTAMP = "Timestamp";

  private final Map<String, Map<String, Object>> entries =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, Object>> eldest) {
          return size() > CAPACITY;
        }
      };

  /**
   * The template remembered for an entity: a map (empty when an adopted entity has nothing a write
   * must keep), or null when nothing is remembered.
   */
  Map<String, Object> get(TableLayout layout, String pk, String rk) {
    String k = key(layout, pk, rk);
    synchronized (entries) {
      return entries.get(k);
    }
  }

  /** Remembers the template of an entity read or written with {@code properties}. */
  void remember(TableLayout layout, String pk, String rk, Map<String, Object> properties) {
    Map<String, Object> t = template(layout.keySchema(), properties);
    String k = key(layout, pk, rk);
    synchronized (entries) {
      if (t == null && !layout.adopted()) {
        entries.remove(k);
      } else {
        entries.put(k, t == null ? Map.of() : t);
      }
    }
  }

  /** Forgets an entity (deleted). */
  void forget(TableLayout layout, String pk, String rk) {
    String k = key(layout, pk, rk);
    synchronized (entries) {
      entries.remove(k);
    }
  }

  /** Forgets everything (a table was dropped). */
  void clear() {
    synchronized (entries) {
      entries.clear();
    }
  }

  /** Entities remembered now (for tests). */
  int size() {
    synchronized (entries) {
      return entries.size();
    }
  }

  /** The properties a write must consult, or null when there are none. */
  static Map<String, Object> template(KeySchema schema, Map<String, Object> properties) {
    // A template of one property (the common case) is a singleton map, which needs no hash code of
    // the freshly read property name; more properties go into a hash map.
    String onlyName = null;
    Object onlyValue = null;
    Map<String, Object> t = null;
    KeyCopies copies = keyCopies(schema);
    String partitionCopy = copies.partition();
    String sortCopy = copies.sort();
    for (Map.Entry<String, Object> e : properties.entrySet()) {
      Object v = e.getValue();
      String name = e.getKey();
      if (name.equals(TIMESTAMP)) {
        // The service's own property: never written, so no write consults it (every entity
        // read has one, which would make every entity read a template).
        continue;
      }
      if (v instanceof Integer
          || v instanceof Double
          || v instanceof OffsetDateTime
          || v instanceof UUID
          || name.equals(partitionCopy)
          || name.equals(sortCopy)) {
        if (onlyName == null) {
          onlyName = name;
          onlyValue = v;
          continue;
        }
        if (t == null) {
          t = new HashMap<>(4);
          t.put(onlyName, onlyValue);
        }
        t.put(name, v);
      }
    }
    return t != null
        ? t
        : onlyName != null ? java.util.Collections.singletonMap(onlyName, onlyValue) : null;
  }

  /**
   * The property names under which an application's copy of each key attribute of {@code schema} is
   * stored ({@link PropertyNames#plain}; null when there is no sort key or the name is too long for
   * a property).
   */
  private record KeyCopies(KeySchema schema, String partition, String sort) {}

  /**
   * The key copies of the schema asked for last: every entity read is checked for them, and working
   * the names out (an identifier check each) cost more than the rest of the check.
   */
  private static volatile KeyCopies lastCopies;

  private static KeyCopies keyCopies(KeySchema schema) {
    KeyCopies c = lastCopies;
    if (c == null || c.schema() != schema) {
      c =
          new KeyCopies(
              schema,
              PropertyNames.plain(schema.partitionName()),
              schema.sortName().map(PropertyNames::plain).orElse(null));
      lastCopies = c;
    }
    return c;
  }

  private static String key(TableLayout layout, String pk, String rk) {
    // Azure refuses control characters in table names and keys, so '\n' separates unambiguously.
    return Tables.dataName(layout) + '\n' + pk + '\n' + rk;
  }
}
