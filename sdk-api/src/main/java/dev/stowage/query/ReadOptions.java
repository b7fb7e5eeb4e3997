package dev.stowage.query;

import dev.stowage.item.AttributeNames;
import java.util.Set;
import java.util.TreeSet;

/**
 * Options for a single-item or batch read. Immutable and thread-safe.
 *
 * @param projection the attributes to return (key attributes are always returned), or null for all;
 *     a projection that needs no overflowed attribute fetches no blob
 * @param consistentRead strongly consistent read
 */
public record ReadOptions(Set<String> projection, boolean consistentRead) {
  /** Whole items, eventually consistent where the backend distinguishes. */
  public static final ReadOptions DEFAULT = new ReadOptions(null, false);

  /** Whole items, strongly consistent. */
  public static final ReadOptions CONSISTENT = new ReadOptions(null, true);

  public ReadOptions {
    if (projection != null) {
      TreeSet<String> p = new TreeSet<>();
      projection.forEach(a -> p.add(AttributeNames.validate(a)));
      projection = Set.copyOf(p);
    }
  }

  /** Only these attributes (plus the key). */
  public static ReadOptions project(String... attributes) {
    return new ReadOptions(Set.of(attributes), false);
  }
}
