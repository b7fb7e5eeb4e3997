package dev.stowage.spi;

import dev.stowage.item.KeyValue;
import java.util.Objects;

/**
 * A query of one partition of a table or index, as the core hands it to a driver.
 *
 * <p>The driver returns items whose sort value lies in {@code range}, in sort order ({@code
 * descending} reverses it; index entries with equal sort values are ordered by primary key),
 * strictly beyond {@code exclusiveStart} when given, at most {@code limit} of them. It may return
 * fewer (a backend page limit) and says with {@link QueryResult#more()} whether more may follow.
 *
 * <p>Index queries return whole stored items, whatever the index's projection: the core checks each
 * hit against the index's source attributes it holds (another tool may have changed them without
 * updating the synthesized values) and projects {@code KEYS_ONLY} results itself.
 *
 * @param index the index name, or null for the primary key
 * @param partition the partition key value, or the binary index partition value
 * @param range the sort range
 * @param descending reverse order
 * @param limit most items to return, at least 1
 * @param exclusiveStart resume after this position, or null to start at the range's edge
 * @param consistentRead strongly consistent read where the backend offers it
 */
public record DriverQuery(
    String index,
    KeyValue partition,
    KeyRange range,
    boolean descending,
    int limit,
    Position exclusiveStart,
    boolean consistentRead) {
  public DriverQuery {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(range, "range");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
  }
}
