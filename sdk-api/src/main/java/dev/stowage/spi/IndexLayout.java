package dev.stowage.spi;

import dev.stowage.IndexSpec;

/**
 * How a secondary index appears to a driver: two synthesized binary attributes on each indexed
 * item. The partition attribute holds the order-preserving encoding of the index's partition values
 * after a fingerprint of the index definition, the sort attribute that of its sort values (never
 * empty); both are opaque to drivers. Items lacking an index attribute carry neither, so indexes
 * are sparse. A driver indexes items by (partition, sort, primary key) and returns index queries in
 * that order.
 *
 * @param name the index name
 * @param partitionAttribute name of the synthesized partition attribute
 * @param sortAttribute name of the synthesized sort attribute
 * @param projection what index queries return; drivers may store more
 */
public record IndexLayout(
    String name, String partitionAttribute, String sortAttribute, IndexSpec.Projection projection) {

  /** Prefix of the synthesized attributes: {@code stowage:ix:<index>:p} and {@code …:s}. */
  public static final String ATTRIBUTE_PREFIX =
      dev.stowage.item.AttributeNames.RESERVED_PREFIX + "ix:";

  /** The layout Stowage's core uses for an index spec. */
  public static IndexLayout of(IndexSpec spec) {
    return new IndexLayout(
        spec.name(),
        ATTRIBUTE_PREFIX + spec.name() + ":p",
        ATTRIBUTE_PREFIX + spec.name() + ":s",
        spec.projection());
  }
}
