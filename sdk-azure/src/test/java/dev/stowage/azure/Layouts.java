package dev.stowage.azure;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Fresh table layouts for tests. */
final class Layouts {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private Layouts() {}

  static String freshName(String base) {
    return base + "-" + COUNTER.incrementAndGet();
  }

  static TableLayout layout(String namespace, KeySchema schema, IndexSpec... indexes) {
    return new TableLayout(
        new TableRef(namespace, freshName("t")),
        schema,
        java.util.Arrays.stream(indexes).map(IndexLayout::of).toList());
  }

  static TableLayout layout(KeySchema schema, IndexSpec... indexes) {
    return layout("", schema, indexes);
  }

  /** A fresh layout whose spec declares descending queries (mirror rows on Azure). */
  static TableLayout descending(KeySchema schema, IndexSpec... indexes) {
    TableLayout l = layout(schema, indexes);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, true);
  }

  static IndexSpec index(String name) {
    return IndexSpec.of(name, List.of("a"), List.of("b"));
  }
}
