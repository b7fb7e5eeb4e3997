package dev.stowage.internal;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;

/**
 * A table (the core's) that applies an update for a caller that knows what it wrote, such as a
 * typed put, without having the backend send the item back when the update is applied natively.
 */
public interface UpdateWithoutReadBack {
  /**
   * Applies an update as {@link dev.stowage.Table#update(Key, Update, WriteOptions)} does.
   *
   * @return the item after the update, or null if the update was applied natively and the item was
   *     not read back
   */
  Item updateWithoutReadBack(Key key, Update update, WriteOptions options);
}
