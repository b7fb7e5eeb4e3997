package dev.stowage.internal;

import dev.stowage.ItemTooLargeException;
import dev.stowage.StowageException;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StoredItem;
import java.util.Collection;
import java.util.Optional;

/**
 * The overflow write protocol of one table, the one place every write path (single puts and
 * deletes, compare-and-set, batches, transactions, delete jobs) follows:
 *
 * <ol>
 *   <li>{@link #prepare}: the blob is written before the item that points to it;
 *   <li>if the item write then fails for sure, {@link #abandon} deletes that blob; after an
 *       ambiguous failure (a lost response: the write may have landed) the blob stays, and the
 *       sweeper reclaims it if no item points to it;
 *   <li>once the item write has committed, {@link #release} deletes the blob of the version it
 *       replaced or deleted. A failure there does not fail the write: the blob is counted and left
 *       to the sweeper.
 * </ol>
 *
 * <p>A blob is only ever deleted when no committed item can point to it: its own write certainly
 * failed, or the item version naming it was replaced. Whatever a crash or a lost response leaves
 * behind is an unreferenced blob, never a dangling pointer. Thread-safe.
 */
final class OverflowWrites {
  private final CoreTable t;

  OverflowWrites(CoreTable t) {
    this.t = t;
  }

  /** Makes an encoded item fit the backend, writing its blob first if some attributes move. */
  OverflowHandler.Prepared prepare(Item stored) {
    DriverLimits limits = t.shared.driver.limits(t.layout);
    long threshold = t.spec.overflowThreshold().orElse(Long.MAX_VALUE);
    if (threshold < limits.maxItemBytes()) {
      try {
        // Cheaper in the blob store: plan against the lower threshold. Planning fails before any
        // blob is written, so a failure here leaves nothing behind.
        return t.shared.overflow.prepare(t.ref, t.spec, lowered(limits, threshold), stored);
      } catch (ItemTooLargeException e) {
        // No blob store, or the unmovable attributes exceed the threshold: the backend's limit
        // decides, as without a threshold.
      }
    }
    return t.shared.overflow.prepare(t.ref, t.spec, limits, stored);
  }

  private static DriverLimits lowered(DriverLimits l, long maxItemBytes) {
    return new DriverLimits(
        maxItemBytes,
        l.maxAttributeBytes(),
        l.maxAttributes(),
        l.maxIndexedValueBytes(),
        l.maxIndexTupleBytes(),
        l.maxPartitionKeyBytes(),
        l.maxSortKeyBytes(),
        l.maxBatchGet(),
        l.maxBatchWrite(),
        l.maxTransactionItems(),
        l.sizeModel());
  }

  /**
   * Deletes the blobs of prepared items none of which was written (the write failed for sure, or it
   * was never sent). Items that did not overflow are skipped.
   */
  void abandon(Collection<OverflowHandler.Prepared> prepared) {
    prepared.forEach(this::abandon);
  }

  /** Deletes the blob of a prepared item that was certainly not written, if it has one. */
  void abandon(OverflowHandler.Prepared prepared) {
    if (prepared.blobKey() != null) {
      t.shared.overflow.abandon(t.ref, prepared);
    }
  }

  /**
   * Deletes a freshly written blob after its write failed for sure. After an ambiguous failure the
   * item may have been written, so the blob stays (the sweeper reclaims it if unreferenced).
   */
  void abandonIfDefinite(OverflowHandler.Prepared prepared, StowageException e) {
    if (definite(e)) {
      abandon(prepared);
    }
  }

  /** Whether a failed write certainly did not happen (anything but a lost response). */
  static boolean definite(StowageException e) {
    return !(e instanceof UnavailableException);
  }

  /**
   * Deletes the blob of an item version that was replaced or deleted. The write has already
   * committed, so a blob store failure here must not fail it: the blob is left for the sweeper and
   * counted.
   */
  void release(Item replaced) {
    try {
      t.shared.overflow.release(t.ref, replaced);
    } catch (StowageException e) {
      t.shared.metrics.releaseFailures.increment();
    }
  }

  /** Releases the blobs of the stored versions a committed write replaced or deleted. */
  void releaseAll(Collection<StoredItem> replaced) {
    replaced.forEach(s -> release(s.item()));
  }

  /**
   * Releases the blob of the version an unconditional put replaced, unless it is the blob the put
   * itself wrote: after a lost response the version replaced may be this put's own landed attempt,
   * whose blob must stay.
   */
  void releaseReplaced(Optional<StoredItem> replaced, OverflowHandler.Prepared written) {
    replaced.filter(p -> !sameBlob(p.item(), written.item())).ifPresent(p -> release(p.item()));
  }

  /** Whether two stored items point to the same overflow blob. */
  private static boolean sameBlob(Item a, Item b) {
    Optional<AttributeValue> pa = a.find(OverflowHandler.POINTER_ATTRIBUTE);
    return pa.isPresent() && pa.equals(b.find(OverflowHandler.POINTER_ATTRIBUTE));
  }

  /**
   * Whether replaced items may point to blobs, so an unconditional put must ask the driver for the
   * item it replaced. Without a blob store nothing overflows, and asking would only cost.
   */
  boolean replacedMayHaveBlobs() {
    return t.shared.blobStore != null;
  }
}
