package dev.stowage.cost;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Whether a large item is cheaper inline in the table or moved to the blob store behind a small
 * pointer item, and from which size on: the threshold to give {@link
 * dev.stowage.TableSpec.Builder#overflowAbove}.
 *
 * <p>Per item written, over its life: the write, {@code readsPerWrite} eventually consistent reads
 * and {@code monthsStored} months of storage. Inline, the table bills the whole item (on DynamoDB
 * one write unit per started KB, so a 400 KB item is 400 write units). Moved, it bills a blob put,
 * a blob get per read and blob storage, plus the pointer item in the table. Datastore and Azure
 * bill writes per entity whatever the size, so there moving pays only through storage. Immutable.
 *
 * @param prices the prices
 * @param table the table store's model
 * @param blob the blob store's model
 * @param readsPerWrite reads of an item per write of it, at least 0
 * @param monthsStored months an item version stays stored, at least 0
 * @param pointerBytes the pointer item's size (key, indexed and small attributes, the pointer)
 */
public record OverflowEconomics(
    PriceTable prices,
    TablePricing table,
    BlobPricing blob,
    double readsPerWrite,
    double monthsStored,
    long pointerBytes) {

  /** The smallest threshold {@link dev.stowage.TableSpec.Builder#overflowAbove} accepts. */
  public static final long MIN_THRESHOLD = 1024;

  /** Checks the arguments. */
  public OverflowEconomics {
    Objects.requireNonNull(prices, "prices");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(blob, "blob");
    if (readsPerWrite < 0 || monthsStored < 0 || pointerBytes < 1) {
      throw new IllegalArgumentException("need readsPerWrite >= 0, monthsStored >= 0, pointer > 0");
    }
  }

  private double write(long bytes) {
    return switch (table) {
      case DYNAMODB_ON_DEMAND ->
          ceil(bytes, 1024) * prices.price("dynamodb.on-demand.write-request-unit");
      // A unit-second of capacity at 100% use: capacity priced per hour.
      case DYNAMODB_PROVISIONED ->
          ceil(bytes, 1024) * prices.price("dynamodb.provisioned.wcu-hour") / 3600;
      case DATASTORE -> prices.price("datastore.entity-write");
      case AZURE_TABLES -> prices.price("azure-tables.transaction");
    };
  }

  private double read(long bytes) {
    return switch (table) {
      case DYNAMODB_ON_DEMAND ->
          ceil(bytes, 4096) / 2.0 * prices.price("dynamodb.on-demand.read-request-unit");
      case DYNAMODB_PROVISIONED ->
          ceil(bytes, 4096) / 2.0 * prices.price("dynamodb.provisioned.rcu-hour") / 3600;
      case DATASTORE -> prices.price("datastore.entity-read");
      case AZURE_TABLES -> prices.price("azure-tables.transaction");
    };
  }

  private double tableStorage(long bytes) {
    return bytes / 1e9 * prices.price(table.storageKey()) * monthsStored;
  }

  private static long ceil(long bytes, int unit) {
    return Math.max(1, (bytes + unit - 1) / unit);
  }

  /** The life cost of an item of {@code bytes} kept inline. */
  public double inlineCost(long bytes) {
    return write(bytes) + readsPerWrite * read(bytes) + tableStorage(bytes);
  }

  /** The life cost of the same item moved to a blob behind a pointer item. */
  public double movedCost(long bytes) {
    return blob.put(prices)
        + write(pointerBytes)
        + readsPerWrite * (blob.get(prices) + read(pointerBytes))
        + bytes / 1e9 * blob.storageGbMonth(prices) * monthsStored
        + tableStorage(pointerBytes);
  }

  /**
   * The size above which moving is cheaper, for every larger item up to {@code maxBytes}: a value
   * for {@link dev.stowage.TableSpec.Builder#overflowAbove}. Sizes are checked in 256-byte steps
   * down from {@code maxBytes} to {@link #MIN_THRESHOLD}, then byte by byte; empty if keeping an
   * item of {@code maxBytes} inline is cheaper.
   */
  public OptionalLong threshold(long maxBytes) {
    if (maxBytes < MIN_THRESHOLD || movedCost(maxBytes) >= inlineCost(maxBytes)) {
      return OptionalLong.empty();
    }
    long t = maxBytes;
    for (long s = maxBytes; s >= MIN_THRESHOLD; s -= 256) {
      if (movedCost(s) < inlineCost(s)) {
        t = s;
      } else {
        break;
      }
    }
    // Refine between the last step where inline won and the first where moving did, byte by byte.
    long first = t;
    for (long s = Math.max(MIN_THRESHOLD, t - 255); s < t; s++) {
      if (movedCost(s) < inlineCost(s)) {
        first = s;
        break;
      }
    }
    return OptionalLong.of(Math.max(MIN_THRESHOLD, first - 1));
  }
}
