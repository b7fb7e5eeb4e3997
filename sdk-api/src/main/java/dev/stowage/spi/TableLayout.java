package dev.stowage.spi;

import dev.stowage.KeySchema;
import java.util.List;
import java.util.Optional;

/**
 * What a driver needs to provision and address one table.
 *
 * @param ref namespace and logical name
 * @param keySchema the primary key
 * @param indexes the secondary indexes: synthesized attributes, or the backend's own indexes
 * @param adoptedName for an adopted table (see {@link dev.stowage.TableSpec.Builder#adopt}), the
 *     backend's own table name, to use as it is with the backend's native key layout; null for a
 *     table Stowage lays out itself
 * @param descendingQueries true if the spec {@linkplain
 *     dev.stowage.TableSpec.Builder#descendingQueries declares} descending queries as a regular
 *     access path: a driver whose backend reads ascending only may keep extra rows for them
 */
public record TableLayout(
    TableRef ref,
    KeySchema keySchema,
    List<IndexLayout> indexes,
    String adoptedName,
    boolean descendingQueries) {
  public TableLayout {
    indexes = List.copyOf(indexes);
  }

  /** A table without the descending-queries declaration. */
  public TableLayout(
      TableRef ref, KeySchema keySchema, List<IndexLayout> indexes, String adoptedName) {
    this(ref, keySchema, indexes, adoptedName, false);
  }

  /** A table Stowage lays out itself. */
  public TableLayout(TableRef ref, KeySchema keySchema, List<IndexLayout> indexes) {
    this(ref, keySchema, indexes, null);
  }

  /** True if this is an adopted table, addressed by {@link #adoptedName()} in its native layout. */
  public boolean adopted() {
    return adoptedName != null;
  }

  /** True if some index is a {@linkplain IndexLayout#isNative() native} one. */
  public boolean hasNativeIndexes() {
    return indexes.stream().anyMatch(IndexLayout::isNative);
  }

  /** The index with this name. */
  public Optional<IndexLayout> index(String name) {
    return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
  }
}
