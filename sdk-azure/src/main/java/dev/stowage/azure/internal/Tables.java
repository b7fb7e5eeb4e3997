package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Table clients, provisioning and the schema record. Each logical table has a data table and, when
 * it has indexes, an index table (see {@link TableNames}). The data table holds a schema entity in
 * partition {@value #META_PARTITION} (outside the item partitions, which all start with {@code k}),
 * so {@code ensureTable} can detect a layout that disagrees with the stored one. The record also
 * says whether the table keeps mirror rows for descending queries ({@link #mirrored}): tables with
 * a sort key created before the choice existed do (their record has no mirror marker), newer ones
 * only when their spec declared {@link TableLayout#descendingQueries()}. It says likewise whether
 * index entries keep their reverse row for descending index queries ({@link #reverseRows}): tables
 * with indexes created before the choice existed do (no marker), newer ones only when their spec
 * declared descending queries. Every writer follows the record, not its spec, so mirror and reverse
 * rows never fall out of step with the items and entries.
 *
 * <p>An adopted table's data table is the application's own Azure table, which holds nothing of
 * Stowage's but the properties of its items; its schema record, when it has indexes, lives in its
 * index table (partition {@value #META_PARTITION}, which no index partition can be: those contain a
 * {@code .}).
 */
public final class Tables {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Tables.class);
  static final String META_PARTITION = "meta";
  private static final String META_ROW = "schema";
  private static final String META_PROPERTY = "layout";

  /** Suffix of the stored layout of a table with a sort key that keeps no mirror rows. */
  static final String NO_MIRRORS = " mirrors=none";

  /**
   * Suffix of the stored layout of a table with indexes whose entries keep no reverse rows; it
   * follows {@link #NO_MIRRORS} when both apply.
   */
  static final String NO_REVERSE_ROWS = " reverse=none";

  private final TableServiceClient service;
  private final Map<String, TableClient> clients = new ConcurrentHashMap<>();
  private final Map<String, Stored> storedLayouts = new ConcurrentHashMap<>();

  /** What a table's schema record says it keeps besides items and forward index rows. */
  private record Stored(boolean mirrors, boolean reverseRows) {}

  public Tables(TableServiceClient service) {
    this.service = service;
  }

  /** The client of the table holding the items of {@code layout}. */
  public TableClient data(TableLayout layout) {
    return client(dataName(layout));
  }

  /** The client of the table holding the index entries of {@code layout}. */
  public TableClient index(TableLayout layout) {
    return client(indexName(layout));
  }

  /** The Azure table holding the items of {@code layout}. */
  public static String dataName(TableLayout layout) {
    return layout.adopted() ? layout.adoptedName() : TableNames.dataTable(layout.ref());
  }

  /** The Azure table holding the index entries of {@code layout}. */
  public static String indexName(TableLayout layout) {
    return layout.adopted()
        ? TableNames.adoptedIndexTable(layout.ref())
        : TableNames.indexTable(layout.ref());
  }

  private TableClient client(String name) {
    return clients.computeIfAbsent(name, service::getTableClient);
  }

  /**
   * True if items of {@code layout} have mirror rows: a table Stowage lays out, with a sort key,
   * whose stored record says so. Known from {@link #ensure} or {@link #open}; otherwise the record
   * is read once.
   */
  public boolean mirrored(TableLayout layout) {
    if (layout.adopted() || !layout.keySchema().hasSort()) {
      return false;
    }
    return stored(layout).mirrors();
  }

  /**
   * True if index entries of {@code layout} have a reverse row besides their forward row: every
   * adopted table, and a table Stowage lays out whose stored record says so (tables created before
   * the choice existed, and those whose spec declared descending queries). Known from {@link
   * #ensure} or {@link #open}; otherwise the record is read once.
   */
  public boolean reverseRows(TableLayout layout) {
    if (layout.adopted()) {
      return true;
    }
    if (layout.indexes().isEmpty()) {
      return false;
    }
    return stored(layout).reverseRows();
  }

  private Stored stored(TableLayout layout) {
    Stored known = storedLayouts.get(TableNames.dataTable(layout.ref()));
    if (known != null) {
      return known;
    }
    Object record;
    try {
      record = data(layout).getEntity(META_PARTITION, META_ROW).getProperty(META_PROPERTY);
    } catch (RuntimeException e) {
      if (AzureErrors.status(e) == 404) {
        throw new NotFoundException(
            "table " + layout.ref() + " does not exist on Azure (no Stowage schema record)", e);
      }
      throw AzureErrors.translate(e, "reading the schema record of " + layout.ref());
    }
    return check(layout, record, "disagrees with its spec");
  }

  /**
   * Checks a stored layout against {@code layout} and remembers whether the table keeps mirror rows
   * and reverse index rows.
   *
   * @throws InvalidRequestException if the key schema or indexes differ, or the spec declares
   *     descending queries on a table created without mirror rows or reverse index rows
   */
  private Stored check(TableLayout layout, Object record, String disagreement) {
    String base = describe(layout);
    String storedText = record instanceof String t ? t : String.valueOf(record);
    String storedBase = storedText;
    boolean noReverse = storedBase.endsWith(NO_REVERSE_ROWS);
    if (noReverse) {
      storedBase = storedBase.substring(0, storedBase.length() - NO_REVERSE_ROWS.length());
    }
    boolean noMirrors = storedBase.endsWith(NO_MIRRORS);
    if (noMirrors) {
      storedBase = storedBase.substring(0, storedBase.length() - NO_MIRRORS.length());
    }
    boolean storedMirrors = layout.keySchema().hasSort() && !noMirrors;
    boolean storedReverse = !layout.indexes().isEmpty() && !noReverse;
    if (!base.equals(storedBase)) {
      throw new InvalidRequestException(
          "table "
              + layout.ref()
              + " "
              + disagreement
              + ": stored layout "
              + record
              + ", the spec says "
              + base);
    }
    if (layout.descendingQueries() && layout.keySchema().hasSort() && !storedMirrors) {
      throw new InvalidRequestException(
          "table "
              + layout.ref()
              + " was created without descendingQueries, so it keeps no mirror rows for"
              + " descending queries, and its spec cannot declare them now: the items written so"
              + " far have none. Descending queries work on it without the declaration (each page"
              + " reads the keys of the range up to the page, see docs/azure.md); to have mirror"
              + " rows, copy the items into a new table whose spec declares descendingQueries"
              + " (stowage migrate)");
    }
    if (layout.descendingQueries() && !layout.indexes().isEmpty() && !storedReverse) {
      throw new InvalidRequestException(
          "table "
              + layout.ref()
              + " was created without descendingQueries, so its index entries keep no reverse"
              + " rows for descending index queries, and its spec cannot declare them now: the"
              + " entries written so far have none. Descending index queries work on it without"
              + " the declaration (each page reads the entries of the range up to the page, see"
              + " docs/azure.md); to have reverse rows, copy the items into a new table whose spec"
              + " declares descendingQueries (stowage migrate)");
    }
    Stored s = new Stored(storedMirrors, storedReverse);
    storedLayouts.put(TableNames.dataTable(layout.ref()), s);
    return s;
  }

  /** Creates the tables and schema record, or checks the stored schema. */
  public void ensure(TableLayout layout) {
    if (layout.adopted()) {
      ensureAdopted(layout);
      return;
    }
    boolean mirrors = layout.keySchema().hasSort() && layout.descendingQueries();
    boolean reverseRows = !layout.indexes().isEmpty() && layout.descendingQueries();
    String described =
        describe(layout)
            + (layout.keySchema().hasSort() && !mirrors ? NO_MIRRORS : "")
            + (!layout.indexes().isEmpty() && !reverseRows ? NO_REVERSE_ROWS : "");
    try {
      service.createTableIfNotExists(TableNames.dataTable(layout.ref()));
      if (!layout.indexes().isEmpty()) {
        service.createTableIfNotExists(TableNames.indexTable(layout.ref()));
      }
      TableClient data = data(layout);
      TableEntity meta =
          new TableEntity(META_PARTITION, META_ROW).addProperty(META_PROPERTY, described);
      try {
        data.createEntity(meta);
        storedLayouts.put(TableNames.dataTable(layout.ref()), new Stored(mirrors, reverseRows));
        LOG.info(
            "created Azure table {} for {}{}",
            TableNames.dataTable(layout.ref()),
            layout.ref(),
            layout.indexes().isEmpty()
                ? ""
                : " with index table " + TableNames.indexTable(layout.ref()));
      } catch (TableServiceException e) {
        if (AzureErrors.status(e) != 409) {
          throw e;
        }
        Object record = data.getEntity(META_PARTITION, META_ROW).getProperty(META_PROPERTY);
        check(layout, record, "exists on Azure with a different layout");
      }
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "creating table " + layout.ref());
    }
  }

  /** Checks the schema record exists and agrees with {@code layout}; creates nothing. */
  public void open(TableLayout layout) {
    if (layout.adopted()) {
      openAdopted(layout);
      return;
    }
    Object record;
    try {
      record = data(layout).getEntity(META_PARTITION, META_ROW).getProperty(META_PROPERTY);
    } catch (RuntimeException e) {
      if (AzureErrors.status(e) == 404) {
        throw new NotFoundException(
            "table "
                + layout.ref()
                + " does not exist on Azure (no table "
                + TableNames.dataTable(layout.ref())
                + " with a Stowage schema record); create it with Stowage.ensureTable, or adopt an"
                + " existing table with TableSpec.Builder.adopt");
      }
      throw AzureErrors.translate(e, "opening table " + layout.ref());
    }
    check(layout, record, "disagrees with its spec");
  }

  /**
   * Deletes the data and index tables of {@code ref}, and the index table it has if it is an
   * adopted table (never the adopted Azure table itself: the driver cannot tell from {@code ref}
   * which table that is, and it is the application's); missing tables are ignored.
   */
  public void drop(TableRef ref) {
    for (String name :
        new String[] {
          TableNames.dataTable(ref), TableNames.indexTable(ref), TableNames.adoptedIndexTable(ref)
        }) {
      storedLayouts.remove(name);
      try {
        service.deleteTable(name);
      } catch (RuntimeException e) {
        if (AzureErrors.status(e) != 404) {
          throw AzureErrors.translate(e, "dropping table " + ref);
        }
      }
    }
  }

  /**
   * A canonical description of the key schema and indexes; a stored record adds {@link #NO_MIRRORS}
   * for a table with a sort key that keeps no mirror rows and {@link #NO_REVERSE_ROWS} for a table
   * with indexes whose entries keep no reverse rows.
   */
  static String describe(TableLayout layout) {
    return "key=" + describeKey(layout) + " indexes=" + describeIndexes(layout);
  }

  private static String describeKey(TableLayout layout) {
    var k = layout.keySchema();
    return k.partitionName()
        + ":"
        + k.partitionType()
        + (k.hasSort() ? "," + k.sortName().orElseThrow() + ":" + k.sortType().orElseThrow() : "");
  }

  private static String describeIndexes(TableLayout layout) {
    return layout.indexes().stream()
        .sorted(java.util.Comparator.comparing(IndexLayout::name))
        .map(i -> i.name() + "(" + i.partitionAttribute() + "," + i.sortAttribute() + ")")
        .collect(Collectors.joining(";"));
  }

  /** Checks what can be checked of an adopted layout without a request. */
  static void checkAdopted(TableLayout layout) {
    TableNames.checkAdoptable(layout.adoptedName(), layout.ref());
    AzureKeys.requireStringKeys(layout);
  }

  /**
   * Creates the adopted table if it is missing (empty: Stowage writes nothing into it but items),
   * and, when the spec has indexes, Stowage's index table for it with its schema record. An
   * existing record with another adopted table or key schema is refused; one with other indexes is
   * replaced, since indexes may be added to (and dropped from) an existing table.
   */
  private void ensureAdopted(TableLayout layout) {
    checkAdopted(layout);
    String name = layout.adoptedName();
    try {
      if (!exists(data(layout))) {
        service.createTableIfNotExists(name);
        LOG.info("created empty Azure table {} adopted by {}", name, layout.ref());
      }
      if (layout.indexes().isEmpty()) {
        return;
      }
      service.createTableIfNotExists(indexName(layout));
      TableClient index = index(layout);
      TableEntity record = record(layout);
      try {
        index.createEntity(record);
        LOG.info(
            "created index table {} for {} (adopting {})", indexName(layout), layout.ref(), name);
        return;
      } catch (TableServiceException e) {
        if (AzureErrors.status(e) != 409) {
          throw e;
        }
      }
      TableEntity stored = index.getEntity(META_PARTITION, META_ROW);
      List<String> problems = adoptedDifferences(layout, stored, false);
      if (!problems.isEmpty()) {
        throw new InvalidRequestException(
            "table "
                + layout.ref()
                + " disagrees with its index table: "
                + String.join("; ", problems));
      }
      if (!describeIndexes(layout).equals(stored.getProperty(INDEXES_PROPERTY))) {
        index.upsertEntity(record);
        LOG.info(
            "indexes of {} (adopting {}) are now {}", layout.ref(), name, describeIndexes(layout));
      }
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "ensuring adopted table " + layout.ref());
    }
  }

  /**
   * Checks that the adopted Azure table exists and, when the spec has indexes, that Stowage's index
   * table for it records the same adopted table, key schema and indexes. Creates nothing.
   */
  private void openAdopted(TableLayout layout) {
    checkAdopted(layout);
    String name = layout.adoptedName();
    try {
      if (!exists(data(layout))) {
        throw new NotFoundException(
            "table "
                + layout.ref()
                + " adopts Azure table "
                + name
                + ", which does not exist; opening creates nothing (Stowage.ensureTable creates an"
                + " empty table of that name)");
      }
      if (layout.indexes().isEmpty()) {
        return;
      }
      TableEntity stored;
      try {
        stored = index(layout).getEntity(META_PARTITION, META_ROW);
      } catch (RuntimeException e) {
        if (AzureErrors.status(e) != 404) {
          throw e;
        }
        throw new InvalidRequestException(
            "table "
                + layout.ref()
                + " has indexes ("
                + describeIndexes(layout)
                + ") but no index table "
                + indexName(layout)
                + " yet; Stowage.ensureTable creates it, and Table.backfillIndexes indexes the"
                + " entities already in "
                + name);
      }
      List<String> problems = adoptedDifferences(layout, stored, true);
      if (!problems.isEmpty()) {
        throw new InvalidRequestException(
            "table " + layout.ref() + " disagrees with its spec: " + String.join("; ", problems));
      }
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "opening adopted table " + layout.ref());
    }
  }

  private static final String ADOPTS_PROPERTY = "adopts";
  private static final String KEY_PROPERTY = "key";
  private static final String INDEXES_PROPERTY = "indexes";

  private static TableEntity record(TableLayout layout) {
    return new TableEntity(META_PARTITION, META_ROW)
        .addProperty(ADOPTS_PROPERTY, layout.adoptedName())
        .addProperty(KEY_PROPERTY, describeKey(layout))
        .addProperty(INDEXES_PROPERTY, describeIndexes(layout));
  }

  private static List<String> adoptedDifferences(
      TableLayout layout, TableEntity stored, boolean withIndexes) {
    List<String> problems = new ArrayList<>();
    Object adopts = stored.getProperty(ADOPTS_PROPERTY);
    // Azure compares table names case-insensitively.
    if (!(adopts instanceof String a) || !a.equalsIgnoreCase(layout.adoptedName())) {
      problems.add(
          "its index table "
              + indexName(layout)
              + " belongs to an adoption of "
              + adopts
              + ", the spec adopts "
              + layout.adoptedName());
    }
    Object key = stored.getProperty(KEY_PROPERTY);
    if (!describeKey(layout).equals(key)) {
      problems.add("the key schema is " + key + ", the spec says " + describeKey(layout));
    }
    Object indexes = stored.getProperty(INDEXES_PROPERTY);
    if (withIndexes && !describeIndexes(layout).equals(indexes)) {
      problems.add(
          "the indexes are ["
              + indexes
              + "], the spec says ["
              + describeIndexes(layout)
              + "] (Stowage.ensureTable changes them; Table.backfillIndexes fills new ones)");
    }
    return problems;
  }

  /** True if the table exists: one request reading at most one entity's PartitionKey. */
  private static boolean exists(TableClient client) {
    try {
      client
          .listEntities(
              new ListEntitiesOptions().setTop(1).setSelect(List.of("PartitionKey")), null, null)
          .iterableByPage()
          .iterator()
          .hasNext();
      return true;
    } catch (RuntimeException e) {
      if (AzureErrors.status(e) == 404) {
        return false;
      }
      throw e;
    }
  }
}
