package dev.stowage.spi;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import java.util.Objects;

/** One unconditional write in a batch. */
public sealed interface WriteOp permits WriteOp.Put, WriteOp.Delete {
  /** The key written. */
  Key key();

  /** Store an item, replacing any existing one. */
  record Put(Key key, Item item) implements WriteOp {
    public Put {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(item, "item");
    }
  }

  /** Delete an item if present. */
  record Delete(Key key) implements WriteOp {
    public Delete {
      Objects.requireNonNull(key, "key");
    }
  }
}
