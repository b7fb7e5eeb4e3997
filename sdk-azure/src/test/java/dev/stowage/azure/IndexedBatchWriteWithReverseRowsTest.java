package dev.stowage.azure;

import dev.stowage.spi.TableLayout;

/**
 * {@link IndexedBatchWriteTest} on a table whose spec declares descending queries, so its index
 * entries keep a reverse row (as every table with indexes created before the choice existed does).
 */
class IndexedBatchWriteWithReverseRowsTest extends IndexedBatchWriteTest {
  @Override
  TableLayout newLayout() {
    TableLayout l = Layouts.layout("ixbr", IndexMaintenanceTest.SCHEMA, IndexMaintenanceTest.BY_A);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, true);
  }

  @Override
  boolean reverseRows() {
    return true;
  }
}
