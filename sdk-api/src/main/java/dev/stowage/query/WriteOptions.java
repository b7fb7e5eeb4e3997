package dev.stowage.query;

import java.util.Optional;

/**
 * Options for a single-item write. Immutable and thread-safe.
 *
 * @param condition must hold on the stored item (absent items have no attributes) or the write
 *     fails with {@link dev.stowage.ConditionFailedException}; null for none
 * @param requestId the caller's id for this logical request: a write repeated with the same id is
 *     applied once and the repeat returns as if it had succeeded; null for none. 1 to 128 printable
 *     ASCII characters, no spaces. Each item remembers the ids of its last {@link
 *     dev.stowage.TableSpec#idempotencyWindow()} idempotent writes (default 32): a repeat after
 *     that many other idempotent writes to the same item is applied again. {@link
 *     dev.stowage.Table#updateWithResult} reports which id an update made the item forget, and
 *     {@link dev.stowage.StowageMetrics#requestIdsForgotten()} counts them.
 */
public record WriteOptions(Condition condition, String requestId) {
  /** No condition, no request id. */
  public static final WriteOptions NONE = new WriteOptions(null, null);

  public WriteOptions {
    if (requestId != null) {
      if (requestId.isEmpty()
          || requestId.length() > 128
          || !requestId.chars().allMatch(c -> c > 32 && c < 127)) {
        throw new IllegalArgumentException(
            "request id must be 1 to 128 printable ASCII characters without spaces");
      }
    }
  }

  /** Only a condition. */
  public static WriteOptions when(Condition condition) {
    return new WriteOptions(condition, null);
  }

  /**
   * Only a request id.
   *
   * @throws NullPointerException if {@code requestId} is null: a write asked to be idempotent
   *     without an id would silently not be (use {@link #NONE} for a write that is not)
   */
  public static WriteOptions idempotent(String requestId) {
    if (requestId == null) {
      throw new NullPointerException(
          "requestId is null: an idempotent write needs the caller's id for the request (use"
              + " WriteOptions.NONE for a write that is not idempotent)");
    }
    return new WriteOptions(null, requestId);
  }

  /** This with a request id. */
  public WriteOptions withRequestId(String id) {
    return new WriteOptions(condition, id);
  }

  /** The condition, if any. */
  public Optional<Condition> conditionOptional() {
    return Optional.ofNullable(condition);
  }
}
