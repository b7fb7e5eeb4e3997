package dev.stowage.spi;

/**
 * Receives the billable units each request of a driver consumed, in its backend's pricing model, so
 * the core can count them per table: DynamoDB's own consumed read and write capacity units,
 * Datastore's entity reads, writes and deletes, Azure's storage transactions. Set by the core with
 * {@link StorageDriver#capacityListener} when the store counts capacity; called on the thread that
 * made the request, after it returned. Implementations are fast and thread-safe and never throw.
 */
@FunctionalInterface
public interface CapacityListener {
  /** Discards everything. */
  CapacityListener NONE = (table, index, read, write, delete) -> {};

  /**
   * A request on {@code table} consumed units.
   *
   * @param table the table
   * @param index "" for the request as a whole (the table and its indexes together); an index name
   *     for the part of that whole one index consumed (a breakdown, already in the whole)
   * @param readUnits units billed at the read price
   * @param writeUnits units billed at the write price
   * @param deleteUnits units of deletes (billed at the delete price where there is one, Datastore;
   *     at the write price on DynamoDB and Azure)
   */
  void consumed(
      TableRef table, String index, double readUnits, double writeUnits, double deleteUnits);
}
