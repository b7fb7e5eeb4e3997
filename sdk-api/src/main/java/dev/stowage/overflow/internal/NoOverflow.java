package dev.stowage.overflow.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.TableSpec;
import dev.stowage.internal.ItemAccess;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The overflow handler of a store configured without a blob store: items that fit are written
 * unchanged, larger ones are rejected with {@link ItemTooLargeException} before anything is
 * written. Stateless and thread-safe; {@link #INSTANCE} is the one to use.
 */
public final class NoOverflow implements OverflowHandler {
  /** The shared instance. */
  public static final NoOverflow INSTANCE = new NoOverflow();

  /** Equivalent to {@link #INSTANCE}. */
  public NoOverflow() {}

  @Override
  public Prepared prepare(TableRef table, TableSpec spec, DriverLimits limits, Item encoded) {
    if (encoded.has(POINTER_ATTRIBUTE)) {
      throw new IllegalArgumentException(
          "item to write already has an overflow pointer; restore it before writing");
    }
    FitPlanner.checkIndexedValues(table, spec, limits, encoded);
    String problem = FitPlanner.violation(limits, encoded);
    if (problem != null) {
      throw new ItemTooLargeException(
          "item of table "
              + table
              + " is too large for the backend ("
              + problem
              + "); an oversized item needs a blob store to overflow to: configure one (S3,"
              + " GCS, Azure Blob, FileBlobStore or MemoryBlobStore) when building Stowage");
    }
    return new Prepared(encoded, null);
  }

  /**
   * Returns items without a pointer unchanged. An item written with a blob store has a pointer: if
   * no attribute in {@code needed} moved it is returned without the pointer, otherwise this throws
   * {@link InvalidRequestException}, as the moved attributes cannot be read.
   */
  @Override
  public Item restore(TableRef table, Item stored, Set<String> needed) {
    AttributeValue raw = stored.attributes().get(POINTER_ATTRIBUTE);
    if (raw == null) {
      return stored;
    }
    Pointer pointer = Pointer.parse(raw, table.toString());
    if (pointer.mayHoldAny(needed, stored)) {
      throw new InvalidRequestException(
          "an item of table "
              + table
              + " keeps attributes "
              + pointer.describeNames()
              + " in overflow blob "
              + pointer.blobKey()
              + ", but no blob store is configured: configure the blob store it was written with");
    }
    Map<String, AttributeValue> rest = new LinkedHashMap<>(stored.attributes());
    rest.remove(POINTER_ATTRIBUTE);
    return ItemAccess.ofStored(rest);
  }

  @Override
  public java.util.List<Item> restoreAll(
      TableRef table, java.util.List<Item> stored, Set<String> needed) {
    return stored.stream().map(i -> restore(table, i, needed)).toList();
  }

  /** Nothing to delete without a blob store. */
  @Override
  public void release(TableRef table, Item replaced) {}

  /** Nothing was written. */
  @Override
  public void abandon(TableRef table, Prepared prepared) {}
}
