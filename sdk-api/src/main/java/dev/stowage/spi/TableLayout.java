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

  /**
   * How the layout a backend keeps for a table ({@code stored}) falls short of this one, as
   * sentences for an error message (none: it serves this layout): another key schema, an index
   * missing, or a native index keyed otherwise on either side. For drivers that record layouts
   * themselves and check them when a table is opened.
   */
  public java.util.List<String> differencesFrom(TableLayout stored) {
    java.util.List<String> problems = new java.util.ArrayList<>();
    if (!stored.keySchema().equals(keySchema)) {
      problems.add("key schema is " + stored.keySchema() + ", the spec says " + keySchema);
    }
    for (IndexLayout index : indexes) {
      IndexLayout was = stored.index(index.name()).orElse(null);
      if (was == null) {
        // ensureTable fills a native index from the stored items; one Stowage maintains is filled
        // by the backfill job, as on every backend.
        problems.add(
            "index '"
                + index.name()
                + "' is missing ("
                + (index.isNative()
                    ? "Stowage.ensureTable adds it and indexes the stored items"
                    : "Stowage.ensureTable adds it; Table.backfillIndexes indexes the items written"
                        + " before")
                + ")");
      } else if ((index.isNative() || was.isNative()) && !index.sameKeys(was)) {
        problems.add(
            "index '"
                + index.name()
                + "' is "
                + was.describe()
                + ", the spec says "
                + index.describe());
      }
    }
    return problems;
  }

  /** The index with this name. */
  public Optional<IndexLayout> index(String name) {
    return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
  }
}
