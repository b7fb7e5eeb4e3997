package dev.stowage.migrate.internal;

import dev.stowage.TableSpec;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.Objects;

/**
 * The two tables of a migration as its drivers and its checkpoint see them: each side's layout, its
 * identity in the checkpoint ({@link Checkpoint.Side}), and the refusal of a migration whose source
 * and target are one table. Stateless.
 */
public final class TableSides {
  private TableSides() {}

  /** The table {@code ref} as a driver lays it out for {@code spec}. */
  public static TableLayout layout(TableRef ref, TableSpec spec) {
    List<IndexLayout> indexes = spec.indexes().stream().map(IndexLayout::of).toList();
    return new TableLayout(
        ref, spec.keySchema(), indexes, spec.adoptedName().orElse(null), spec.descendingQueries());
  }

  /**
   * A side as the checkpoint records it: the driver's name, the location given (else the driver's,
   * else its name), the table and, for an adopted table, its physical name.
   */
  public static Checkpoint.Side side(StorageDriver driver, String location, TableLayout layout) {
    String where = location != null ? location : driver.location();
    return new Checkpoint.Side(
        driver.name(), where == null ? driver.name() : where, layout.ref(), layout.adoptedName());
  }

  /**
   * Refuses a migration whose source and target are the same table: the same side, the same driver,
   * table and adopted name, or the same adopted table of one store in any namespace.
   */
  public static void requireDistinct(
      StorageDriver sourceDriver,
      TableLayout sourceLayout,
      Checkpoint.Side sourceSide,
      StorageDriver targetDriver,
      TableLayout targetLayout,
      Checkpoint.Side targetSide) {
    if (sourceSide.equals(targetSide)
        || (sourceDriver == targetDriver
            && sourceLayout.ref().equals(targetLayout.ref())
            && Objects.equals(sourceLayout.adoptedName(), targetLayout.adoptedName()))) {
      throw new IllegalArgumentException(
          "the source and the target are the same table ("
              + sourceSide.describe()
              + "): a table cannot be migrated onto itself; name another store, namespace or"
              + " table as the target");
    }
    if (sourceLayout.adopted()
        && sourceSide.adoptedName().equals(targetSide.adoptedName())
        && (sourceDriver == targetDriver
            || (sourceSide.backend().equals(targetSide.backend())
                && sourceSide.location().equals(targetSide.location())))) {
      throw new IllegalArgumentException(
          "the source and the target are the same adopted table '"
              + sourceSide.adoptedName()
              + "' of "
              + sourceSide.backend()
              + (sourceSide.location().equals(sourceSide.backend())
                  ? ""
                  : " " + sourceSide.location())
              + ": a table cannot be migrated onto itself (an adopted table's own name may be the"
              + " same in every namespace); name another store or adopted table as the target, or"
              + " a table Stowage lays out (a target spec without adopt)");
    }
  }
}
