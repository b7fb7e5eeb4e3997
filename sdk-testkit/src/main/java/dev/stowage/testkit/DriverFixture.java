package dev.stowage.testkit;

import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;

/**
 * What a driver module hands the conformance kit: a driver and a blob store, both connected to real
 * backends (an emulator the fixture started, or the in-memory reference implementation).
 *
 * <p>The kit creates one fixture per test class (in {@code @BeforeAll}) and closes it once every
 * contract has run (in {@code @AfterAll}); the driver and blob store are shared by all contracts,
 * which isolate themselves with fresh namespaces. Implementations must be thread-safe (several
 * contracts use many threads) and must stop in {@link #close()} whatever they started (emulator
 * processes, servers), registering a JVM shutdown hook as a backstop. A fixture whose emulator
 * cannot start must throw from its constructor or factory with a message saying what to install, so
 * that the test run fails instead of skipping.
 */
public interface DriverFixture extends AutoCloseable {

  /** The driver under test; never null, the same instance on every call. */
  StorageDriver driver();

  /**
   * The blob store oversized items overflow to; never null, the same instance on every call. A
   * backend's real store (S3, GCS, Azure Blob on their emulators), or {@link
   * dev.stowage.overflow.MemoryBlobStore}.
   */
  BlobStore blobStore();

  /**
   * How large the heavy contracts run against this driver; {@link Scale#full()} unless an emulator
   * is too slow for the full counts. Every reduction is bounded below by {@link Scale}.
   */
  default Scale scale() {
    return Scale.full();
  }

  /**
   * Gives the backend the native secondary indexes of a table layout ({@link
   * dev.stowage.spi.IndexLayout#isNative()}), the way the application's own tools would, before the
   * kit opens the table with {@code Stowage.ensureTable}: drivers check that native indexes exist
   * but never create them. Where the backend can only create them with the table (a DynamoDB LSI)
   * or the table must exist first, the fixture creates the table too, with the layout's key schema
   * and any indexes Stowage maintains, as {@code ensureTable} would.
   *
   * <p>The default does nothing, for backends whose native indexes need no creation (the memory
   * driver creates what its layouts declare; Datastore indexes single properties by itself) and for
   * backends without native indexes, whose driver then refuses the layout.
   *
   * @param layout the table's layout, in the namespace of the test
   */
  default void createNativeIndexes(dev.stowage.spi.TableLayout layout) {}

  /** Closes the driver and blob store and stops whatever the fixture started. */
  @Override
  void close();

  /**
   * A fixture over a running driver and blob store. {@link #close()} closes the driver, then the
   * blob store, then runs {@code onClose} (for example stopping the emulator), even if an earlier
   * step failed; the first failure is rethrown with later ones suppressed.
   *
   * @param onClose what else to stop, or null
   * @throws NullPointerException if {@code driver}, {@code blobStore} or {@code scale} is null
   */
  static DriverFixture of(
      StorageDriver driver, BlobStore blobStore, Scale scale, Runnable onClose) {
    return of(driver, blobStore, scale, onClose, null);
  }

  /**
   * A fixture like {@link #of(StorageDriver, BlobStore, Scale, Runnable)} whose {@link
   * #createNativeIndexes} runs {@code nativeIndexes}.
   *
   * @param nativeIndexes what creates a layout's native indexes, or null for nothing
   */
  static DriverFixture of(
      StorageDriver driver,
      BlobStore blobStore,
      Scale scale,
      Runnable onClose,
      java.util.function.Consumer<dev.stowage.spi.TableLayout> nativeIndexes) {
    java.util.Objects.requireNonNull(driver, "driver");
    java.util.Objects.requireNonNull(blobStore, "blobStore");
    java.util.Objects.requireNonNull(scale, "scale");
    return new DriverFixture() {
      @Override
      public StorageDriver driver() {
        return driver;
      }

      @Override
      public BlobStore blobStore() {
        return blobStore;
      }

      @Override
      public Scale scale() {
        return scale;
      }

      @Override
      public void createNativeIndexes(dev.stowage.spi.TableLayout layout) {
        if (nativeIndexes != null) {
          nativeIndexes.accept(layout);
        }
      }

      @Override
      public void close() {
        RuntimeException failure = null;
        for (Runnable step : new Runnable[] {driver::close, blobStore::close, onClose}) {
          if (step == null) {
            continue;
          }
          try {
            step.run();
          } catch (RuntimeException e) {
            if (failure == null) {
              failure = e;
            } else {
              failure.addSuppressed(e);
            }
          }
        }
        if (failure != null) {
          throw failure;
        }
      }
    };
  }
}
