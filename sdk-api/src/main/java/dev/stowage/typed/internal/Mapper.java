package dev.stowage.typed.internal;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.internal.ItemAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.item.Utf8Order;
import dev.stowage.query.Update;
import dev.stowage.typed.AttributeConverter;
import dev.stowage.typed.Indexed;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;
import dev.stowage.typed.Version;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The mapping of one stored class: its model, key and version fields, indexes and the table spec
 * they imply. Built once per class (and converter set); thread-safe. Every failure to map the class
 * is an {@link InvalidRequestException} naming the class and field; every stored item that does not
 * fit names the item's key and attribute.
 *
 * @param <T> the stored class
 */
public final class Mapper<T> {
  private final Class<T> type;
  private final ClassModel model;
  private final Property[] properties;
  private final Property[] inNameOrder;
  private final byte[] kindsInNameOrder;
  private final String[] namesInOrder;
  private final Map<String, Property> byField = new LinkedHashMap<>();
  private final Map<String, Property> byAttribute = new LinkedHashMap<>();
  private final Property partition;
  private final Property sort;
  private final Property version;
  private final TableSpec spec;
  private final boolean named;
  private final Property[] nested;
  private final String[] staleAliases;

  private Mapper(
      Class<T> type,
      Map<Class<?>, AttributeConverter<?>> converters,
      String tableName,
      java.lang.invoke.MethodHandles.Lookup caller) {
    this.type = type;
    try {
      this.model = new ModelFactory(converters, caller).model(type);
    } catch (ModelFactory.MappingException e) {
      throw new InvalidRequestException(e.getMessage(), e.getCause());
    }
    this.properties = model.properties().toArray(new Property[0]);
    this.inNameOrder = properties.clone();
    Arrays.sort(inNameOrder, Comparator.comparing(Property::attribute, Utf8Order.COMPARATOR));
    this.kindsInNameOrder = new byte[inNameOrder.length];
    this.namesInOrder = new String[inNameOrder.length];
    for (int i = 0; i < inNameOrder.length; i++) {
      kindsInNameOrder[i] = ClassModel.kindOf(inNameOrder[i]);
      namesInOrder[i] = inNameOrder[i].attribute();
    }
    Property p = null;
    Property s = null;
    Property v = null;
    for (Property prop : properties) {
      byField.put(prop.field(), prop);
      Property clash = byAttribute.put(prop.attribute(), prop);
      if (clash != null) {
        throw fail(
            prop,
            "its attribute '" + prop.attribute() + "' is also field '" + clash.field() + "''s");
      }
      var f = prop.javaField();
      if (f.isAnnotationPresent(PartitionKey.class)) {
        if (p != null) {
          throw fail(prop, "a second @PartitionKey (the first is '" + p.field() + "')");
        }
        p = keyField(prop, "@PartitionKey");
      }
      if (f.isAnnotationPresent(SortKey.class)) {
        if (s != null) {
          throw fail(prop, "a second @SortKey (the first is '" + s.field() + "')");
        }
        s = keyField(prop, "@SortKey");
      }
      if (f.isAnnotationPresent(Version.class)) {
        if (v != null) {
          throw fail(prop, "a second @Version (the first is '" + v.field() + "')");
        }
        v = versionField(prop);
      }
    }
    for (Property prop : properties) {
      for (String alias : prop.aliases()) {
        Property other = byAttribute.get(alias);
        if (other != null) {
          throw fail(
              prop, "its alias '" + alias + "' is field '" + other.field() + "''s attribute");
        }
      }
    }
    if (p == null) {
      throw new InvalidRequestException(
          "cannot map class " + type.getName() + ": no field is marked @PartitionKey");
    }
    this.partition = p;
    this.sort = s;
    this.version = v;
    StowageTable table = type.getAnnotation(StowageTable.class);
    this.named = table != null || tableName != null;
    String name =
        tableName != null
            ? tableName
            : table != null ? table.value() : type.getSimpleName().toLowerCase(Locale.ROOT);
    this.spec = buildSpec(name);
    List<Property> maps = new ArrayList<>();
    for (Property prop : properties) {
      if (prop != partition && prop != sort && prop.codec() instanceof ClassModel.NestedCodec) {
        maps.add(prop);
      }
    }
    this.nested = maps.toArray(new Property[0]);
    this.staleAliases = staleAliases();
  }

  /**
   * Maps a class.
   *
   * @param tableName the table name, or null for {@code @StowageTable}'s (else the class's simple
   *     name in lower case)
   * @throws InvalidRequestException naming the class and field that cannot be mapped
   */
  public static <T> Mapper<T> create(
      Class<T> type, Map<Class<?>, AttributeConverter<?>> converters, String tableName) {
    return new Mapper<>(type, converters, tableName, null);
  }

