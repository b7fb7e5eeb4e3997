package dev.stowage.cost;

import dev.stowage.usage.TableUsage;
import java.util.Locale;

/**
 * How a blob store bills overflow blobs: per put, get and other request, priced by a {@link
 * PriceTable}.
 */
public enum BlobPricing {
  /** Amazon S3 Standard. */
  S3("s3"),
  /** Google Cloud Storage Standard. */
  GCS("gcs"),
  /** Azure Blob Storage, Hot tier. */
  AZURE_BLOB("azure-blob");

  private final String id;

  BlobPricing(String id) {
    this.id = id;
  }

  /** The model's name, also its price keys' prefix, for example {@code s3}. */
  public String id() {
    return id;
  }

  /**
   * The model for a name ({@link #id()}).
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static BlobPricing of(String id) {
    for (BlobPricing p : values()) {
      if (p.id.equals(id.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown blob pricing '" + id + "': one of s3, gcs, azure-blob");
  }

  /** The blob store that goes with a table store's model: S3, GCS or Azure Blob. */
  public static BlobPricing alongside(TablePricing table) {
    return switch (table) {
      case DYNAMODB_ON_DEMAND, DYNAMODB_PROVISIONED -> S3;
      case DATASTORE -> GCS;
      case AZURE_TABLES -> AZURE_BLOB;
    };
  }

  double put(PriceTable p) {
    return p.price(id + ".put");
  }

  double get(PriceTable p) {
    return p.price(id + ".get");
  }

  double storageGbMonth(PriceTable p) {
    return p.price(id + ".storage-gb-month");
  }

  /** What {@code u}'s blob requests cost. */
  double requestCost(TableUsage u, PriceTable p) {
    return u.blobPuts() * put(p) + u.blobGets() * get(p) + u.blobOther() * p.price(id + ".other");
  }
}
