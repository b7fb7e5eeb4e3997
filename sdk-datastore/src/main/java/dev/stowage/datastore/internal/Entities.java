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
import dev.stowage.spi.TableRef;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Maps Stowage items to Datastore entities and back: a table is a kind, a namespace the native
 * namespace, the key name comes from {@link KeyNames}. Every property Stowage types is excluded
 * from indexes except the synthesized index attributes and the attributes native indexes read
 * (plain strings, blobs, integers and doubles, see {@link Values#nativeIndexed}); a property
 * replacing one stored before keeps its native type and index flag where {@link Values} can; the
 * version token lives in the property {@value #TOKEN}. Thread-safe.
 */
public final class Entities {
  /** The property holding the version token; stripped from items on read. */
  public static final String TOKEN = "stowage:tok";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final String projectId;
  private final String databaseId;
  private final Values values;

  /** A mapper for entities of this project and database ("" for the default database). */
  public Entities(String projectId, String databaseId) {
    this.projectId = projectId;
    this.databaseId = databaseId == null ? "" : databaseId;
    this.values = new Values(projectId);
  }

  /** The Datastore key of an item key. */
  public Key key(TableRef table, dev.stowage.item.Key key) {
    return keyFactory(table).newKey(KeyNames.name(key));
  }

  /** The Datastore key with a precomputed name. */
  public Key keyOfName(TableRef table, String name) {
    return keyFactory(table).newKey(name);
  }

  private KeyFactory keyFactory(TableRef table) {
    return new KeyFactory(projectId, table.namespace(), databaseId).setKind(table.table());
  }

  /** A fresh random token. */
  public static String newToken() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
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
    Entity.Builder b = Entity.newBuilder(key(layout.ref(), itemKey));
    Set<String> indexed = indexedNames(layout);
    Map<String, String> nativeIndexed = nativeIndexedNames(layout);
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      String name = e.getKey();
      AttributeValue v = e.getValue();
      // Datastore refuses names matching __.*__, which are valid attribute names: they are stored
      // escaped, as map keys are (Values.propertyName); every other name is its own property.
      String property = Values.propertyName(name);
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

  /** The stored item of an entity. */
  public StoredItem fromEntity(Entity entity) {
    Map<String, AttributeValue> attrs = new LinkedHashMap<>();
    String token = "";
    for (String name : entity.getNames()) {
      Value<?> v = entity.getValue(name);
      if (name.equals(TOKEN)) {
        token = (String) v.get();
      } else {
        attrs.put(Values.mapKey(name), values.fromDatastore(v));
      }
    }
    return new StoredItem(StoredItems.of(attrs), token);
  }

  private static Set<String> indexedNames(TableLayout layout) {
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
