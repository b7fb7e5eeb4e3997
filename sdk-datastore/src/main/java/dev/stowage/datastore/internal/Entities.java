package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps Stowage items to Datastore entities and back: a table is a kind, a namespace the native
 * namespace, the key name comes from {@link KeyNames} (or, for an adopted kind, the key is the
 * entity's own name or id, see {@link AdoptedKeys}, and the key attribute is no property). Every
 * property Stowage types is excluded from indexes except the synthesized index attributes and the
 * attributes native indexes read (plain strings, blobs, integers and doubles, see {@link
 * Values#nativeIndexed}); a property replacing one stored before keeps its native type and index
 * flag where {@link Values} can; the version token lives in the property {@value #TOKEN}.
 * Thread-safe.
 */
public final class Entities {
  /** The property holding the version token; stripped from items on read. */
  public static final String TOKEN = "stowage:tok";

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Random bytes in a token (22 characters of base64url). */
  private static final int TOKEN_BYTES = 16;

  private final String projectId;
  private final String databaseId;
  private final Values values;
  private final Templates templates = new Templates();
  private final Templates lastWritten = new Templates();
  private final Map<KindRef, KeyFactory> keyFactories = new ConcurrentHashMap<>();

  /** A mapper for entities of this project and database ("" for the default database). */
  public Entities(String projectId, String databaseId) {
    this.projectId = projectId;
    this.databaseId = databaseId == null ? "" : databaseId;
    this.values = new Values(projectId);
  }

  /**
   * The Datastore key of an item key: Stowage's encoded key name ({@link KeyNames}), or for an
   * adopted kind the native name or id ({@link AdoptedKeys}).
   *
   * @throws dev.stowage.InvalidRequestException if the key cannot be a key of this table
   */
  public Key key(TableLayout table, dev.stowage.item.Key key) {
    return table.adopted()
        ? AdoptedKeys.key(keyFactory(table), table, key)
        : keyFactory(table).newKey(KeyNames.name(key));
  }

  /** The Datastore key with a precomputed name, in a table Stowage lays out itself. */
  public Key keyOfName(TableLayout table, String name) {
    return keyFactory(table).newKey(name);
  }

  /** The kind of a table: an adopted kind's own name, else the table's logical name. */
  public static String kind(TableLayout table) {
    return table.adopted() ? table.adoptedName() : table.ref().table();
  }

  /** The table for messages: its name, and the kind it adopted if any. */
  public static String describe(TableLayout table) {
    return table.adopted()
        ? table.ref() + " (adopted kind '" + table.adoptedName() + "')"
        : table.ref().toString();
  }

  private KeyFactory keyFactory(TableLayout table) {
    // One factory per namespace and kind: newKey only reads it, so it is shared across threads.
    return keyFactories.computeIfAbsent(
        new KindRef(table.ref().namespace(), kind(table)),
        k -> new KeyFactory(projectId, k.namespace(), databaseId).setKind(k.kind()));
  }

  private record KindRef(String namespace, String kind) {}

  /** A fresh random token. */
  public static String newToken() {
    byte[] b = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * {@code n} fresh random tokens, as {@link #newToken} makes them, from one draw of the random
   * source: a batch write takes its generator's lock once instead of once per entity.
   */
  public static String[] newTokens(int n) {
    byte[] all = new byte[TOKEN_BYTES * n];
    RANDOM.nextBytes(all);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String[] out = new String[n];
    byte[] one = new byte[TOKEN_BYTES];
    for (int i = 0; i < n; i++) {
      System.arraycopy(all, i * TOKEN_BYTES, one, 0, TOKEN_BYTES);
      out[i] = b64.encodeToString(one);
    }
    return out;
  }

  /** The entity storing {@code item} under {@code token}. */
  public Entity toEntity(TableLayout layout, Item item, String token) {
    return toEntity(layout, item, token, null);
  }

  /**
   * The entity storing {@code item} under {@code token} in place of {@code previous} (the entity
   * stored before, or null): each property takes the previous value of the same name as its
   * template (see {@link Values}), so values Stowage read from another application's entity are
   * written back as the same native values.
   */
  public Entity toEntity(TableLayout layout, Item item, String token, Entity previous) {
    dev.stowage.item.Key itemKey = layout.keySchema().keyOf(item);
    return toEntity(layout, item, itemKey, key(layout, itemKey), token, previous);
  }

  /**
   * As {@link #toEntity(TableLayout, Item, String, Entity)}, with the item's key and its Datastore
   * key already computed by the caller.
   */
  public Entity toEntity(
      TableLayout layout,
      Item item,
      dev.stowage.item.Key itemKey,
      Key key,
      String token,
      Entity previous) {
    Entity.Builder b = Entity.newBuilder(key);
    Set<String> indexed = indexedNames(layout);
    // An adopted kind's key attribute lives in the key's name or id, not in a property: it is
    // written as a property only where the other application keeps it as one too (below).
    String keyAttribute = layout.adopted() ? layout.keySchema().partitionName() : null;
    Map<String, String> nativeIndexed = nativeIndexedNames(layout);
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      String name = e.getKey();
      AttributeValue v = e.getValue();
      // Datastore refuses names matching __.*__, which are valid attribute names: they are stored
      // escaped, as map keys are (Values.propertyName); every other name is its own property.
      String property = Values.propertyName(name);
      if (name.equals(keyAttribute) && (previous == null || !previous.contains(property))) {
        continue;
      }
      Value<?> forNativeIndex =
          nativeIndexed.containsKey(name)
              ? Values.nativeIndexed(
                  v,
                  previous != null && previous.contains(property)
                      ? previous.getValue(property)
                      : null,
                  "attribute '" + name + "' of " + itemKey + " in " + nativeIndexed.get(name))
              : null;
      if (indexed.contains(name) && v instanceof AttributeValue.BinaryValue bin) {
        b.set(property, Values.indexedBlob(bin.value()));
      } else if (forNativeIndex != null) {
        // A native index's attribute is an indexed property of a plain value, for the composite
        // index its queries use (and the other application's own queries).
        b.set(property, forNativeIndex);
      } else if (previous != null
          && previous.contains(property)
          && !AttributeNames.isReserved(name)) {
        b.set(property, values.toDatastore(v, previous.getValue(property)));
      } else {
        b.set(property, values.toDatastore(v));
      }
    }
    b.set(TOKEN, StringValue.newBuilder(token).setExcludeFromIndexes(true).build());
    return b.build();
  }

  /**
   * The stored item of an entity of {@code table}. An entity without a token (written by another
   * application) reads with the token {@code ""}, which an expectation of that token matches for as
   * long as no Stowage write gives the entity a real one.
   *
   * @throws dev.stowage.InvalidRequestException for an entity of an adopted kind that Stowage
   *     cannot address (see {@link AdoptedKeys#keyValue}), or whose property named like the key
   *     attribute holds a different value than its key
   */
  public StoredItem fromEntity(TableLayout table, Entity entity) {
    StoredItem item = decode(table, entity);
    templates.remember(entity);
    return item;
  }

  /**
   * The entity this driver last read or wrote under {@code key}, if it still remembers it: the
   * template of the next write replacing it (see {@link Templates}), or null.
   */
  public Entity template(Key key) {
    return templates.get(key);
  }

  /**
   * The entity this driver last wrote under {@code key}, if it still remembers it (reads do not
   * change it), or null: the version an unconditional put takes as the one it replaces (see {@link
   * Writes#put}).
   */
  public Entity lastWritten(Key key) {
    return lastWritten.get(key);
  }

  /** Remembers an entity just written as the template of the next write replacing it. */
  public void written(Entity entity) {
    long size = Templates.size(entity);
    templates.remember(entity, size);
    lastWritten.remember(entity, size);
  }

  /** Forgets the template of a deleted entity. */
  public void deleted(Key key) {
    templates.forget(key);
    lastWritten.forget(key);
  }

  /** Forgets every template (a table was dropped). */
  public void forgetTemplates() {
    templates.clear();
    lastWritten.clear();
  }

  /** Entities whose templates are remembered (for tests). */
  int templatesRemembered() {
    return templates.size();
  }

  /**
   * The stored item of an entity that is no longer stored (replaced or deleted), without
   * remembering it as a template.
   */
  public StoredItem replaced(TableLayout table, Entity entity) {
    return decode(table, entity);
  }

  private StoredItem decode(TableLayout table, Entity entity) {
    Map<String, AttributeValue> attrs = new LinkedHashMap<>();
    String keyAttribute = null;
    AttributeValue keyValue = null;
    if (table.adopted()) {
      keyAttribute = table.keySchema().partitionName();
      keyValue = AdoptedKeys.keyValue(table, entity.getKey());
      attrs.put(keyAttribute, keyValue);
    }
    String token = "";
    for (String name : entity.getNames()) {
      Value<?> v = entity.getValue(name);
      if (name.equals(TOKEN)) {
        token = (String) v.get();
        continue;
      }
      String attribute = Values.mapKey(name);
      AttributeValue value = values.fromDatastore(v);
      if (attribute.equals(keyAttribute)) {
        if (!value.equals(keyValue)) {
          throw new dev.stowage.InvalidRequestException(
              "entity "
                  + AdoptedKeys.describe(entity.getKey())
                  + " of table "
                  + table.ref()
                  + " has a property '"
                  + name
                  + "' that differs from its key; the table's key attribute '"
                  + keyAttribute
                  + "' reads from the key, so give it a name the kind's entities do not use as a"
                  + " property");
        }
        continue;
      }
      attrs.put(attribute, value);
    }
    return new StoredItem(StoredItems.of(attrs), token);
  }

  private static Set<String> indexedNames(TableLayout layout) {
    if (layout.indexes().isEmpty()) {
      return Set.of();
    }
    Set<String> names = new HashSet<>();
    for (IndexLayout i : layout.indexes()) {
      if (!i.isNative()) {
        names.add(i.partitionAttribute());
        names.add(i.sortAttribute());
      }
    }
    return names;
  }

  /** The attributes native indexes read, each with the first index reading it, for messages. */
  private static Map<String, String> nativeIndexedNames(TableLayout layout) {
    if (layout.indexes().isEmpty()) {
      return Map.of();
    }
    Map<String, String> names = new LinkedHashMap<>();
    for (IndexLayout i : layout.indexes()) {
      if (i.isNative()) {
        String what = "native index '" + i.name() + "'";
        names.putIfAbsent(i.partitionAttribute(), what);
        if (i.sortAttribute() != null) {
          names.putIfAbsent(i.sortAttribute(), what);
        }
      }
    }
    return names;
  }
}
