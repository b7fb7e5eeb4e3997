package dev.stowage.spi;

import java.util.Objects;

/**
 * A backend's hard limits, which the core respects before it sends anything: oversized items
 * overflow to the blob store, batches are chunked, oversized keys are rejected.
 *
 * @param maxItemBytes largest stored item, as counted by {@code sizeModel}
 * @param maxAttributeBytes largest single attribute, as counted by {@code sizeModel}
 * @param maxAttributes most attributes per item (including reserved ones)
 * @param maxIndexedValueBytes largest value an index reads, in bytes, as Stowage guarantees it to
 *     applications: a string's UTF-8 bytes or a binary value's bytes, a zero byte counting twice
 *     (the index stores it escaped); when one side (partition or sort) of an index reads several
 *     attributes, their values share this limit, each value after the first costing 3 bytes more
 *     and a number at most 39. The synthesized index value holding them is then at most {@link
 *     #maxIndexTupleBytes()} bytes, which the backend must index; a driver whose backend indexes
 *     values of up to {@code N} bytes reports {@code N -} {@link #INDEX_VALUE_OVERHEAD}
 * @param maxPartitionKeyBytes largest partition key value, in UTF-8 or raw bytes
 * @param maxSortKeyBytes largest sort key value, in UTF-8 or raw bytes
 * @param maxBatchGet most keys per batch-get call
 * @param maxBatchWrite most writes per batch-write call
 * @param maxTransactionItems most operations per transaction (0 when there are none)
 * @param sizeModel how the backend counts bytes
 */
public record DriverLimits(
    long maxItemBytes,
    long maxAttributeBytes,
    int maxAttributes,
    long maxIndexedValueBytes,
    int maxPartitionKeyBytes,
    int maxSortKeyBytes,
    int maxBatchGet,
    int maxBatchWrite,
    int maxTransactionItems,
    SizeModel sizeModel) {
  /**
   * Bytes a synthesized index value takes beyond the {@link #maxIndexedValueBytes} it holds, on the
   * partition side: {@value} (a format byte and a 4-byte fingerprint of the index definition, then
   * the tuple's version byte, a type byte and a two-byte terminator around a single string or
   * binary value; see {@code docs/FORMAT.md}, "Index tuples"). The sort side takes 5 bytes fewer.
   */
  public static final int INDEX_VALUE_OVERHEAD = 9;

  public DriverLimits {
    Objects.requireNonNull(sizeModel, "sizeModel");
    if (maxItemBytes < 1024 || maxBatchGet < 1 || maxBatchWrite < 1 || maxAttributes < 8) {
      throw new IllegalArgumentException("implausible driver limits");
    }
  }

  /**
   * The largest synthesized index value (an encoded tuple) the backend must store and index: {@link
   * #maxIndexedValueBytes} plus {@link #INDEX_VALUE_OVERHEAD}.
   */
  public long maxIndexTupleBytes() {
    return maxIndexedValueBytes + INDEX_VALUE_OVERHEAD;
  }
}
