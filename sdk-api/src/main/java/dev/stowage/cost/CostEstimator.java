package dev.stowage.cost;

import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Prices a {@link UsageSnapshot}: each table's requests and overflow blob requests under a table
 * and blob pricing model, scaled from the observed time to an hour and a month, plus storage where
 * the caller knows it. Immutable and thread-safe.
 *
 * <p>Where the backend reported the billable units of the table's requests ({@link
 * TableUsage#hasReportedUnits}: DynamoDB's consumed capacity, Datastore's entity operations,
 * Azure's transactions, counted over the snapshot's own window) and the model is that backend's,
 * the request cost prices those units ({@link CostEstimate.Basis#REPORTED}); otherwise it prices
 * Stowage's estimate from the requests, items and bytes it observed ({@link
 * CostEstimate.Basis#ESTIMATED}). Only the table-as-a-whole units are used: a backend's per-index
 * breakdown is already in them.
 *
 * <pre>{@code
 * CostEstimate e = new CostEstimator(PriceTable.defaults(), TablePricing.DYNAMODB_ON_DEMAND)
 *     .estimate(store.usage());
 * }</pre>
 */
public final class CostEstimator {
  private final PriceTable prices;
  private final TablePricing tablePricing;
  private final BlobPricing blobPricing;
  private final double utilisation;
  private final Map<String, Storage> storage;

  /**
   * Stored bytes of one table, where known (tracking cannot see what was stored before it started).
   *
   * @param itemBytes bytes of the table's items (and indexes) as the backend stores them
   * @param blobBytes bytes of its overflow blobs
   */
  public record Storage(long itemBytes, long blobBytes) {}

  /**
   * An estimator with the blob store that goes with the table's, 70% target utilisation, no
   * storage.
   */
  public CostEstimator(PriceTable prices, TablePricing tablePricing) {
    this(prices, tablePricing, BlobPricing.alongside(tablePricing), 0.7, Map.of());
  }

  /**
   * An estimator.
   *
   * @param utilisation the target utilisation provisioned capacity is sized for, in (0, 1]
   * @param storage stored bytes by {@code "namespace/table"} ({@code "/table"} in the root
   *     namespace); tables not listed are priced without storage
   */
  public CostEstimator(
      PriceTable prices,
      TablePricing tablePricing,
      BlobPricing blobPricing,
      double utilisation,
      Map<String, Storage> storage) {
    this.prices = Objects.requireNonNull(prices, "prices");
    this.tablePricing = Objects.requireNonNull(tablePricing, "tablePricing");
    this.blobPricing = Objects.requireNonNull(blobPricing, "blobPricing");
    if (!(utilisation > 0 && utilisation <= 1)) {
      throw new IllegalArgumentException("utilisation must be in (0, 1]");
    }
    this.utilisation = utilisation;
    this.storage = Map.copyOf(storage);
  }

  /** Prices the snapshot. */
  public CostEstimate estimate(UsageSnapshot usage) {
    double seconds = usage.observed().toMillis() / 1000.0;
    double hours = seconds / 3600;
    double month = prices.hoursPerMonth();
    List<CostEstimate.TableCost> out = new ArrayList<>();
    for (TableUsage t : usage.tables()) {
      boolean reported = t.hasReportedUnits() && tablePricing.backend().equals(usage.backend());
      double requests =
          reported
              ? tablePricing.reportedCost(t, seconds, prices, utilisation)
              : tablePricing.requestCost(t, seconds, prices, utilisation);
      double blobs = blobPricing.requestCost(t, prices);
      Storage s = storage.get(t.namespace() + "/" + t.table());
      double storagePerMonth =
          s == null
              ? 0
              : s.itemBytes() / 1e9 * prices.price(tablePricing.storageKey())
                  + s.blobBytes() / 1e9 * blobPricing.storageGbMonth(prices);
      double perHour = (requests + blobs) / hours + storagePerMonth / month;
      out.add(
          new CostEstimate.TableCost(
              t.namespace(),
              t.table(),
              requests,
              blobs,
              perHour,
              perHour * month,
              storagePerMonth,
              reported ? CostEstimate.Basis.REPORTED : CostEstimate.Basis.ESTIMATED));
    }
    return new CostEstimate(
        tablePricing, blobPricing, prices.date(), prices.currency(), seconds, out);
  }
}
