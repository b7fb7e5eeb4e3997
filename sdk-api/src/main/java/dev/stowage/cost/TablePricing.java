package dev.stowage.cost;

import dev.stowage.usage.TableUsage;
import java.util.Locale;

/**
 * How a table store bills, priced from a {@link PriceTable}. Each model prices the same {@link
 * TableUsage} by its own rules, so an application's usage can be priced on every cloud.
 */
public enum TablePricing {
  /** DynamoDB on-demand: per read and write request unit (the DynamoDB units of the usage). */
  DYNAMODB_ON_DEMAND("dynamodb-on-demand", "dynamodb.storage-gb-month"),
  /**
   * DynamoDB provisioned: capacity-hours. The capacity is the usage's average units per second
   * divided by the target utilisation, so it is a lower bound: peaks need more.
   */
  DYNAMODB_PROVISIONED("dynamodb-provisioned", "dynamodb.storage-gb-month"),
  /** Firestore in Datastore mode: per entity read (at least one per query page), write, delete. */
  DATASTORE("datastore", "datastore.storage-gb-month"),
  /** Azure Table Storage: per storage transaction (each request; a batch is one). */
  AZURE_TABLES("azure-tables", "azure-tables.storage-gb-month");

  private final String id;
  private final String storageKey;

  TablePricing(String id, String storageKey) {
    this.id = id;
    this.storageKey = storageKey;
  }

  /** The model's name on the command line, for example {@code dynamodb-on-demand}. */
  public String id() {
    return id;
  }

  /**
   * The model for a name ({@link #id()}).
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static TablePricing of(String id) {
    for (TablePricing p : values()) {
      if (p.id.equals(id.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown table pricing '"
            + id
            + "': one of dynamodb-on-demand, dynamodb-provisioned, datastore, azure-tables");
  }

  /**
   * The model of a driver's backend: on-demand for {@code dynamodb}; none for drivers without a
   * cloud bill (the memory driver), for which a model must be chosen.
   *
   * @throws IllegalArgumentException for a backend without a model
   */
  public static TablePricing forBackend(String backend) {
    return switch (backend) {
      case "dynamodb" -> DYNAMODB_ON_DEMAND;
      case "datastore" -> DATASTORE;
      case "azure" -> AZURE_TABLES;
      default ->
          throw new IllegalArgumentException(
              "backend '" + backend + "' has no cloud price: choose a table pricing model");
    };
  }

  /**
   * The driver name of the backend this model bills ({@code dynamodb}, {@code datastore}, {@code
   * azure}).
   */
  String backend() {
    return switch (this) {
      case DYNAMODB_ON_DEMAND, DYNAMODB_PROVISIONED -> "dynamodb";
      case DATASTORE -> "datastore";
      case AZURE_TABLES -> "azure";
    };
  }

  /**
   * What the units the backend reported for {@code u} cost over {@code seconds} seconds: this
   * model's backend's own units, so only meaningful when {@code u} was recorded on that backend.
   * DynamoDB bills deletes at the write price, Datastore at the entity-delete price, Azure each
   * request as one transaction.
   */
  double reportedCost(TableUsage u, double seconds, PriceTable p, double utilisation) {
    double read = u.reportedReadUnits();
    double write = u.reportedWriteUnits();
    double delete = u.reportedDeleteUnits();
    return switch (this) {
      case DYNAMODB_ON_DEMAND ->
          (write + delete) * p.price("dynamodb.on-demand.write-request-unit")
              + read * p.price("dynamodb.on-demand.read-request-unit");
      case DYNAMODB_PROVISIONED -> {
        double hours = seconds / 3600;
        double wcu = (write + delete) / seconds / utilisation;
        double rcu = read / seconds / utilisation;
        yield hours
            * (wcu * p.price("dynamodb.provisioned.wcu-hour")
                + rcu * p.price("dynamodb.provisioned.rcu-hour"));
      }
      case DATASTORE ->
          read * p.price("datastore.entity-read")
              + write * p.price("datastore.entity-write")
              + delete * p.price("datastore.entity-delete");
      case AZURE_TABLES -> (read + write + delete) * p.price("azure-tables.transaction");
    };
  }

  /** The price key of a GB-month of storage. */
  String storageKey() {
    return storageKey;
  }

  /**
   * What {@code u} cost over {@code seconds} seconds of tracking (requests only; storage is priced
   * separately).
   *
   * @param utilisation the target utilisation of provisioned capacity, in (0, 1]
   */
  double requestCost(TableUsage u, double seconds, PriceTable p, double utilisation) {
    return switch (this) {
      case DYNAMODB_ON_DEMAND ->
          u.writeUnits() * p.price("dynamodb.on-demand.write-request-unit")
              + u.readUnits() * p.price("dynamodb.on-demand.read-request-unit");
      case DYNAMODB_PROVISIONED -> {
        double hours = seconds / 3600;
        double wcu = u.writeUnits() / seconds / utilisation;
        double rcu = u.readUnits() / seconds / utilisation;
        yield hours
            * (wcu * p.price("dynamodb.provisioned.wcu-hour")
                + rcu * p.price("dynamodb.provisioned.rcu-hour"));
      }
      case DATASTORE ->
          (u.itemsRead() + u.emptyPages()) * p.price("datastore.entity-read")
              + u.itemsWritten() * p.price("datastore.entity-write")
              + u.itemsDeleted() * p.price("datastore.entity-delete");
      case AZURE_TABLES -> u.requests() * p.price("azure-tables.transaction");
    };
  }
}
