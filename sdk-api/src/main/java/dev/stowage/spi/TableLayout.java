package dev.stowage.spi;

import dev.stowage.KeySchema;
import java.util.List;
import java.util.Optional;

/**
 * What a driver needs to provision and address one table.
 *
 * @param ref namespace and logical name
 * @param keySchema the primary key
 * @param indexes the secondary indexes, as synthesized attributes
 */
public record TableLayout(TableRef ref, KeySchema keySchema, List<IndexLayout> indexes) {
  public TableLayout {
    indexes = List.copyOf(indexes);
  }

  /** The index with this name. */
  public Optional<IndexLayout> index(String name) {
    return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
  }
}
