package dev.stowage.overflow;

import dev.stowage.IntegrityException;
import dev.stowage.TableSpec;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.internal.BlobKeys;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.overflow.internal.Pointer;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Overflow for tools that work on items in their stored form, below the core (migrations,
 * verifications, repairs): put an item's overflowed attributes back, make an item fit another
 * backend's limits, copy an item's overflow blob to another blob store or table.
 *
 * <p>Everything here keeps values in their stored form: compressed and encrypted attributes stay
 * envelopes, so no keys are needed. Items come from and go to a {@link
 * dev.stowage.spi.StorageDriver} directly (see {@link StoredItems}); the core's own reads and
 * writes already handle overflow.
 *
 * <p>Thread-safe. Nothing here retries: blob store errors ({@link dev.stowage.ThrottledException},
 * {@link dev.stowage.UnavailableException}) propagate for the caller's {@link
 * dev.stowage.RetryPolicy}. Every method may be repeated after a failure.
 */
public final class StoredOverflow {
  private final BlobStore store;
  private final BlobOverflow overflow;

  private StoredOverflow(BlobStore store) {
    this.store = store;
    this.overflow = new BlobOverflow(store);
  }

  /**
   * Overflow to and from {@code store}; the store is not closed by this class.
   *
   * @throws NullPointerException if {@code store} is null
   */
  public static StoredOverflow of(BlobStore store) {
    return new StoredOverflow(Objects.requireNonNull(store, "store"));
  }

  /** True if a stored item has attributes in an overflow blob (it holds an overflow pointer). */
  public static boolean hasOverflow(Item stored) {
    return stored.has(OverflowHandler.POINTER_ATTRIBUTE);
  }

  /**
   * The stored item with its overflowed attributes put back from its blob (still in stored form)
   * and without its pointer; an item without overflow is returned as it is, without a blob read.
   *
   * @param table the namespace and table the item was read from (for messages)
   * @throws IntegrityException if the blob is missing, does not match its pointer's digest or does
   *     not hold what the pointer names; the message names the blob
   */
  public Item restore(TableRef table, Item stored) {
    try {
      return overflow.restore(table, stored, null);
    } catch (OverflowHandler.BlobMissingException e) {
      throw new IntegrityException(
          "overflow blob " + e.blobKey() + " of an item of table " + table + " is missing");
    }
  }

  /**
   * Makes a whole stored item (no pointer) fit {@code limits}: returns it unchanged if it fits,
   * else writes its largest movable attributes (never key, indexed or reserved ones) to a new blob
   * of {@code table} and returns the item with a pointer instead of them. If writing the item then
   * fails for good, delete {@link Prepared#blobKey()}; else a sweep collects it later.
   *
   * @param table the namespace and table the item is written to (blob keys are namespaced)
   * @param spec the table's spec (key and indexed attributes never move)
   * @param limits the target backend's limits
   * @throws dev.stowage.ItemTooLargeException if it cannot be made to fit
   * @throws IllegalArgumentException if the item still holds an overflow pointer
   */
  public Prepared prepare(TableRef table, TableSpec spec, DriverLimits limits, Item stored) {
    if (hasOverflow(stored)) {
      throw new IllegalArgumentException("restore the item's overflowed attributes first");
    }
    OverflowHandler.Prepared p = overflow.prepare(table, spec, limits, stored);
    return new Prepared(p.item(), p.blobKey());
  }

  /**
   * Copies the overflow blob of an item of table {@code from} (read from this store) to {@code
   * target} for table {@code to}, and returns the item to store in {@code to}. The copy keeps its
   * key when both tables have the same blob prefix (namespace and table name); otherwise it gets
   * the same name under {@code to}'s prefix and the returned item's pointer names it (only the key
   * changes; size and digest are the same), so deletes and sweeps of {@code to} handle it. An item
   * without overflow is returned as it is. Copying again overwrites the copy with the same bytes.
   *
   * @return the item and the bytes copied, or empty if the item's blob is missing
   * @throws IntegrityException if the item's pointer is malformed
   */
  public Optional<Copy> copyBlob(TableRef from, Item stored, BlobStore target, TableRef to) {
    AttributeValue raw = stored.attributes().get(OverflowHandler.POINTER_ATTRIBUTE);
    if (raw == null) {
      return Optional.of(new Copy(stored, 0));
    }
    Pointer pointer = Pointer.parse(raw, from.toString());
    String source = pointer.blobKey();
    String copy = rebase(source, from, to);
    Optional<byte[]> data = store.get(source);
    if (data.isEmpty()) {
      return Optional.empty();
    }
    target.put(copy, data.get());
    if (copy.equals(source)) {
      return Optional.of(new Copy(stored, data.get().length));
    }
    Pointer moved =
        new Pointer(copy, pointer.size(), pointer.sha256(), pointer.names(), pointer.namesListed());
    Map<String, AttributeValue> attributes = new LinkedHashMap<>(stored.attributes());
    attributes.put(OverflowHandler.POINTER_ATTRIBUTE, moved.toValue());
    return Optional.of(new Copy(StoredItems.of(attributes), data.get().length));
  }

  /**
   * The key a blob of table {@code from} gets in table {@code to}: {@code to}'s prefix followed by
   * what followed {@code from}'s prefix (or the key's last segment for a key outside it).
   */
  private static String rebase(String blobKey, TableRef from, TableRef to) {
    String fromPrefix = BlobKeys.tablePrefix(from);
    String toPrefix = BlobKeys.tablePrefix(to);
    if (fromPrefix.equals(toPrefix)) {
      return blobKey;
    }
    String tail =
        blobKey.startsWith(fromPrefix)
            ? blobKey.substring(fromPrefix.length())
            : blobKey.substring(blobKey.lastIndexOf('/') + 1);
    return toPrefix + tail;
  }

  /**
   * The result of {@link #prepare}.
   *
   * @param item the item to store
   * @param blobKey the blob written for it, or null if it fitted as it was
   */
  public record Prepared(Item item, String blobKey) {
    public Prepared {
      Objects.requireNonNull(item, "item");
    }
  }

  /**
   * The result of {@link #copyBlob}.
   *
   * @param item the item to store in the target table
   * @param bytes the size of the blob copied (0 for an item without overflow)
   */
  public record Copy(Item item, long bytes) {
    public Copy {
      Objects.requireNonNull(item, "item");
    }
  }
}
