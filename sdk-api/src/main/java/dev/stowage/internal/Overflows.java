package dev.stowage.internal;

import dev.stowage.ItemTooLargeException;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Chooses the overflow handler for a store and names blob prefixes. */
final class Overflows {
  private Overflows() {}

  /** The handler for a store with (or without) a blob store. */
  static OverflowHandler handler(BlobStore blobStore) {
    return new InlineOnly();
  }

  /** The blob key prefix of a table: {@code <namespace or _root>/<table>/}. */
  static String blobPrefix(TableRef ref) {
    return (ref.namespace().isEmpty() ? "_root" : ref.namespace()) + "/" + ref.table() + "/";
  }

  /** Items must fit the backend as they are. */
  static final class InlineOnly implements OverflowHandler {
    @Override
    public Prepared prepare(TableRef table, TableSpec spec, DriverLimits limits, Item encoded) {
      long size = limits.sizeModel().itemBytes(encoded);
      if (size > limits.maxItemBytes() || encoded.size() > limits.maxAttributes()) {
        throw new ItemTooLargeException(
            "item of "
                + size
                + " bytes and "
                + encoded.size()
                + " attributes exceeds the backend's"
                + " limits for table '"
                + table
                + "'; configure a blob store to overflow it");
      }
      for (Map.Entry<String, AttributeValue> e : encoded.attributes().entrySet()) {
        if (limits.sizeModel().attributeBytes(e.getKey(), e.getValue())
            > limits.maxAttributeBytes()) {
          throw new ItemTooLargeException(
              "attribute '"
                  + e.getKey()
                  + "' exceeds the backend's per-attribute limit; configure"
                  + " a blob store to overflow it");
        }
      }
      return new Prepared(encoded, null);
    }

    @Override
    public Item restore(TableRef table, Item stored, Set<String> needed) {
      return stored;
    }

    @Override
    public List<Item> restoreAll(TableRef table, List<Item> stored, Set<String> needed) {
      return stored;
    }

    @Override
    public void release(TableRef table, Item replaced) {}

    @Override
    public void abandon(TableRef table, Prepared prepared) {}
  }
}
