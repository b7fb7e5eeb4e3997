package dev.stowage;

import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything Stowage needs to know about a logical table: its name, key schema, secondary indexes,
 * per-attribute storage policies and optional version attribute. The same spec works on every
 * backend. Immutable and thread-safe; built and validated by {@link #builder(String, KeySchema)}.
 *
 * <p>Table names are 3 to 40 characters: a lowercase letter followed by lowercase letters, digits,
 * {@code _} or {@code -}. Validation rejects, with a message naming the problem: key attributes
 * that are compressed or encrypted, indexes over compressed or encrypted attributes or over key
 * attributes' own names twice, duplicate index names, a version attribute that is a key or encoded
 * attribute, a {@linkplain IndexSpec#nativeIndex native index} declaring a key attribute with
 * another type than the key schema's, or two native indexes declaring one attribute with different
 * types.
 */
public final class TableSpec {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{2,39}");

  private final String name;
  private final KeySchema keySchema;
  private final List<IndexSpec> indexes;
  private final Map<String, AttributePolicy> policies;
  private final String versionAttribute;
  private final int idempotencyWindow;
  private final String adoptedName;
  private final boolean descendingQueries;
  private final long overflowThreshold;
  // Derived from indexes: every write asks isIndexed of each of its attributes.
  private final Set<String> indexedAttributes;

  private TableSpec(Builder b) {
    this.name = b.name;
    this.keySchema = b.keySchema;
    this.indexes = List.copyOf(b.indexes);
    this.policies = Collections.unmodifiableMap(new LinkedHashMap<>(b.policies));
    this.versionAttribute = b.versionAttribute;
    this.idempotencyWindow = b.idempotencyWindow;
    this.adoptedName = b.adoptedName;
    this.descendingQueries = b.descendingQueries;
    this.overflowThreshold = b.overflowThreshold;
    Set<String> indexed = new HashSet<>();
    indexes.forEach(i -> indexed.addAll(i.attributes()));
    this.indexedAttributes = Collections.unmodifiableSet(indexed);
  }

  /** Starts a spec for table {@code name} with the given key schema. */
  public static Builder builder(String name, KeySchema keySchema) {
    return new Builder(name, keySchema);
  }

  /** True if {@code name} is a valid table name. */
  public static boolean isValidName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /** The logical table name. */
  public String name() {
    return name;
  }

  /** The primary key. */
  public KeySchema keySchema() {
    return keySchema;
  }

  /** The secondary indexes, in declaration order. */
  public List<IndexSpec> indexes() {
    return indexes;
  }

  /** The index with this name. */
  public Optional<IndexSpec> index(String indexName) {
    return indexes.stream().filter(i -> i.name().equals(indexName)).findFirst();
  }

  /** Declared attribute policies; attributes not listed are {@link AttributePolicy#PLAIN}. */
  public Map<String, AttributePolicy> policies() {
    return policies;
  }

  /** The policy of one attribute. */
  public AttributePolicy policy(String attribute) {
    return policies.getOrDefault(attribute, AttributePolicy.PLAIN);
  }

  /** The optimistic-locking version attribute, if declared. */
  public Optional<String> versionAttribute() {
    return Optional.ofNullable(versionAttribute);
  }

  /** How many recent request ids an item remembers for idempotent writes. */
  public int idempotencyWindow() {
    return idempotencyWindow;
  }

  /**
   * The physical name of an adopted table: an existing table, kind or Azure table that other tools
   * wrote, addressed by this name as it is and read in its native key layout (see {@link
   * Builder#adopt}). Empty for tables Stowage lays out itself.
   */
  public Optional<String> adoptedName() {
    return Optional.ofNullable(adoptedName);
  }

  /** True if the spec {@linkplain Builder#adopt adopts} an existing table. */
  public boolean isAdopted() {
    return adoptedName != null;
  }

  /**
   * True if the table's partitions are queried in descending sort order often enough that backends
   * reading only ascending keep what makes such queries cheap (see {@link
   * Builder#descendingQueries}). Descending queries work on every table either way.
   */
  public boolean descendingQueries() {
    return descendingQueries;
  }

  /**
   * The size above which items overflow to the blob store although the backend would take them (see
   * {@link Builder#overflowAbove}); empty when only the backend's limits decide.
   */
  public java.util.OptionalLong overflowThreshold() {
    return overflowThreshold == 0
        ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(overflowThreshold);
  }

  /** True if some index reads {@code attribute}. */
  public boolean isIndexed(String attribute) {
    return indexedAttributes.contains(attribute);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableSpec t
        && name.equals(t.name)
        && keySchema.equals(t.keySchema)
        && indexes.equals(t.indexes)
        && policies.equals(t.policies)
        && Objects.equals(versionAttribute, t.versionAttribute)
        && idempotencyWindow == t.idempotencyWindow
        && Objects.equals(adoptedName, t.adoptedName)
        && descendingQueries == t.descendingQueries
        && overflowThreshold == t.overflowThreshold;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        keySchema,
        indexes,
        policies,
        versionAttribute,
        idempotencyWindow,
        adoptedName,
        descendingQueries,
        overflowThreshold);
  }

  @Override
  public String toString() {
    return "TableSpec("
        + name
        + ", "
        + keySchema
        + ", indexes="
        + indexes
        + ", policies="
        + policies
        + (adoptedName == null ? "" : ", adopted=" + adoptedName)
        + (descendingQueries ? ", descendingQueries" : "")
        + (overflowThreshold == 0 ? "" : ", overflowAbove=" + overflowThreshold)
        + ")";
  }

  /** Builds a {@link TableSpec}; not thread-safe. */
  public static final class Builder {
    private final String name;
    private final KeySchema keySchema;
    private final List<IndexSpec> indexes = new ArrayList<>();
    private final Map<String, AttributePolicy> policies = new LinkedHashMap<>();
    private String versionAttribute;
    private int idempotencyWindow = 32;
    private String adoptedName;
    private boolean descendingQueries;
    private long overflowThreshold;

    private Builder(String name, KeySchema keySchema) {
      if (!isValidName(name)) {
        throw new IllegalArgumentException(
            "table name '"
                + name
                + "' must be 3 to 40 characters: a lowercase letter, then"
                + " lowercase letters, digits, '_' or '-'");
      }
      this.name = name;
      this.keySchema = Objects.requireNonNull(keySchema, "keySchema");
    }

    /**
     * Moves the largest movable attributes of items stored larger than {@code bytes} to the blob
     * store, as overflow does for items over the backend's limit, because that is cheaper: on
     * DynamoDB a 100 KB item costs 100 write units per write inline, and a blob put plus a one-unit
     * pointer item moved. {@code dev.stowage.cost.OverflowEconomics#threshold} computes the size
     * from prices and the table's read/write mix. Needs a blob store; without one, and for an item
     * whose key and indexed attributes alone exceed {@code bytes}, the backend's own limit decides.
     * Reads are unchanged (transparent).
     *
     * @param bytes at least 1024, as the backend's size model counts items
     */
    public Builder overflowAbove(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("overflow threshold must be at least 1024 bytes");
      }
      this.overflowThreshold = bytes;
      return this;
    }

    /** Adds a secondary index. */
    public Builder index(IndexSpec index) {
      indexes.add(Objects.requireNonNull(index, "index"));
      return this;
    }

    /** Adds an index with {@link IndexSpec.Projection#ALL}. */
    public Builder index(
        String indexName, List<String> partitionAttributes, List<String> sortAttributes) {
      return index(IndexSpec.of(indexName, partitionAttributes, sortAttributes));
    }

    /**
     * Adds a native index returning whole items: the backend's own secondary index {@code
     * nativeName} keyed by {@code key}; see {@link IndexSpec#nativeIndex(String, String,
     * KeySchema)}.
     */
    public Builder nativeIndex(String indexName, String nativeName, KeySchema key) {
      return index(IndexSpec.nativeIndex(indexName, nativeName, key));
    }

    /** Declares how an attribute is stored. */
    public Builder policy(String attribute, AttributePolicy policy) {
      policies.put(AttributeNames.validate(attribute), Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /** Declares an attribute compressed. */
    public Builder compressed(String attribute) {
      return merge(attribute, AttributePolicy.COMPRESSED);
    }

    /** Declares an attribute encrypted. */
    public Builder encrypted(String attribute) {
      return merge(attribute, AttributePolicy.ENCRYPTED);
    }

    private Builder merge(String attribute, AttributePolicy add) {
      AttributePolicy old = policies.getOrDefault(attribute, AttributePolicy.PLAIN);
      return policy(
          attribute,
          new AttributePolicy(
              old.compressed() || add.compressed(), old.encrypted() || add.encrypted()));
    }

    /**
     * Declares a number attribute as the item's version: every put and update then requires the
     * stored version to equal the one the caller read (absent for a new item) and increments it.
     */
    public Builder versionAttribute(String attribute) {
      this.versionAttribute = AttributeNames.validate(attribute);
      return this;
    }

    /** How many recent request ids each item remembers (default 32, 1 to 1000). */
    public Builder idempotencyWindow(int window) {
      if (window < 1 || window > 1000) {
        throw new IllegalArgumentException("idempotency window must be 1 to 1000, was " + window);
      }
      this.idempotencyWindow = window;
      return this;
    }

    /**
     * Adopts an existing table that other tools wrote and keep writing: {@code physicalName} is the
     * backend's own table name (DynamoDB table, Datastore kind, Azure table), used as it is, and
     * items are read in the backend's native key layout instead of Stowage's encoded one: DynamoDB
     * hash and range attributes, a Datastore key name (string partition key) or numeric id (number
     * partition key), Azure PartitionKey and RowKey strings. The key schema must describe that
     * native key; opening the table checks it and creates nothing. What each backend orders and
     * refuses is in its driver's documentation ("Adopting an existing table").
     *
     * @param physicalName 1 to 255 characters without control characters; the driver checks the
     *     backend's own naming rules when the table is opened
     */
    public Builder adopt(String physicalName) {
      Objects.requireNonNull(physicalName, "physicalName");
      if (physicalName.isEmpty()
          || physicalName.length() > 255
          || physicalName.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException(
            "adopted table name '"
                + physicalName
                + "' must be 1 to 255 characters without control characters");
      }
      this.adoptedName = physicalName;
      return this;
    }

    /**
     * Declares that the table's partitions are queried in descending sort order ({@link
     * dev.stowage.query.Query.Builder#descending}) as a regular access path, for example newest
     * first. Descending queries work on every table; the declaration only changes what a backend
     * that reads ascending only keeps for them. On Azure Table Storage a declared table keeps a
     * mirror row per item, so a descending page costs two requests and each put of an item with a
     * sort key becomes a two-entity transaction plus a read of the written item; an undeclared
     * table writes each item with one request and answers a descending page by reading the range's
     * keys from its lower end up to the page (docs/azure.md, "Descending queries and their cost").
     * The same holds for the table's indexes on Azure: a declared table keeps a reverse row per
     * index entry (two index rows per indexed item), an undeclared one only the forward row, and
     * answers a descending index page by reading the entries of the range up to the page. DynamoDB,
     * Datastore and the memory driver read either direction natively and ignore it. The declaration
     * is part of an Azure table's stored layout: a table created without it cannot be opened with
     * it. Tables without a sort key have nothing to order, except through indexes.
     */
    public Builder descendingQueries() {
      this.descendingQueries = true;
      return this;
    }

    /**
     * Validates and builds the spec.
     *
     * @throws IllegalArgumentException naming the first problem found
     */
    public TableSpec build() {
      for (var e : policies.entrySet()) {
        if (e.getValue().encoded() && keySchema.isKeyAttribute(e.getKey())) {
          throw new IllegalArgumentException(
              "key attribute '"
                  + e.getKey()
                  + "' of table '"
                  + name
                  + "' cannot be compressed or encrypted: keys must stay comparable");
        }
      }
      List<String> names = new ArrayList<>();
      Map<String, IndexSpec> nativeTypes = new LinkedHashMap<>();
      for (IndexSpec index : indexes) {
        if (index.isNative()) {
          checkNativeTypes(index, nativeTypes);
        }
        if (names.contains(index.name())) {
          throw new IllegalArgumentException(
              "table '" + name + "' declares index '" + index.name() + "' twice");
        }
        names.add(index.name());
        for (String a : index.attributes()) {
          AttributePolicy p = policies.getOrDefault(a, AttributePolicy.PLAIN);
          if (p.encrypted()) {
            throw new IllegalArgumentException(
                "index '"
                    + index.name()
                    + "' of table '"
                    + name
                    + "' uses encrypted attribute '"
                    + a
                    + "': randomized ciphertext cannot be indexed or compared");
          }
          if (p.compressed()) {
            throw new IllegalArgumentException(
                "index '"
                    + index.name()
                    + "' of table '"
                    + name
                    + "' uses compressed attribute '"
                    + a
                    + "': compressed bytes do not keep the value's order");
          }
        }
      }
      if (versionAttribute != null) {
        if (keySchema.isKeyAttribute(versionAttribute)) {
          throw new IllegalArgumentException(
              "version attribute '" + versionAttribute + "' cannot be a key attribute");
        }
        if (policies.getOrDefault(versionAttribute, AttributePolicy.PLAIN).encoded()) {
          throw new IllegalArgumentException(
              "version attribute '" + versionAttribute + "' cannot be compressed or encrypted");
        }
      }
      return new TableSpec(this);
    }

    /**
     * A native index's attributes hold values of its declared types, which must agree with the
     * table's key types and with other native indexes over the same attributes: the core checks
     * every written value against them.
     */
    private void checkNativeTypes(IndexSpec index, Map<String, IndexSpec> declaredBy) {
      KeySchema key = index.nativeIndex().key();
      Map<String, AttributeType> declared = new LinkedHashMap<>();
      declared.put(key.partitionName(), key.partitionType());
      key.sortName().ifPresent(s -> declared.put(s, key.sortType().orElseThrow()));
      for (var e : declared.entrySet()) {
        String a = e.getKey();
        AttributeType type = e.getValue();
        AttributeType keyType =
            a.equals(keySchema.partitionName())
                ? keySchema.partitionType()
                : keySchema
                    .sortName()
                    .filter(a::equals)
                    .flatMap(x -> keySchema.sortType())
                    .orElse(null);
        if (keyType != null && keyType != type) {
          throw new IllegalArgumentException(
              "native index '"
                  + index.name()
                  + "' of table '"
                  + name
                  + "' declares '"
                  + a
                  + "' as "
                  + type
                  + ", but it is a "
                  + keyType
                  + " key attribute of the table");
        }
        IndexSpec other = declaredBy.putIfAbsent(a, index);
        if (other != null) {
          AttributeType otherType =
              other.nativeIndex().key().partitionName().equals(a)
                  ? other.nativeIndex().key().partitionType()
                  : other.nativeIndex().key().sortType().orElseThrow();
          if (otherType != type) {
            throw new IllegalArgumentException(
                "attribute '"
                    + a
                    + "' of table '"
                    + name
                    + "' is "
                    + otherType
                    + " in native index '"
                    + other.name()
                    + "' but "
                    + type
                    + " in native index '"
                    + index.name()
                    + "'");
          }
        }
      }
    }
  }
}
