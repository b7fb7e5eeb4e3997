package dev.stowage.beam.internal;

import dev.stowage.TableSpec;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;

/** The layout a driver addresses a table of a spec in a namespace by, as the core builds it. */
public final class Layouts {
  private Layouts() {}

  /** The table {@code spec} describes, in {@code namespace}. */
  public static TableLayout of(String namespace, TableSpec spec) {
    return new TableLayout(
        new TableRef(namespace, spec.name()),
        spec.keySchema(),
        spec.indexes().stream().map(IndexLayout::of).toList(),
        spec.adoptedName().orElse(null),
        spec.descendingQueries());
  }
}
