package dev.stowage.spi;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import java.util.Objects;

/** One operation of an atomic multi-item write; every expectation is checked atomically. */
public sealed interface TxOp permits TxOp.Put, TxOp.Delete, TxOp.Check {
  /** The table. */
  TableRef table();

  /** The key. */
  Key key();

  /** The expectation on the stored item. */
  Expectation expect();

  /** Store an item. */
  record Put(TableRef table, Key key, Item item, Expectation expect) implements TxOp {
    public Put {
      Objects.requireNonNull(item, "item");
    }
  }

  /** Delete an item. */
  record Delete(TableRef table, Key key, Expectation expect) implements TxOp {}

  /** Only verify an expectation. */
  record Check(TableRef table, Key key, Expectation expect) implements TxOp {}
}
