package dev.stowage.internal;

import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Set;

/**
 * The core's view of overflow: making an encoded item fit the backend before a write, and putting
 * moved attributes back after a read.
 *
 * <p>Write protocol (the core follows it on every path, through {@code OverflowWrites}): {@link
 * #prepare} writes the blob first and returns the item to store; if the item write then fails, the
 * core calls {@link #abandon}; once it has committed, it calls {@link #release} on the replaced
 * item so its blob is deleted. Deleting an item releases its blob after the delete.
 */
public interface OverflowHandler {

  /** Name of the reserved attribute holding the overflow pointer. */
  String POINTER_ATTRIBUTE = "stowage:ovf";

  /**
   * Returns {@code encoded} unchanged if it fits {@code limits}, else writes a blob with its
   * largest movable attributes and returns the item with a pointer instead of them.
   *
   * @param table the namespace and table (blob keys are namespaced)
   * @param spec the table spec (key and indexed attributes never move)
   * @throws dev.stowage.ItemTooLargeException if it cannot be made to fit
   */
  Prepared prepare(TableRef table, TableSpec spec, DriverLimits limits, Item encoded);

  /**
   * Puts moved attributes back into a stored item, fetching its blob only if some attribute in
   * {@code needed} (null: all) moved.
   *
   * @throws dev.stowage.IntegrityException if the blob's digest does not match
   * @throws BlobMissingException if the blob is gone (a concurrent overwrite: re-read the item)
   */
  Item restore(TableRef table, Item stored, Set<String> needed);

  /** Restores many items of one page, fetching their blobs in parallel. */
  List<Item> restoreAll(TableRef table, List<Item> stored, Set<String> needed);

  /**
   * Deletes the blob a replaced or deleted item pointed to, if any. Never throws for a missing
   * blob.
   */
  void release(TableRef table, Item replaced);

  /** Deletes the blob of a prepared item whose write did not happen. */
  void abandon(TableRef table, Prepared prepared);

  /**
   * The result of {@link #prepare}.
   *
   * @param item the item to store
   * @param blobKey the blob written for it, or null if nothing moved
   */
  record Prepared(Item item, String blobKey) {}

  /** Thrown by {@link #restore} when a pointer's blob does not exist. */
  final class BlobMissingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String blobKey;

    /** Creates the exception. */
    public BlobMissingException(String blobKey) {
      super("overflow blob " + blobKey + " is missing");
      this.blobKey = blobKey;
    }

    /** The missing blob's key. */
    public String blobKey() {
      return blobKey;
    }
  }
}
