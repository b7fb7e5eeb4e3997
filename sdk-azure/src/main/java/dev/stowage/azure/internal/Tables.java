package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Table clients, provisioning and the schema record. Each logical table has a data table and, when
 * it has indexes, an index table (see {@link TableNames}). The data table holds a schema entity in
 * partition {@value #META_PARTITION} (outside the item partitions, which all start with {@code k}),
 * so {@code ensureTable} can detect a layout that disagrees with the stored one.
 */
public final class Tables {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Tables.class);
  static final String META_PARTITION = "meta";
  private static final String META_ROW = "schema";
  private static final String META_PROPERTY = "layout";

  private final TableServiceClient service;
  private final Map<String, TableClient> clients = new ConcurrentHashMap<>();

  public Tables(TableServiceClient service) {
    this.service = service;
  }

  /** The client of the data table of {@code ref}. */
  public TableClient data(TableRef ref) {
    return client(TableNames.dataTable(ref));
  }

  /** The client of the index table of {@code ref}. */
  public TableClient index(TableRef ref) {
    return client(TableNames.indexTable(ref));
  }

  private TableClient client(String name) {
    return clients.computeIfAbsent(name, service::getTableClient);
  }

  /** Creates the tables and schema record, or checks the stored schema. */
  public void ensure(TableLayout layout) {
    String described = describe(layout);
    try {
      service.createTableIfNotExists(TableNames.dataTable(layout.ref()));
      if (!layout.indexes().isEmpty()) {
        service.createTableIfNotExists(TableNames.indexTable(layout.ref()));
      }
      TableClient data = data(layout.ref());
      TableEntity meta =
          new TableEntity(META_PARTITION, META_ROW).addProperty(META_PROPERTY, described);
      try {
        data.createEntity(meta);
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
        Object stored = data.getEntity(META_PARTITION, META_ROW).getProperty(META_PROPERTY);
        if (!described.equals(stored)) {
          throw new InvalidRequestException(
              "table "
                  + layout.ref()
                  + " exists on Azure with a different layout: stored "
                  + stored
                  + ", requested "
                  + described);
        }
      }
    } catch (RuntimeException e) {
      throw AzureErrors.translate(e, "creating table " + layout.ref());
    }
  }

  /** Checks the schema record exists and agrees with {@code layout}; creates nothing. */
  public void open(TableLayout layout) {
    String described = describe(layout);
    Object stored;
    try {
      stored = data(layout.ref()).getEntity(META_PARTITION, META_ROW).getProperty(META_PROPERTY);
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
    if (!described.equals(stored)) {
      throw new InvalidRequestException(
          "table "
              + layout.ref()
              + " disagrees with its spec: stored layout "
              + stored
              + ", the spec says "
              + described);
    }
  }

  /** Deletes the data and index tables of {@code ref}; missing tables are ignored. */
  public void drop(TableRef ref) {
    for (String name : new String[] {TableNames.dataTable(ref), TableNames.indexTable(ref)}) {
      try {
        service.deleteTable(name);
      } catch (RuntimeException e) {
        if (AzureErrors.status(e) != 404) {
          throw AzureErrors.translate(e, "dropping table " + ref);
        }
      }
    }
  }

  /** A canonical description of the key schema and indexes. */
  static String describe(TableLayout layout) {
    var k = layout.keySchema();
    String key =
        k.partitionName()
            + ":"
            + k.partitionType()
            + (k.hasSort()
                ? "," + k.sortName().orElseThrow() + ":" + k.sortType().orElseThrow()
                : "");
    String indexes =
        layout.indexes().stream()
            .sorted(java.util.Comparator.comparing(IndexLayout::name))
            .map(i -> i.name() + "(" + i.partitionAttribute() + "," + i.sortAttribute() + ")")
            .collect(Collectors.joining(";"));
    return "key=" + key + " indexes=" + indexes;
  }
}
