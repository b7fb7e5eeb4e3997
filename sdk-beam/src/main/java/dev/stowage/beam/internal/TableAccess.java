package dev.stowage.beam.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.beam.StoreSpec;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import java.io.Serializable;

/**
 * Where a pipeline step reads: opens its store on a worker and names the table in it. Serialised
 * with the pipeline.
 */
public interface TableAccess extends Serializable {
  /** Opens the store and the table (which must exist); the caller closes the result. */
  Reader open();

  /**
   * An opened table.
   *
   * @param driver the store's driver
   * @param layout the table as the driver addresses it
   * @param closer closes what was opened
   */
  record Reader(StorageDriver driver, TableLayout layout, AutoCloseable closer)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        closer.close();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A table of {@code spec} in a store. */
  static TableAccess of(StoreSpec store, SpecSnapshot spec) {
    return () -> {
      Opened opened = Opened.open(store);
      try {
        TableLayout layout = Layouts.of(store.namespace(), spec.spec());
        RetryPolicy.DEFAULT.run(() -> opened.driver().openTable(layout));
        return new Reader(opened.driver(), layout, opened);
      } catch (RuntimeException e) {
        opened.close();
        throw e;
      }
    };
  }

  /** A table of {@code spec} in the store a {@link dev.stowage.Stowage} opens. */
  static TableAccess ofStowage(StoreSpec.Opener<dev.stowage.Stowage> opener, SpecSnapshot spec) {
    return () -> {
      dev.stowage.Stowage stowage = opener.open();
      try {
        TableLayout layout = Layouts.of(stowage.namespace(), spec.spec());
        RetryPolicy.DEFAULT.run(() -> stowage.driver().openTable(layout));
        return new Reader(stowage.driver(), layout, stowage::close);
      } catch (RuntimeException e) {
        stowage.close();
        throw e;
      }
    };
  }
}