  /**
   * Maps a class through a lookup the application made in its own module.
   *
   * @param caller the application's lookup, or null for Stowage's own (the class's package must
   *     then be open to {@code dev.stowage})
   */
  public static <T> Mapper<T> create(
      Class<T> type,
      Map<Class<?>, AttributeConverter<?>> converters,
      String tableName,
      java.lang.invoke.MethodHandles.Lookup caller) {
    return new Mapper<>(type, converters, tableName, caller);
  }

  private InvalidRequestException fail(Property p, String why) {
    return new InvalidRequestException(
        "cannot map class " + type.getName() + ", field '" + p.field() + "': " + why);
  }

  private Property keyField(Property p, String what) {
    if (!ModelFactory.isKeyType(p.storedType()) || p.optional()) {
      throw fail(
          p,
          what
              + " must be stored as a string, number or binary value, but "
              + p.javaField().getGenericType().getTypeName()
              + (p.storedType() == null
                  ? " has no fixed stored type"
                  : " is stored as " + p.storedType()));
    }
    if (p.policy().encrypted()) {
      throw fail(p, what + " cannot be @Encrypted: keys must stay comparable");
    }
    if (p.policy().compressed()) {
      throw fail(p, what + " cannot be @Compressed: keys must stay comparable");
    }
    return p;
  }

  private Property versionField(Property p) {
    Class<?> t = p.valueType();
    if (!(t == Long.class || t == Integer.class || t == BigInteger.class || t == BigDecimal.class)
        || p.optional()) {
      throw fail(p, "@Version must be a long, int, Long, Integer, BigInteger or BigDecimal");
    }
    if (p.policy().encoded()) {
      throw fail(p, "@Version cannot be compressed or encrypted");
    }
    return p;
  }

  private TableSpec buildSpec(String name) {
    KeySchema keys =
        sort == null
            ? KeySchema.of(partition.attribute(), partition.storedType())
            : KeySchema.of(
                partition.attribute(), partition.storedType(), sort.attribute(), sort.storedType());
    TableSpec.Builder b;
    try {
      b = TableSpec.builder(name, keys);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(
          "cannot map class " + type.getName() + ": " + e.getMessage() + " (see @StowageTable)", e);
    }
    record Column(Property p, Indexed ix) {}
    Map<String, List<Column>> indexes = new LinkedHashMap<>();
    for (Property p : properties) {
      if (p.policy().encoded()) {
        b.policy(p.attribute(), p.policy());
      }
      for (Indexed ix : p.javaField().getAnnotationsByType(Indexed.class)) {
        if (!ModelFactory.isKeyType(p.storedType())) {
          throw fail(
              p,
              "index '"
                  + ix.name()
                  + "' needs a string, number or binary value, but the field is "
                  + (p.storedType() == null
                      ? "of no fixed stored type"
                      : "stored as " + p.storedType()));
        }
        if (p.policy().encoded()) {
          throw fail(p, "index '" + ix.name() + "' cannot use a compressed or encrypted field");
        }
        indexes.computeIfAbsent(ix.name(), k -> new ArrayList<>()).add(new Column(p, ix));
      }
    }
    for (var e : indexes.entrySet()) {
      List<Column> cols = new ArrayList<>(e.getValue());
      cols.sort(Comparator.comparingInt(c -> c.ix().position()));
      List<String> part = new ArrayList<>();
      List<String> sorted = new ArrayList<>();
      for (Column c : cols) {
        (c.ix().sort() ? sorted : part).add(c.p().attribute());
      }
      try {
        b.index(IndexSpec.of(e.getKey(), part, sorted));
      } catch (IllegalArgumentException x) {
        throw new InvalidRequestException(
            "cannot map class " + type.getName() + ": " + x.getMessage(), x);
      }
    }
    if (version != null) {
      b.versionAttribute(version.attribute());
    }
    try {
      return b.build();
    } catch (IllegalArgumentException x) {
      throw new InvalidRequestException(
          "cannot map class " + type.getName() + ": " + x.getMessage(), x);
    }
  }

  /** The mapped class. */
  public Class<T> type() {
    return type;
  }

  /** The spec the class implies. */
  public TableSpec spec() {
    return spec;
  }

  /** True if the table name came from {@code @StowageTable} or the caller, not the class name. */
  public boolean named() {
    return named;
  }

