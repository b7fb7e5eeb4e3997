package dev.stowage.dynamodb;

/**
 * Capacity units DynamoDB reported as consumed on one table (including its GSIs) since the driver
 * was created, summed from {@code ReturnConsumedCapacity} on every call of a driver built with
 * {@link DynamoDbDriver.Builder#countConsumedCapacity(boolean) countConsumedCapacity(true)}.
 * Immutable.
 *
 * @param readUnits units consumed by reads (GetItem, BatchGetItem, Query, Scan)
 * @param writeUnits units consumed by writes (PutItem, DeleteItem, UpdateItem, BatchWriteItem,
 *     TransactWriteItems)
 */
public record CapacityUsage(double readUnits, double writeUnits) {
  /** No capacity consumed. */
  public static final CapacityUsage NONE = new CapacityUsage(0, 0);

  /** Read plus write units. */
  public double totalUnits() {
    return readUnits + writeUnits;
  }
}
