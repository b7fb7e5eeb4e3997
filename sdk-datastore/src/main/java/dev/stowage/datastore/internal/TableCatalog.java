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
import dev.stowage.TableSpec;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Datastore kinds need no creation, so a table's existence and schema are recorded in an entity of
 * kind {@value #KIND} named after the table, in the table's namespace. Known tables are cached per
 * driver.
 *
 * <p>Adopted kinds ({@link TableLayout#adopted()}) belong to the applications that write them and
 * get no record: a kind exists in Datastore exactly when it has entities, so opening one checks
 * that it has at least one, and its key schema is checked against {@link AdoptedKeys}. Thread-safe.
 */
public final class TableCatalog {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableCatalog.class);

  /** The kind of the table records. */
  public static final String KIND = "stowage.tables";

  private final Datastore datastore;
  private final String projectId;
  private final String databaseId;
  private final Set<TableRef> known = ConcurrentHashMap.newKeySet();
  private final Set<TableLayout> adoptedChecked = ConcurrentHashMap.newKeySet();
  private final Map<TableRef, String> adopted = new ConcurrentHashMap<>();

  /** A catalog in this Datastore. */
  public TableCatalog(Datastore datastore) {
    this.datastore = datastore;
    this.projectId = datastore.getOptions().getProjectId();
    this.databaseId = datastore.getOptions().getDatabaseId();
  }

  /**
   * Records the table, or checks the existing record agrees with {@code layout}. An adopted kind
   * needs neither creation nor a record: its layout is only checked, so an adopted kind may be
   * empty (not yet existing) when ensured.
   */
  public void ensure(TableLayout layout) {
    if (layout.adopted()) {
      inspectAdopted(layout, false);
      LOG.info(
          "adopted {} as Datastore table {}; nothing created",
          AdoptedKeys.where(layout.adoptedName(), layout.ref().namespace()),
          layout.ref());
      return;
    }
    adopted.remove(layout.ref());
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
    if (layout.adopted()) {
      inspectAdopted(layout, true);
      return;
    }
    adopted.remove(layout.ref());
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

  /**
   * Checks an adopted layout, that its kind is no Stowage table, that the kind exists (has an
   * entity) if {@code mustExist}, and that its first entity in key order, if a root entity, has the
   * kind of key the schema says (a name or an id).
   */
  private void inspectAdopted(TableLayout layout, boolean mustExist) {
    checkAdopted(layout);
    notAStowageTable(layout);
    String kind = layout.adoptedName();
    String namespace = layout.ref().namespace();
    Key first;
    try {
      // Datastore's metadata query on __kind__ would answer the same (a kind is listed exactly
      // while it has entities), but the emulator refuses kind queries; one keys-only entity works
      // on both and costs one index entry.
      QueryResults<Key> keys =
          datastore.run(
              Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).setLimit(1).build());
      first = keys.hasNext() ? keys.next() : null;
    } catch (DatastoreException e) {
      throw Errors.translate("opening table " + layout.ref(), e);
    }
    if (first == null && !mustExist) {
      return; // the first write creates the kind
    }
    if (first == null) {
      throw new NotFoundException(
          "table "
              + layout.ref()
              + " adopts "
              + AdoptedKeys.where(kind, namespace)
              + ", which has no entities and so does not exist in Datastore; check the kind's"
              + " name (case-sensitive) and the namespace, or use Stowage.ensureTable to adopt"
              + " it while it is empty (which creates nothing)");
    }
    if (first.getAncestors().isEmpty()) {
      // Reports a name where the schema says id (or the other way round) now, not at some read.
      try {
        AdoptedKeys.keyValue(layout, first);
      } catch (InvalidRequestException e) {
        throw new InvalidRequestException(
            "table " + layout.ref() + " disagrees with its spec: " + e.getMessage());
      }
    }
  }

  /**
   * Refuses to adopt a kind that is a Stowage table of the same name: its key names are Stowage's
   * encoding, not the application's keys.
   */
  private void notAStowageTable(TableLayout layout) {
    String kind = layout.adoptedName();
    if (!TableSpec.isValidName(kind)) {
      return; // no Stowage table has this kind
    }
    Entity record;
    try {
      record = datastore.get(recordKey(new TableRef(layout.ref().namespace(), kind)));
    } catch (DatastoreException e) {
      throw Errors.translate("opening table " + layout.ref(), e);
    }
    if (record != null) {
      throw new InvalidRequestException(
          "cannot adopt "
              + AdoptedKeys.where(kind, layout.ref().namespace())
              + " as table "
              + layout.ref()
              + ": it is the Stowage table '"
              + kind
              + "' (it has a "
              + KIND
              + " record and Stowage's encoded key names); open it as that table, without adopt");
    }
  }

  private void checkAdopted(TableLayout layout) {
    if (!adoptedChecked.contains(layout)) {
      AdoptedKeys.check(layout);
      adoptedChecked.add(layout);
    }
    if (!layout.adoptedName().equals(adopted.get(layout.ref()))) {
      adopted.put(layout.ref(), layout.adoptedName());
    }
  }

  /**
   * Throws {@link NotFoundException} unless the table was created; checks an adopted table's layout
   * (its kind needs no record).
   */
  public void require(TableLayout table) {
    if (table.adopted()) {
      checkAdopted(table);
      return;
    }
    if (known.contains(table.ref())) {
      return;
    }
    try {
      if (datastore.get(recordKey(table.ref())) == null) {
        throw new NotFoundException("table " + table.ref() + " does not exist; create it first");
      }
    } catch (DatastoreException e) {
      throw Errors.translate("reading table " + table.ref(), e);
    }
    known.add(table.ref());
  }

  /**
   * Deletes every entity of the table's kind, then its record. Only a table with a record is
   * Stowage's to delete: without one (never created, already dropped, or a kind of another
   * application whose name happens to be the table's) nothing is deleted.
   *
   * @throws InvalidRequestException for a table opened here as an adopted kind: its entities belong
   *     to the applications that write them
   */
  public void drop(TableRef table) {
    String kind = adopted.get(table);
    if (kind != null) {
      throw new InvalidRequestException(
          "table "
              + table
              + " is the adopted "
              + AdoptedKeys.where(kind, table.namespace())
              + "; Stowage does not delete the entities of kinds it adopted (delete them with the"
              + " Datastore client if that is meant)");
    }
    known.remove(table);
    try {
      if (datastore.get(recordKey(table)) == null) {
        return;
      }
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
