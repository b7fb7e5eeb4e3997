package dev.stowage.migrate.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.StoredOverflow;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.WriteOp;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * One stored source item made into the target's: whether it fits the target's limits as it is, its
 * overflow blob copied into the target's blob store, or, for an item that does not fit (or whose
 * indexed attributes may be in the source's blob), restored and overflowed again for the target.
 * Thread-safe.
 */
final class ItemCopies {
  private final Migration m;

  ItemCopies(Migration m) {
    this.m = m;
  }

  /**
   * True if {@code item} overflowed on the source and lacks an attribute the target indexes but the
   * source does not (so the source's overflow may have moved it into the blob).
   */
  boolean indexedInBlob(Item item) {
    if (!StoredOverflow.hasOverflow(item)) {
      return false;
    }
    for (var index : m.targetSpec().indexes()) {
      for (String a : index.attributes()) {
        if (!m.spec().isIndexed(a)
            && !m.spec().keySchema().isKeyAttribute(a)
            && item.find(a).isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * An item that fits the source but not the target (or whose indexed attributes may be in the
   * source's blob): its overflowed attributes are put back (in their stored form: encrypted values
   * stay encrypted), its index values computed for the target, and the item is overflowed again for
   * the target's limits into the target's blob store.
   *
   * @throws ItemTooLargeException if even its key and indexed attributes do not fit the target
   * @throws InvalidRequestException if the target's indexes cannot hold its indexed attributes
   */
  WriteOp refitted(WriteOp.Put put, DriverLimits limits, CopyCounters c) {
    Item whole = put.item();
    if (StoredOverflow.hasOverflow(whole)) {
      if (m.sourceBlobs() == null) {
        throw new IllegalArgumentException(
            "item " + put.key() + " has overflowed attributes: give a source blob store");
      }
      whole =
          m.retry()
              .call(
                  () ->
                      StoredOverflow.of(m.sourceBlobs())
                          .restore(m.sourceLayout().ref(), put.item()));
    }
    Item fitted = StoredItems.withIndexValues(m.targetSpec(), limits, whole);
    StoredOverflow.Prepared p =
        m.retry()
            .call(
                () ->
                    StoredOverflow.of(m.targetBlobs())
                        .prepare(m.targetLayout().ref(), m.targetSpec(), limits, fitted));
    if (p.blobKey() != null) {
      c.blobs.increment();
    }
    return new WriteOp.Put(put.key(), p.item());
  }

  /**
   * The write with the item's overflow blob copied into the target's blob store (under the key the
   * target's table gives it, the pointer rewritten to name it); the write as it is for an item that
   * did not overflow, or whose blob is missing from the source (counted).
   */
  WriteOp withCopiedBlob(WriteOp.Put put, CopyCounters c) {
    if (!StoredOverflow.hasOverflow(put.item())) {
      return put;
    }
    if (m.sourceBlobs() == null || m.targetBlobs() == null) {
      throw new IllegalArgumentException(
          "item "
              + put.key()
              + " has overflowed attributes: give both a source and a target blob store");
    }
    Optional<StoredOverflow.Copy> copy =
        m.retry()
            .call(
                () ->
                    StoredOverflow.of(m.sourceBlobs())
                        .copyBlob(
                            m.sourceLayout().ref(),
                            put.item(),
                            m.targetBlobs(),
                            m.targetLayout().ref()));
    if (copy.isEmpty()) {
      c.missingBlobs.increment();
      return put;
    }
    c.blobs.increment();
    c.blobBytes.add(copy.get().bytes());
    return new WriteOp.Put(put.key(), copy.get().item());
  }

  /** Which of the target's limits {@code item} exceeds, for a misfit's reason; null if none. */
  static String violation(DriverLimits limits, Item item) {
    long bytes = limits.sizeModel().itemBytes(item);
    if (bytes > limits.maxItemBytes()) {
      return bytes + " bytes exceed the target's " + limits.maxItemBytes();
    }
    if (item.size() > limits.maxAttributes()) {
      return item.size() + " attributes exceed the target's " + limits.maxAttributes();
    }
    // No attribute counts more than the item holding it (SizeModel): an item within the
    // per-attribute limit as a whole needs no attribute counted.
    boolean countAttributes = bytes > limits.maxAttributeBytes();
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      if (countAttributes
          && limits.sizeModel().attributeBytes(e.getKey(), e.getValue())
              > limits.maxAttributeBytes()) {
        return "attribute '" + e.getKey() + "' exceeds the target's per-attribute limit";
      }
      if (e.getKey().startsWith(IndexLayout.ATTRIBUTE_PREFIX)
          && indexedBytes(e.getValue()) > limits.maxIndexTupleBytes()) {
        return "index value '" + e.getKey() + "' exceeds the target's indexed-value limit";
      }
    }
    return null;
  }

  private static long indexedBytes(AttributeValue v) {
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8).length;
    }
    return 0;
  }
}
