package dev.stowage.internal;

import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.internal.BlobKeys;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.overflow.internal.NoOverflow;
import dev.stowage.spi.TableRef;

/** Chooses the overflow handler for a store and names blob prefixes. */
final class Overflows {
  private Overflows() {}

  /**
   * Blob overflow with a blob store, its calls retried under {@code retrier}; otherwise items must
   * fit as they are.
   */
  static OverflowHandler handler(BlobStore blobStore, Retrier retrier) {
    return blobStore == null ? NoOverflow.INSTANCE : new BlobOverflow(blobStore, retrier);
  }

  /** The blob key prefix of a table. */
  static String blobPrefix(TableRef ref) {
    return BlobKeys.tablePrefix(ref);
  }
}