  /** The item of an instance. @throws InvalidRequestException naming the field that fails */
  public Item toItem(T instance) {
    int n = inNameOrder.length;
    String[] names = new String[n];
    AttributeValue[] values = new AttributeValue[n];
    int size = 0;
    for (int i = 0; i < n; i++) {
      Property p = inNameOrder[i];
      AttributeValue v;
      try {
        v = ClassModel.encodeProperty(p, kindsInNameOrder[i], instance);
      } catch (ClassModel.FieldException e) {
        throw new InvalidRequestException(
            "cannot store " + type.getSimpleName() + " field '" + e.path + "': " + e.reason(),
            e.getCause());
      }
      if (v != null) {
        names[size] = namesInOrder[i];
        values[size++] = v;
      } else if (p == partition || p == sort) {
        throw new InvalidRequestException(
            "cannot store " + type.getSimpleName() + ": key field '" + p.field() + "' is null");
      }
    }
    // Names were validated when the class was mapped, values by their constructors, and the
    // properties are walked in the item's own name order: the arrays are the item as it is.
    return ItemAccess.ofSorted(names, values, size);
  }

  /**
   * The instance of a stored item.
   *
   * @throws InvalidRequestException naming the table, the item's key and the attribute whose value
   *     does not fit the class
   */
  public T fromItem(Item item, String table) {
    try {
      return type.cast(model.decode(item));
    } catch (ClassModel.FieldException e) {
      throw new InvalidRequestException(
          "item "
              + describeKey(item)
              + (table == null ? "" : " of table '" + table + "'")
              + " does not fit class "
              + type.getName()
              + ": attribute '"
              + e.path
              + "': "
              + e.reason(),
          e.getCause());
    } catch (RuntimeException e) {
      throw new InvalidRequestException(
          "item "
              + describeKey(item)
              + (table == null ? "" : " of table '" + table + "'")
              + " cannot be built as "
              + type.getName()
              + ": "
              + e,
          e);
    }
  }

  private String describeKey(Item item) {
    try {
      return spec.keySchema().keyOf(item).toString();
    } catch (RuntimeException e) {
      return "(without a valid key)";
    }
  }

  /** The key of an instance. */
  public Key keyOf(T instance) {
    KeyValue p = (KeyValue) ClassModel.encodeProperty(partition, instance);
    if (p == null) {
      throw new InvalidRequestException(
          "key field '" + partition.field() + "' of " + type.getSimpleName() + " is null");
    }
    if (sort == null) {
      return Key.of(p);
    }
    KeyValue s = (KeyValue) ClassModel.encodeProperty(sort, instance);
    if (s == null) {
      throw new InvalidRequestException(
          "key field '" + sort.field() + "' of " + type.getSimpleName() + " is null");
    }
    return Key.of(p, s);
  }

  /** A key from the partition (and sort) field values. */
  public Key key(Object partitionValue, Object sortValue) {
    KeyValue p = keyValue(partition, partitionValue);
    if (sort == null) {
      if (sortValue != null) {
        throw new InvalidRequestException(type.getSimpleName() + " has no @SortKey field");
      }
      return Key.of(p);
    }
    if (sortValue == null) {
      throw new InvalidRequestException(
          type.getSimpleName() + " needs a value for its @SortKey field '" + sort.field() + "'");
    }
    return Key.of(p, keyValue(sort, sortValue));
  }

  /** The stored key-type value of a field value. */
  public KeyValue keyValue(Property p, Object value) {
    AttributeValue v = encode(p, value);
    if (!(v instanceof KeyValue kv)) {
      throw new InvalidRequestException(
          "field '"
              + p.field()
              + "' of "
              + type.getSimpleName()
              + " is not stored as a string,"
              + " number or binary value and cannot be a key or index column");
    }
    return kv;
  }

  /** The stored form of a value for a field, checked against the field's type. */
  public AttributeValue encode(Property p, Object value) {
    try {
      return p.encodeValue(value, type.getSimpleName());
    } catch (RuntimeException e) {
      throw new InvalidRequestException(e.getMessage(), e);
    }
  }

  /**
   * The field with this name.
   *
   * @throws InvalidRequestException naming the class and its fields if there is none
   */
  public Property field(String name) {
    Property p = byField.get(name);
    if (p == null) {
      throw new InvalidRequestException(
          type.getName() + " has no stored field '" + name + "'; its fields: " + byField.keySet());
    }
    return p;
  }

  /** The field stored under this attribute, or null. */
  public Property byAttribute(String attribute) {
    return byAttribute.get(attribute);
  }

