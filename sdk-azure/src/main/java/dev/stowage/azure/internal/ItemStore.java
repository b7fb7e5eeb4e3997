package dev.stowage.azure.internal;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.rest.Response;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.ConditionFailedException;
import dev.stowage.NotFoundException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes single items: the item entity plus, on tables that keep mirror rows ({@link
 * Tables#mirrored}), its mirror row in the same partition, written together in one entity-group
 * transaction so they never disagree. Tables without mirror rows take a single request per write.
 * Every entity read or written passes through {@link Templates}, the write templates of the
 * entities most recently seen.
 */
public final class ItemStore {
  private final Tables tables;
  private final Templates templates = new Templates();
  private final KnownVersions versions = new KnownVersions();

  public ItemStore(Tables tables) {
    this.tables = tables;
  }

  /** The tables this store writes to. */
  Tables tables() {
    return tables;
  }

  /**
   * The template remembered for the entity of {@code key}, or null (see {@link Templates}): a map
   * (possibly empty) when this driver read or wrote the entity recently.
   */
  public Map<String, Object> template(TableLayout layout, Key key) {
    return templates.get(
        layout, AzureKeys.partitionKey(layout, key.partition()), AzureKeys.rowKey(layout, key));
  }

  /** As {@link #template(TableLayout, Key)} for the entity with these keys. */
  Map<String, Object> template(TableLayout layout, String pk, String rk) {
    return templates.get(layout, pk, rk);
  }

  /** Entities whose templates are remembered (for tests). */
  int templatesRemembered() {
    return templates.size();
  }

  /**
   * Updates the remembered templates after {@code actions} were applied: entities written are
   * remembered as written, deleted ones forgotten; token checks (empty merges) change nothing.
   */
  void applied(TableLayout layout, List<TableTransactionAction> actions) {
    for (TableTransactionAction a : actions) {
      TableEntity e = a.getEntity();
      switch (a.getActionType()) {
        case DELETE -> templates.forget(layout, e.getPartitionKey(), e.getRowKey());
        case UPDATE_MERGE, UPSERT_MERGE -> {}
        default ->
            templates.remember(layout, e.getPartitionKey(), e.getRowKey(), e.getProperties());
      }
    }
  }

  /** Forgets every template and known version (a table was dropped). */
  public void forgetTemplates() {
    templates.clear();
    versions.clear();
  }

  /**
   * The version of an item this driver last wrote by a put that wanted the replaced item back, or
   * null (see {@link KnownVersions}).
   */
  StoredItem knownVersion(TableLayout layout, String pk, String rk) {
    return versions.get(layout, pk, rk);
  }

  /**
   * Remembers the version just written of the item with these entity keys, or forgets it if its
   * ETag is no real one.
   */
  void rememberVersion(TableLayout layout, String pk, String rk, StoredItem version) {
    if (version.token() == null || version.token().startsWith(SUPERSEDED)) {
      versions.forget(layout, pk, rk);
    } else {
      versions.remember(layout, pk, rk, version);
    }
  }

  /** Forgets the known version of an item (it proved stale). */
  void forgetVersion(TableLayout layout, String pk, String rk) {
    versions.forget(layout, pk, rk);
  }

  /** Decodes an item entity whose key is known and remembers its template. */
  public Row read(TableLayout layout, Key key, TableEntity e) {
    Row r = row(layout, key, e);
    templates.remember(layout, e.getPartitionKey(), e.getRowKey(), r.properties());
    return r;
  }

  /** Decodes an item entity from a query and remembers its template. */
  public Row read(TableLayout layout, TableEntity e) {
    Row r = row(layout, e);
    templates.remember(layout, e.getPartitionKey(), e.getRowKey(), r.properties());
    return r;
  }

  /** Point read. */
  public Optional<Row> get(TableLayout layout, Key key) {
    TableClient client = tables.data(layout);
    String pk = AzureKeys.partitionKey(layout, key.partition());
    String rk = AzureKeys.rowKey(layout, key);
    try {
      Response<TableEntity> r = client.getEntityWithResponse(pk, rk, null, null, null);
      return Optional.of(read(layout, key, r.getValue()));
    } catch (RuntimeException e) {
      if (AzureErrors.status(e) == 404 && !AzureErrors.code(e).equals("TableNotFound")) {
        return Optional.empty();
      }
      throw AzureErrors.translate(e, "reading " + key + " from " + layout.ref());
    }
  }

  /** Decodes an item entity whose key is known. */
  public static Row row(TableLayout layout, Key key, TableEntity e) {
    Map<String, Object> props = e.getProperties();
    Item item;
    try {
      item = EntityCodec.item(layout.keySchema(), key, props);
    } catch (dev.stowage.IntegrityException ex) {
      throw new dev.stowage.IntegrityException(
          "reading table " + layout.ref() + ": " + ex.getMessage(), ex.getCause());
    }
    Object nonce = props.get(EntityCodec.NONCE);
    return new Row(item, e.getETag(), nonce instanceof String n ? n : null, props);
  }

  /** Decodes an item entity from a query. */
  public static Row row(TableLayout layout, TableEntity e) {
    Key key = AzureKeys.key(layout, e.getPartitionKey(), e.getRowKey());
    return row(layout, key, e);
  }

  /**
   * The entity of an item, with its nonce property when given, replacing the stored entity {@code
   * replaced} (or null), whose properties keep their EDM types where they hold the new values.
   */
  public static TableEntity entity(
      TableLayout layout, Key key, Item item, String nonce, Row replaced) {
    return entity(layout, key, item, nonce, replaced == null ? null : replaced.properties());
  }

  /**
   * The entity of an item, with its nonce property when given, written over an entity whose
   * properties (or {@link Templates template}) are {@code template} (or null): properties keep
   * their EDM types where they hold the new values.
   */
  public static TableEntity entity(
      TableLayout layout, Key key, Item item, String nonce, Map<String, Object> template) {
    return entity(
        layout,
        AzureKeys.partitionKey(layout, key.partition()),
        AzureKeys.rowKey(layout, key),
        item,
        nonce,
        template);
  }

  /** As {@link #entity(TableLayout, Key, Item, String, Map)} with the entity keys computed. */
  static TableEntity entity(
      TableLayout layout,
      String pk,
      String rk,
      Item item,
      String nonce,
      Map<String, Object> template) {
    TableEntity e = new TableEntity(pk, rk);
    e.getProperties().putAll(EntityCodec.properties(layout.keySchema(), item, template));
    if (nonce != null) {
      e.addProperty(EntityCodec.NONCE, nonce);
    }
    return e;
  }

  /**
   * Writes an item under {@code expect}; returns the new ETag.
   *
   * <p>Tables without mirror rows (no sort key, adopted, or not declaring descending queries), and
   * updates under a token (the item, hence its mirror row, exists), take one request whose response
   * carries the ETag. Creating or upserting an item on a table with mirror rows writes item and
   * mirror row in one transaction; Azure's transaction responses carry no ETags (Azurite's none at
   * all, the SDK's no parsed ones), so the item is read back and its nonce compared: if another
   * writer replaced it meanwhile, the returned token is one that matches no version, so a
   * compare-and-set with it fails as it must. The written entity's template is remembered.
   */
  public String put(TableLayout layout, Key key, TableEntity entity, Expectation expect) {
    String etag = write(layout, key, entity, expect);
    templates.remember(
        layout, entity.getPartitionKey(), entity.getRowKey(), entity.getProperties());
    return etag;
  }

  private String write(TableLayout layout, Key key, TableEntity entity, Expectation expect) {
    TableClient client = tables.data(layout);
    if (superseded(expect)) {
      rejectSuperseded(expect, writing(layout, key));
    }
    try {
      if (!tables.mirrored(layout) || expect instanceof Expectation.Token) {
        Response<Void> r = putSingle(client, entity, expect);
        return etag(r.getHeaders().getValue(HttpHeaderName.ETAG));
      }
      String nonce = (String) entity.getProperty(EntityCodec.NONCE);
      if (nonce == null) {
        nonce = IndexEntries.newNonce();
        entity.addProperty(EntityCodec.NONCE, nonce);
      }
      List<TableTransactionAction> actions = new ArrayList<>(2);
      actions.add(putAction(entity, expect));
      actions.add(
          new TableTransactionAction(
              TableTransactionActionType.UPSERT_REPLACE, mirror(entity, key)));
      client.submitTransaction(actions);
      Optional<Row> written = get(layout, key);
      if (written.isPresent() && nonce.equals(written.get().nonce())) {
        return written.get().etag();
      }
      return SUPERSEDED + nonce;
    } catch (RuntimeException e) {
      throw writeError(e, writing(layout, key), expect);
    }
  }

  // What a write or delete failed at, named only when one fails: rendering the key and the table
  // name on every request showed in profiles of the put path.
  private static String writing(TableLayout layout, Key key) {
    return "writing " + key + " to " + layout.ref();
  }

  private static String deleting(TableLayout layout, Key key) {
    return "deleting " + key + " from " + layout.ref();
  }

  /** Prefix of tokens of versions that were replaced before their writer could read them back. */
  static final String SUPERSEDED = "superseded:";

  /**
   * Azurite sends single-entity ETag headers without their closing quote ({@code W/"datetime'…'});
   * entities read back carry the full form, so both are normalized to it.
   */
  static String etag(String header) {
    if (header != null && header.startsWith("W/\"") && !header.endsWith("\"")) {
      return header + "\"";
    }
    return header;
  }

  /**
   * Deletes an item under {@code expect} ({@link Expectation#ANY} or a token). Returns false when
   * there was nothing to delete under {@link Expectation#ANY}.
   */
  public boolean delete(TableLayout layout, Key key, Expectation expect) {
    TableClient client = tables.data(layout);
    String pk = AzureKeys.partitionKey(layout, key.partition());
    String rk = AzureKeys.rowKey(layout, key);
    if (superseded(expect)) {
      rejectSuperseded(expect, deleting(layout, key));
    }
    templates.forget(layout, pk, rk);
    versions.forget(layout, pk, rk);
    TableEntity target = new TableEntity(pk, rk);
    boolean ifUnchanged = expect instanceof Expectation.Token;
    if (ifUnchanged) {
      target.addProperty("odata.etag", ((Expectation.Token) expect).token());
    }
    try {
      if (!tables.mirrored(layout)) {
        // The SDK answers a 404 of a single delete with a response instead of an error.
        Response<Void> r = client.deleteEntityWithResponse(target, ifUnchanged, null, null);
        if (r != null && r.getStatusCode() == 404) {
          if (expect instanceof Expectation.Any) {
            return false;
          }
          throw new ConditionFailedException(
              deleting(layout, key) + " failed: the item does not exist");
        }
      } else {
        client.submitTransaction(
            List.of(
                new TableTransactionAction(TableTransactionActionType.DELETE, target, ifUnchanged),
                new TableTransactionAction(
                    TableTransactionActionType.DELETE,
                    new TableEntity(pk, AzureKeys.mirrorRowKey(key.sortOrNull())))));
      }
      return true;
    } catch (RuntimeException e) {
      if (expect instanceof Expectation.Any
          && AzureErrors.status(e) == 404
          && !AzureErrors.code(e).equals("TableNotFound")) {
        return false;
      }
      throw writeError(e, deleting(layout, key), expect);
    }
  }

  /** True for a token of a version replaced before its writer could read it back. */
  private static boolean superseded(Expectation expect) {
    return expect instanceof Expectation.Token t && t.token().startsWith(SUPERSEDED);
  }

  /** A superseded token matches no stored version. */
  static void rejectSuperseded(Expectation expect, String what) {
    if (superseded(expect)) {
      throw new ConditionFailedException(what + " failed: the item has another version");
    }
  }

  /** The transaction action storing an item under an expectation. */
  public static TableTransactionAction putAction(TableEntity entity, Expectation expect) {
    if (expect instanceof Expectation.Absent) {
      return new TableTransactionAction(TableTransactionActionType.CREATE, entity);
    }
    if (expect instanceof Expectation.Token t) {
      entity.addProperty("odata.etag", t.token());
      return new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, entity, true);
    }
    return new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, entity);
  }

  /** The mirror row of an item entity (tables with a sort key). */
  public static TableEntity mirror(TableEntity item, Key key) {
    return new TableEntity(item.getPartitionKey(), AzureKeys.mirrorRowKey(key.sortOrNull()));
  }

  private static Response<Void> putSingle(
      TableClient client, TableEntity entity, Expectation expect) {
    if (expect instanceof Expectation.Absent) {
      return client.createEntityWithResponse(entity, null, null);
    }
    if (expect instanceof Expectation.Token t) {
      entity.addProperty("odata.etag", t.token());
      return client.updateEntityWithResponse(
          entity, TableEntityUpdateMode.REPLACE, true, null, null);
    }
    return client.upsertEntityWithResponse(entity, TableEntityUpdateMode.REPLACE, null, null);
  }

  /** Translates a write error; failed expectations become {@link ConditionFailedException}. */
  public static RuntimeException writeError(RuntimeException e, String what, Expectation expect) {
    int status = AzureErrors.status(e);
    String code = AzureErrors.code(e);
    if (code.equals("TableNotFound")) {
      return new NotFoundException(what + " failed: the table does not exist", e);
    }
    if (status == 409 && expect instanceof Expectation.Absent) {
      return new ConditionFailedException(what + " failed: the item already exists", e);
    }
    if (status == 412 || (status == 404 && expect instanceof Expectation.Token)) {
      return new ConditionFailedException(
          what + " failed: the item is missing or has another version", e);
    }
    return AzureErrors.translate(e, what);
  }
}
