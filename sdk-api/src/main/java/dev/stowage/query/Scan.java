package dev.stowage.query;

import dev.stowage.item.AttributeNames;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A scan of a whole table, a page at a time, in an order that is stable for one backend but not the
 * same on every backend. Use queries where order matters. Immutable and thread-safe.
 *
 * @param limit items per page, 1 to {@link Query#MAX_LIMIT}
 * @param filter a filter on each item, or null
 * @param projection attributes to return, or null for all
 * @param consistentRead strongly consistent reads
 */
public record Scan(int limit, Condition filter, Set<String> projection, boolean consistentRead) {
  public Scan {
    if (limit < 1 || limit > Query.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be 1 to " + Query.MAX_LIMIT + ", was " + limit);
    }
    if (projection != null) {
      TreeSet<String> p = new TreeSet<>();
      projection.forEach(a -> p.add(AttributeNames.validate(a)));
      projection = Set.copyOf(p);
    }
  }

  /** A scan returning whole items, 100 a page. */
  public static Scan all() {
    return new Scan(100, null, null, false);
  }

  /** The same scan with another page size. */
  public Scan withLimit(int newLimit) {
    return new Scan(newLimit, filter, projection, consistentRead);
  }

  /** The same scan with a filter. */
  public Scan withFilter(Condition newFilter) {
    return new Scan(limit, Objects.requireNonNull(newFilter), projection, consistentRead);
  }

  /** The filter, if any. */
  public Optional<Condition> filterOptional() {
    return Optional.ofNullable(filter);
  }
}
