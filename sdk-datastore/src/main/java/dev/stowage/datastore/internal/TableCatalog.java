package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Transaction;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Datastore kinds need no creation, so a table's existence and schema are recorded in an entity of
 * kind {@value #KIND} named after the table, in the table's namespace. Known tables are cached per
 * driver. Thread-safe.
 */
public final class TableCatalog {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableCatalog.class);

  /** The kind of the table records. */
  public static final String KIND = "stowage.tables";

  private final Datastore datastore;
  private final String projectId;
  private final String databaseId;
  private final Set<TableRef> known = ConcurrentHashMap.newKeySet();

  /** A catalog in this Datastore. */
  public TableCatalog(Datastore datastore) {
    this.datastore = datastore;
    this.projectId = datastore.getOptions().getProjectId();
    this.databaseId = datastore.getOptions().getDatabaseId();
  }

  /** Records the table, or checks the existing record agrees with {@code layout}. */
  public void ensure(TableLayout layout) {
    Key key = recordKey(layout.ref());
    String schema = layout.keySchema().toString();
    String indexes = describe(layout.indexes());
    Transaction tx;
    try {
      tx = datastore.newTransaction();
    } catch (DatastoreException e) {
      throw Errors.translate("creating table " + layout.ref(), e);
    }
    try {
      Entity existing = tx.get(key);
      if (existing == null) {
        tx.put(
            Entity.newBuilder(key)
                .set("keySchema", unindexed(schema))
                .set("indexes", unindexed(indexes))
                .build());
        tx.commit();
        LOG.info(
            "created Datastore table {}: kind '{}' in namespace '{}'",
            layout.ref(),
            layout.ref().table(),
            layout.ref().namespace());
      } else {
        String oldSchema = existing.getString("keySchema");
        String oldIndexes = existing.getString("indexes");
        if (!oldSchema.equals(schema) || !oldIndexes.equals(indexes)) {
          throw new InvalidRequestException(
              "table "
                  + layout.ref()
                  + " exists with key schema "
                  + oldSchema
                  + " and indexes ["
                  + oldIndexes
                  + "], not "
                  + schema
                  + " and ["
                  + indexes
                  + "]");
        }
      }
      known.add(layout.ref());
    } catch (DatastoreException e) {
      throw Errors.translate("creating table " + layout.ref(), e);
    } finally {
      Transactions.rollbackQuietly(tx);
    }
  }

  /** Checks the table's record exists and agrees with {@code layout}; writes nothing. */
  public void open(TableLayout layout) {
    Entity existing;
    try {
      existing = datastore.get(recordKey(layout.ref()));
    } catch (DatastoreException e) {
      throw Errors.translate("opening table " + layout.ref(), e);
    }
    if (existing == null) {
      throw new NotFoundException(
          "table "
              + layout.ref()
              + " does not exist in Datastore (no "
              + KIND
              + " record for kind '"
              + layout.ref().table()
              + "' in namespace '"
              + layout.ref().namespace()
              + "'); create it with Stowage.ensureTable, or adopt an existing kind with"
              + " TableSpec.Builder.adopt");
    }
    String schema = layout.keySchema().toString();
    String indexes = describe(layout.indexes());
    String oldSchema = existing.getString("keySchema");
    String oldIndexes = existing.getString("indexes");
    List<String> problems = new ArrayList<>();
    if (!oldSchema.equals(schema)) {
      problems.add("key schema is " + oldSchema + ", the spec says " + schema);
    }
    if (!oldIndexes.equals(indexes)) {
      problems.add("indexes are [" + oldIndexes + "], the spec says [" + indexes + "]");
    }
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "table " + layout.ref() + " disagrees with its spec: " + String.join("; ", problems));
    }
    known.add(layout.ref());
  }

  /** Throws {@link NotFoundException} unless the table was created. */
  public void require(TableRef table) {
    if (known.contains(table)) {
      return;
    }
    try {
      if (datastore.get(recordKey(table)) == null) {
        throw new NotFoundException("table " + table + " does not exist; create it first");
      }
    } catch (DatastoreException e) {
      throw Errors.translate("reading table " + table, e);
    }
    known.add(table);
  }

  /** Deletes every entity of the table's kind, then its record. */
  public void drop(TableRef table) {
    known.remove(table);
    try {
      Query<Key> q =
          Query.newKeyQueryBuilder()
              .setNamespace(table.namespace())
              .setKind(table.table())
              .setLimit(500)
              .build();
      while (true) {
        QueryResults<Key> keys = datastore.run(q);
        List<Key> batch = new ArrayList<>();
        keys.forEachRemaining(batch::add);
        if (batch.isEmpty()) {
          break;
        }
        datastore.delete(batch.toArray(new Key[0]));
      }
      datastore.delete(recordKey(table));
    } catch (DatastoreException e) {
      throw Errors.translate("dropping table " + table, e);
    }
  }

  private Key recordKey(TableRef table) {
    return new KeyFactory(projectId, table.namespace(), databaseId)
        .setKind(KIND)
        .newKey(table.table());
  }

  private static String describe(List<IndexLayout> indexes) {
    return indexes.stream()
        .map(i -> i.name() + ":" + i.projection())
        .sorted()
        .collect(Collectors.joining(","));
  }

  private static StringValue unindexed(String s) {
    return StringValue.newBuilder(s).setExcludeFromIndexes(true).build();
  }
}
