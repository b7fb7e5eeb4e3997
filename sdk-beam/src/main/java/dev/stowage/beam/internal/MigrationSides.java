package dev.stowage.beam.internal;

import dev.stowage.beam.StoreSpec;
import dev.stowage.migrate.Migrator;
import java.io.Serializable;

/**
 * The two sides of a migration as a pipeline carries them: a worker opens both stores and builds
 * the same {@link Migrator} the one-machine migration uses, so copies and digests are computed by
 * the same code.
 */
public final class MigrationSides implements Serializable {
  private static final long serialVersionUID = 1L;
  private final StoreSpec source;
  private final StoreSpec target;
  private final SpecSnapshot spec;
  private final SpecSnapshot targetSpec;
  private final String targetTable;
  private final int pageSize;

  /**
   * @param targetSpec the target's own spec, or null for the source's (without adoption)
   * @param targetTable another table name for the target, or null
   */
  public MigrationSides(
      StoreSpec source,
      StoreSpec target,
      SpecSnapshot spec,
      SpecSnapshot targetSpec,
      String targetTable,
      int pageSize) {
    this.source = source;
    this.target = target;
    this.spec = spec;
    this.targetSpec = targetSpec;
    this.targetTable = targetTable;
    this.pageSize = pageSize;
  }

  /** Both stores opened, and the migrator over them; closing closes both stores. */
  public record Both(Opened source, Opened target, Migrator migrator) implements AutoCloseable {
    @Override
    public void close() {
      try {
        source.close();
      } finally {
        target.close();
      }
    }
  }

  /**
   * Opens both stores and builds the migrator (which checks that the copy can be faithful and that
   * the two sides are not the same table).
   */
  public Both open() {
    Opened s = Opened.open(source);
    Opened t = null;
    try {
      t = Opened.open(target);
      Migrator.Builder b =
          Migrator.builder(spec.spec())
              .source(s.driver(), s.blobs(), source.namespace())
              .target(t.driver(), t.blobs(), target.namespace())
              .pageSize(pageSize);
      if (source.location() != null) {
        b.sourceLocation(source.location());
      }
      if (target.location() != null) {
        b.targetLocation(target.location());
      }
      if (targetSpec != null) {
        b.targetSpec(targetSpec.spec());
      }
      if (targetTable != null) {
        b.targetTable(targetTable);
      }
      return new Both(s, t, b.build());
    } catch (RuntimeException e) {
      s.close();
      if (t != null) {
        t.close();
      }
      throw e;
    }
  }

  /** The migration's source or target table, opened through both sides. */
  public TableAccess side(boolean targetSide) {
    MigrationSides sides = this;
    return () -> {
      Both both = sides.open();
      try {
        Migrator m = both.migrator();
        TableAccess.Reader r =
            targetSide
                ? new TableAccess.Reader(both.target().driver(), m.targetLayout(), both)
                : new TableAccess.Reader(both.source().driver(), m.sourceLayout(), both);
        dev.stowage.RetryPolicy.DEFAULT.run(() -> r.driver().openTable(r.layout()));
        return r;
      } catch (RuntimeException e) {
        both.close();
        throw e;
      }
    };
  }
}
