package dev.stowage.spi;

import dev.stowage.item.KeyValue;
import java.util.Objects;
import java.util.Set;

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
 * <p>For an index Stowage maintains, {@code partition} and the range hold the binary encodings of
 * the index's synthesized attributes. For a {@linkplain IndexLayout#isNative() native index} they
 * hold raw values, as for the primary key: {@code partition} is the value of the index's partition
 * attribute (of its {@link IndexLayout#partitionType()}), the range bounds and prefix values of its
 * sort attribute (of its {@link IndexLayout#sortType()}; always {@link KeyRange#ALL} without one),
 * and positions carry the raw sort value, or null without a sort attribute.
 *
 * @param index the index name, or null for the primary key
 * @param partition the partition key value, the binary index partition value, or the raw partition
 *     value of a native index
 * @param range the sort range
 * @param descending reverse order
 * @param limit most items to return, at least 1
 * @param exclusiveStart resume after this position, or null to start at the range's edge
 *     <p>{@code attributes}, when not null, names every attribute the core will look at in the
 *     items returned (it includes the key attributes, the index's attributes and Stowage's reserved
 *     ones the core needs): a driver may return only those, as a read with a projection, to send
 *     and parse less; it may also ignore it and return whole items. Order, limits and positions are
 *     unaffected.
 * @param consistentRead strongly consistent read where the backend offers it
 * @param attributes the attributes the core needs from each item, or null for whole items
 */
public record DriverQuery(
    String index,
    KeyValue partition,
    KeyRange range,
    boolean descending,
    int limit,
    Position exclusiveStart,
    boolean consistentRead,
    Set<String> attributes) {
  public DriverQuery {
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(range, "range");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
    attributes = attributes == null ? null : Set.copyOf(attributes);
  }

  /** A query returning whole items. */
  public DriverQuery(
      String index,
      KeyValue partition,
      KeyRange range,
      boolean descending,
      int limit,
      Position exclusiveStart,
      boolean consistentRead) {
    this(index, partition, range, descending, limit, exclusiveStart, consistentRead, null);
  }
}
