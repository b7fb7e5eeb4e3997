package dev.stowage.azure;

import dev.stowage.spi.TableLayout;

/**
 * {@link IndexMaintenanceTest} on a table whose spec declares descending queries, so its index
 * entries keep a reverse row that descending index pages read (as every table with indexes created
 * before the choice existed does).
 */
class IndexMaintenanceWithReverseRowsTest extends IndexMaintenanceTest {
  @Override
  TableLayout newLayout() {
    TableLayout l = Layouts.layout("ixr", SCHEMA, BY_A);
    return new TableLayout(l.ref(), l.keySchema(), l.indexes(), null, true);
  }

  @Override
  boolean reverseRows() {
    return true;
  }
}