  /** True if the field is the partition or sort key. */
  public boolean isKey(Property p) {
    return p == partition || p == sort;
  }

  /** True if a field holds a nested record or class (stored as a map another writer may extend). */
  public boolean hasNested() {
    return nested.length > 0;
  }

  /**
   * {@code fresh} (an item {@link #toItem} made) with the keys of {@code current}'s nested maps
   * that the nested classes do not map merged in, at every level; see {@code ClassModel.merge}.
   */
  public Item mergeNested(Item fresh, Item current) {
    Item.Builder b = null;
    for (Property p : nested) {
      if (fresh.attributes().get(p.attribute()) instanceof AttributeValue.MapValue f
          && current.attributes().get(p.attribute()) instanceof AttributeValue.MapValue old) {
        AttributeValue.MapValue merged = ((ClassModel.NestedCodec) p.codec()).model().merge(f, old);
        if (merged != f) {
          if (b == null) {
            b = fresh.toBuilder();
          }
          b.put(p.attribute(), merged);
        }
      }
    }
    return b == null ? fresh : b.build();
  }

  /**
   * The condition that the nested maps a put merged are still as {@code current} (null: no item)
   * held them: each plain nested attribute equal to its value then, or absent if it was. Null when
   * no nested attribute can be compared: compressed and encrypted values are stored in a form no
   * condition compares.
   */
  public dev.stowage.query.Condition nestedUnchanged(Item current) {
    List<dev.stowage.query.Condition> all = new ArrayList<>();
    for (Property p : nested) {
      if (p.policy().encoded()) {
        continue;
      }
      AttributeValue v = current == null ? null : current.attributes().get(p.attribute());
      all.add(
          v == null
              ? dev.stowage.query.Condition.notExists(p.attribute())
              : dev.stowage.query.Condition.eq(p.attribute(), v));
    }
    return all.isEmpty()
        ? null
        : all.size() == 1
            ? all.get(0)
            : dev.stowage.query.Condition.and(all.toArray(new dev.stowage.query.Condition[0]));
  }

  /** True if the plain (comparable) nested maps of two items, either null if absent, are equal. */
  public boolean sameNested(Item a, Item b) {
    for (Property p : nested) {
      if (!p.policy().encoded()
          && !java.util.Objects.equals(
              a == null ? null : a.attributes().get(p.attribute()),
              b == null ? null : b.attributes().get(p.attribute()))) {
        return false;
      }
    }
    return true;
  }

  /** The version field, or null. */
  public Property version() {
    return version;
  }

  /** The partition key field. */
  public Property partition() {
    return partition;
  }

  /** The sort key field, or null. */
  public Property sort() {
    return sort;
  }

  /**
   * The update that makes a stored item hold exactly the mapped attributes of {@code stored} (an
   * item {@link #toItem} made) and leaves every attribute the class does not map as it is: each
   * non-key field present is set, each absent one removed, and every alias (an earlier name of a
   * field) removed, so a renamed attribute leaves no stale copy under its old name. A null version
   * is set to zero, which the core's version check reads as "no item stored yet", the check a put
   * of that instance makes.
   *
   * @return null for a class that maps nothing but its key (an update needs an action)
   */
  public Update mergeUpdate(Item stored) {
    if (staleAliases == null) {
      return null;
    }
    Update.Builder u = Update.builder();
    Map<String, AttributeValue> attributes = stored.attributes();
    for (Property p : inNameOrder) {
      if (p == partition || p == sort) {
        continue;
      }
      AttributeValue v = attributes.get(p.attribute());
      if (v != null) {
        u.set(p.attribute(), v);
      } else if (p == version) {
        u.set(p.attribute(), AttributeValue.of(BigDecimal.ZERO));
      } else {
        u.remove(p.attribute());
      }
    }
    for (String alias : staleAliases) {
      u.remove(alias);
    }
    return u.build();
  }

  /**
   * The aliases a merging update removes (those that are neither a field's attribute nor a key
   * attribute), each once, in name order; null when the class maps nothing but its key, so that
   * there is nothing to update.
   */
  private String[] staleAliases() {
    java.util.Set<String> named = new HashSet<>();
    for (Property p : inNameOrder) {
      if (p != partition && p != sort) {
        named.add(p.attribute());
      }
    }
    List<String> stale = new ArrayList<>();
    for (Property p : inNameOrder) {
      for (String alias : p.aliases()) {
        if (named.add(alias) && !spec.keySchema().isKeyAttribute(alias)) {
          stale.add(alias);
        }
      }
    }
    return named.isEmpty() ? null : stale.toArray(new String[0]);
  }
}
