package dev.stowage.query;

import dev.stowage.item.Item;
import java.util.Objects;
import java.util.Optional;

/**
 * What an update did. Immutable and thread-safe.
 *
 * @param item the item after the update (with a recognised request id: the item as it is now)
 * @param applied true if this call changed the item; false if its request id was recognised as
 *     already applied, so nothing changed
 * @param forgottenRequestId the oldest request id the item stopped remembering to make room for
 *     this one (the table's {@link dev.stowage.TableSpec#idempotencyWindow() idempotency window}
 *     was full): a retry of that request would now be applied again. Null if none was forgotten.
 */
public record UpdateResult(Item item, boolean applied, String forgottenRequestId) {
  public UpdateResult {
    Objects.requireNonNull(item, "item");
  }

  /** {@link #forgottenRequestId}, if one was forgotten. */
  public Optional<String> forgotten() {
    return Optional.ofNullable(forgottenRequestId);
  }
}
