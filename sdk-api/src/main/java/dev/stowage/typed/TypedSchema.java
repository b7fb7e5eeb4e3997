package dev.stowage.typed;

import dev.stowage.InvalidRequestException;
import dev.stowage.TableSpec;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.typed.internal.Mapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How instances of one application class are stored as items: the attribute of every field, the
 * key, the indexes, compression, encryption and version fields, and the {@link TableSpec} all of
 * that implies. Derived from the class's annotations once, when the schema is built; mapping an
 * instance then calls accessors and constructors through generated lambdas and method handles,
 * never through reflection.
 *
 * <p>Supported classes are records, classes with accessors and a constructor taking every stored
 * field (in declaration order), classes with a no-argument constructor and setters, and immutable
 * classes with a static {@code builder()}. Field types and their stored forms are listed in
 * docs/typed-items.md. Immutable and thread-safe; {@link #of} caches one schema per class.
 *
 * @param <T> the stored class
 */
public final class TypedSchema<T> {
  private static final ClassValue<TypedSchema<?>> CACHE =
      new ClassValue<>() {
        @Override
        protected TypedSchema<?> computeValue(Class<?> type) {
          return new TypedSchema<>(Mapper.create(type, Map.of(), null));
        }
      };

  final Mapper<T> mapper;

  private TypedSchema(Mapper<T> mapper) {
    this.mapper = mapper;
  }

  /**
   * The schema of a class with the built-in converters only, built once per class.
   *
   * @throws InvalidRequestException if the class cannot be mapped; the message names the class and
   *     field (no key, an unsupported field type, a key or indexed field marked encrypted, ...)
   */
  @SuppressWarnings("unchecked")
  public static <T> TypedSchema<T> of(Class<T> type) {
    return (TypedSchema<T>) CACHE.get(Objects.requireNonNull(type, "type"));
  }

  /** Starts a schema with application converters or another table name. */
  public static <T> Builder<T> builder(Class<T> type) {
    return new Builder<>(type);
  }

  /** The mapped class. */
  public Class<T> type() {
    return mapper.type();
  }

  /** The table spec the class's annotations imply. */
  public TableSpec spec() {
    return mapper.spec();
  }

  /**
   * The item an instance is stored as.
   *
   * @throws InvalidRequestException if a key field is null or a value has no stored form; the
   *     message names the field
   */
  public Item toItem(T instance) {
    return mapper.toItem(Objects.requireNonNull(instance, "instance"));
  }

  /**
   * The instance a stored item reads as. Attributes the class does not map are ignored; fields
   * whose attribute is absent are null, zero, false or empty.
   *
   * @throws InvalidRequestException if a value does not fit its field; the message names the item's
   *     key and the attribute
   */
  public T fromItem(Item item) {
    return mapper.fromItem(Objects.requireNonNull(item, "item"), null);
  }

  /** The key of an instance. */
  public Key keyOf(T instance) {
    return mapper.keyOf(Objects.requireNonNull(instance, "instance"));
  }

  /**
   * The key with this partition key field value (for a class without a sort key).
   *
   * @throws InvalidRequestException if the value is not of the field's type, or the class has a
   *     sort key
   */
  public Key key(Object partition) {
    return mapper.key(Objects.requireNonNull(partition, "partition"), null);
  }

  /** The key with these partition and sort key field values. */
  public Key key(Object partition, Object sort) {
    return mapper.key(
        Objects.requireNonNull(partition, "partition"), Objects.requireNonNull(sort, "sort"));
  }

  /**
   * The stored attribute name of a field.
   *
   * @throws InvalidRequestException if the class has no such stored field
   */
  public String attributeOf(String field) {
    return mapper.field(field).attribute();
  }

  @Override
  public String toString() {
    return "TypedSchema(" + type().getName() + ", " + spec() + ")";
  }

  /** Builds a {@link TypedSchema}; not thread-safe. */
  public static final class Builder<T> {
    private final Class<T> type;
    private final Map<Class<?>, AttributeConverter<?>> converters = new LinkedHashMap<>();
    private String tableName;
    private java.lang.invoke.MethodHandles.Lookup lookup;

    private Builder(Class<T> type) {
      this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Stores every field of type {@code valueType} (and every element of such lists, sets and maps)
     * through {@code converter}, in this class and the classes nested in it. Takes precedence over
     * the built-in mapping; a field's own {@link Convert} takes precedence over this.
     */
    public <V> Builder<T> converter(Class<V> valueType, AttributeConverter<V> converter) {
      converters.put(
          Objects.requireNonNull(valueType, "valueType"),
          Objects.requireNonNull(converter, "converter"));
      return this;
    }

    /** The table name, instead of {@link StowageTable}'s. */
    public Builder<T> tableName(String name) {
      this.tableName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Reaches the class (and the classes nested in it, and its builder) through {@code lookup}, a
     * lookup made in the application's own module ({@code MethodHandles.lookup()} in any of its
     * classes), instead of through Stowage's module. In a named module whose package is not open to
     * {@code dev.stowage}, this is the alternative to {@code opens com.example.model to
     * dev.stowage;}. The lookup needs full privilege ({@link
     * java.lang.invoke.MethodHandles.Lookup#hasFullPrivilegeAccess()}), as {@code
     * MethodHandles.lookup()} has.
     */
    public Builder<T> lookup(java.lang.invoke.MethodHandles.Lookup lookup) {
      this.lookup = Objects.requireNonNull(lookup, "lookup");
      return this;
    }

    /**
     * Maps the class.
     *
     * @throws InvalidRequestException naming the class and field that cannot be mapped, or saying
     *     that its package is not open to {@code dev.stowage} and no {@link #lookup} was given
     */
    public TypedSchema<T> build() {
      return new TypedSchema<>(Mapper.create(type, converters, tableName, lookup));
    }
  }
}
