package dev.stowage.beam;

import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import java.io.Serializable;
import java.util.Objects;

/**
 * How a Beam worker opens one Stowage store: a driver, its blob store and a namespace. Drivers and
 * blob stores hold network clients and are not serialisable, so a pipeline carries this recipe
 * instead; every DoFn instance opens its own driver and blob store from it when it is set up and
 * closes them when it is torn down.
 *
 * <p>The openers are {@link Serializable} lambdas or classes: they are serialised with the pipeline
 * and run on the workers, so they must build their clients from what they capture (endpoints,
 * project ids, connection strings — or, better, credentials the workers find in their environment)
 * and not capture a client. Immutable and thread-safe when the openers are.
 *
 * <pre>{@code
 * StoreSpec source =
 *     StoreSpec.of(
 *         () -> DynamoDbDriver.builder().region(Region.EU_WEST_1).build(),
 *         () -> S3BlobStore.builder().bucket("overflow").region(Region.EU_WEST_1).build(),
 *         "prod");
 * }</pre>
 *
 * @param driver opens the store's driver (called once per DoFn instance)
 * @param blobs opens the store's blob store, or null if the table never overflows
 * @param namespace the namespace, empty for the root namespace
 * @param location where the store is, as {@link
 *     dev.stowage.migrate.Migrator.Builder#sourceLocation} takes it, or null for the driver's own
 *     {@link StorageDriver#location()}
 */
public record StoreSpec(
    Opener<StorageDriver> driver, Opener<BlobStore> blobs, String namespace, String location)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public StoreSpec {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(namespace, "namespace");
  }

  /** A store in {@code namespace}, located where its driver says it is. */
  public static StoreSpec of(
      Opener<StorageDriver> driver, Opener<BlobStore> blobs, String namespace) {
    return new StoreSpec(driver, blobs, namespace, null);
  }

  /**
   * This store, located at {@code location} (for drivers that cannot tell two stores apart; see
   * {@link dev.stowage.migrate.Migrator.Builder#sourceLocation}).
   */
  public StoreSpec at(String location) {
    return new StoreSpec(driver, blobs, namespace, location);
  }

  /**
   * Opens one client; serialised with the pipeline.
   *
   * @param <T> what it opens
   */
  @FunctionalInterface
  public interface Opener<T> extends Serializable {
    /** Opens a new client; the caller closes it. */
    T open();
  }
}
