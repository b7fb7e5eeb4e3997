package dev.stowage.spi;

import java.util.Objects;

/**
 * A backend's hard limits, which the core respects before it sends anything: oversized items
 * overflow to the blob store, batches are chunked, oversized keys are rejected.
 *
 * @param maxItemBytes largest stored item, as counted by {@code sizeModel}
 * @param maxAttributeBytes largest single attribute, as counted by {@code sizeModel}
 * @param maxAttributes most attributes per item (including reserved ones)
 * @param maxIndexedValueBytes largest value of an indexed attribute (key and index attributes)
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
  public DriverLimits {
    Objects.requireNonNull(sizeModel, "sizeModel");
    if (maxItemBytes < 1024 || maxBatchGet < 1 || maxBatchWrite < 1 || maxAttributes < 8) {
      throw new IllegalArgumentException("implausible driver limits");
    }
  }
}
