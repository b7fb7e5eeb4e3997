package dev.stowage.cost;

import java.util.List;
import java.util.Objects;

/**
 * An estimated cost per table and in total, extrapolated from observed usage to an hour and a month
 * at the same rate. Immutable. {@link CostEstimator} makes it; docs/cost-and-capacity.md explains
 * what is and is not counted.
 *
 * @param tablePricing the table store's model
 * @param blobPricing the blob store's model
 * @param pricesDate the price table's date
 * @param currency the prices' currency
 * @param observedSeconds how long the usage was observed
 * @param tables per table, ordered by namespace and name
 */
public record CostEstimate(
    TablePricing tablePricing,
    BlobPricing blobPricing,
    String pricesDate,
    String currency,
    double observedSeconds,
    List<TableCost> tables) {

  /** Copies the list. */
  public CostEstimate {
    Objects.requireNonNull(tablePricing, "tablePricing");
    Objects.requireNonNull(blobPricing, "blobPricing");
    tables = List.copyOf(tables);
  }

  /** The total per hour. */
  public double perHour() {
    return tables.stream().mapToDouble(TableCost::perHour).sum();
  }

  /** The total per month. */
  public double perMonth() {
    return tables.stream().mapToDouble(TableCost::perMonth).sum();
  }

  /** Where a table's request cost comes from. */
  public enum Basis {
    /**
     * The billable units the backend itself reported for the requests (DynamoDB's consumed
     * capacity, Datastore's entity operations, Azure's transactions), priced under the same
     * backend's model: what the bill will count.
     */
    REPORTED,
    /**
     * Stowage's estimate from the requests, items and bytes it observed: the backend reported no
     * units (the memory driver, or usage from before it did), or the usage is priced under another
     * cloud's model.
     */
    ESTIMATED
  }

  /**
   * One table's cost.
   *
   * @param namespace the namespace
   * @param table the table
   * @param requests what its table requests cost over the observed time
   * @param blobRequests what its overflow blob requests cost over the observed time
   * @param perHour requests and blob requests per hour at the observed rate, plus storage per hour
   * @param perMonth the same per month
   * @param storagePerMonth the storage part of {@code perMonth} (0 where storage is not known)
   * @param basis whether {@code requests} prices the units the backend reported or Stowage's
   *     estimate (blob requests are always counted by Stowage, storage always given by the caller)
   */
  public record TableCost(
      String namespace,
      String table,
      double requests,
      double blobRequests,
      double perHour,
      double perMonth,
      double storagePerMonth,
      Basis basis) {
    /** Checks the basis. */
    public TableCost {
      Objects.requireNonNull(basis, "basis");
    }
  }
}
