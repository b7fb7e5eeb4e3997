package dev.stowage.spi;

import java.util.Objects;

/**
 * A backend's hard limits, which the core respects before it sends anything: oversized items
 * overflow to the blob store, batches are chunked, oversized keys are rejected.
 *
 * <p>Indexed values have two limits. {@code maxIndexedValueBytes} is what applications may index,
 * checked by the core on every write; {@code maxIndexTupleBytes} is the longest synthesized index
 * value the backend stores and indexes. An index value longer than the backend takes is written in
 * a <em>long form</em> that fits (see {@code docs/FORMAT.md}, "Long index values"): a partition
 * value becomes a digest of the whole value, a sort value an order-preserving prefix shared with
 * the values that start the same way, which the core puts in order from the items themselves. So
 * the indexed-value limit can exceed what the backend indexes; the drivers Stowage ships report
 * {@link #PORTABLE_INDEXED_VALUE_BYTES} on every backend.
 *
 * @param maxItemBytes largest stored item, as counted by {@code sizeModel}
 * @param maxAttributeBytes largest single attribute, as counted by {@code sizeModel}
 * @param maxAttributes most attributes per item (including reserved ones)
 * @param maxIndexedValueBytes largest value an index reads, in bytes, as Stowage guarantees it to
 *     applications: a string's UTF-8 bytes or a binary value's bytes, a zero byte counting twice
 *     (the index stores it escaped); when one side (partition or sort) of an index reads several
 *     attributes, their values share this limit, each value after the first costing 3 bytes more
 *     and a number at most 39
 * @param maxIndexTupleBytes longest synthesized index value (partition or sort side) the backend
 *     stores and indexes, in bytes; longer values are written in their long form. At least {@link
 *     #MIN_INDEX_TUPLE_BYTES} when it is below {@code maxIndexedValueBytes +} {@link
 *     #INDEX_VALUE_OVERHEAD} (when long forms are needed)
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
    long maxIndexTupleBytes,
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

  /**
   * The indexed-value limit of every driver Stowage ships, the same on every backend: {@value}
   * bytes. Values whose index encoding exceeds what a backend indexes are stored in long form.
   */
  public static final int PORTABLE_INDEXED_VALUE_BYTES = 2048;

  /**
   * The smallest {@link #maxIndexTupleBytes} of a backend that needs long forms: {@value} bytes,
   * room for a long partition value (101 bytes) and a sort prefix long enough to tell most values
   * apart.
   */
  public static final int MIN_INDEX_TUPLE_BYTES = 128;

  public DriverLimits {
    Objects.requireNonNull(sizeModel, "sizeModel");
    if (maxItemBytes < 1024 || maxBatchGet < 1 || maxBatchWrite < 1 || maxAttributes < 8) {
      throw new IllegalArgumentException("implausible driver limits");
    }
    if (maxIndexedValueBytes < 1) {
      throw new IllegalArgumentException("maxIndexedValueBytes must be positive");
    }
    if (maxIndexTupleBytes < maxIndexedValueBytes + INDEX_VALUE_OVERHEAD
        && maxIndexTupleBytes < MIN_INDEX_TUPLE_BYTES) {
      throw new IllegalArgumentException(
          "maxIndexTupleBytes "
              + maxIndexTupleBytes
              + " is below maxIndexedValueBytes + "
              + INDEX_VALUE_OVERHEAD
              + ", so long index values are needed, and they need at least "
              + MIN_INDEX_TUPLE_BYTES
              + " bytes");
    }
  }

  /**
   * Limits of a backend that indexes every value it accepts as it is: the synthesized index values
   * take at most {@code maxIndexedValueBytes +} {@link #INDEX_VALUE_OVERHEAD} bytes, which is the
   * backend's {@link #maxIndexTupleBytes}, and no long form is ever written (the form of limits
   * before long index values existed).
   */
  public DriverLimits(
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
    this(
        maxItemBytes,
        maxAttributeBytes,
        maxAttributes,
        maxIndexedValueBytes,
        maxIndexedValueBytes + INDEX_VALUE_OVERHEAD,
        maxPartitionKeyBytes,
        maxSortKeyBytes,
        maxBatchGet,
        maxBatchWrite,
        maxTransactionItems,
        sizeModel);
  }
}
