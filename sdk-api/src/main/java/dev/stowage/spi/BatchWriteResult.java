package dev.stowage.spi;

import java.util.List;

/**
 * The result of one batch-write call.
 *
 * @param unprocessed writes the backend did not apply; the core retries them with backoff
 */
public record BatchWriteResult(List<WriteOp> unprocessed) {
  public BatchWriteResult {
    unprocessed = List.copyOf(unprocessed);
  }

  /** Everything was applied. */
  public static final BatchWriteResult DONE = new BatchWriteResult(List.of());
}
