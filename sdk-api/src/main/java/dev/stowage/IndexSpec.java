package dev.stowage;

import dev.stowage.item.AttributeNames;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A secondary index over one or more attributes for its partition part and zero or more for its
 * sort part (multi-column). An item appears in the index only when it has every attribute the index
 * names, each a string, number or binary value (sparse index). Index entries order by the sort
 * attributes as a tuple, component by component, in key order.
 *
 * <p>Stowage maintains such an index itself: its core writes two synthesized attributes on every
 * indexed item and each backend indexes those. A <em>native</em> index ({@link #nativeIndex}) is
 * instead one the backend already has, such as a DynamoDB GSI or LSI another application created:
 * it has one partition attribute and at most one sort attribute, whose plain values the backend
 * indexes and compares itself, and Stowage writes nothing for it, so an adopted table answers its
 * existing queries without a backfill.
 *
 * <p>Index names are 1 to 32 characters: a letter followed by letters, digits or underscores.
 * Immutable and thread-safe.
 *
 * @param name the index name, unique within its table
 * @param partitionAttributes attributes whose values, together, select an index partition
 * @param sortAttributes attributes whose values, as a tuple, order entries within a partition
 * @param projection which attributes an index query returns
 * @param nativeIndex the backend's own index this one maps to, or null for an index Stowage
 *     maintains
 */
public record IndexSpec(
    String name,
    List<String> partitionAttributes,
    List<String> sortAttributes,
    Projection projection,
    Native nativeIndex) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");

  /** Which attributes an index query returns. */
  public enum Projection {
    /** Whole items. */
    ALL,
    /** The table key and the index attributes only. */
    KEYS_ONLY
  }

  /**
   * The backend's own secondary index a {@linkplain #nativeIndex(String, String, KeySchema) native
   * index} maps to.
   *
   * @param name the backend's name for it (a DynamoDB GSI or LSI name); 1 to 255 characters without
   *     control characters, the driver checks the backend's own rules. Datastore picks composite
   *     indexes by their properties, so there the name only labels the index in generated files.
   * @param key its partition attribute and optional sort attribute, with the types of the values it
   *     indexes: STRING, NUMBER or BINARY, as in a {@link KeySchema}
   */
  public record Native(String name, KeySchema key) {
    public Native {
      Objects.requireNonNull(key, "key");
      if (name == null
          || name.isEmpty()
          || name.length() > 255
          || name.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException(
            "native index name '"
                + name
                + "' must be 1 to 255 characters without control characters");
      }
    }
  }

  /** An index Stowage maintains itself. */
  public IndexSpec(
      String name,
      List<String> partitionAttributes,
      List<String> sortAttributes,
      Projection projection) {
    this(name, partitionAttributes, sortAttributes, projection, null);
  }

  public IndexSpec {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "index name '" + name + "' must be a letter followed by up to 31 letters, digits or '_'");
    }
    partitionAttributes = List.copyOf(partitionAttributes);
    sortAttributes = List.copyOf(sortAttributes);
    if (partitionAttributes.isEmpty()) {
      throw new IllegalArgumentException(
          "index '" + name + "' needs at least one partition attribute");
    }
    Set<String> seen = new HashSet<>();
    for (String a : partitionAttributes) {
      AttributeNames.validate(a);
      if (!seen.add(a)) {
        throw new IllegalArgumentException(
            "index '" + name + "' names attribute '" + a + "' twice");
      }
    }
    for (String a : sortAttributes) {
      AttributeNames.validate(a);
      if (!seen.add(a)) {
        throw new IllegalArgumentException(
            "index '" + name + "' names attribute '" + a + "' twice");
      }
    }
    if (projection == null) {
      projection = Projection.ALL;
    }
    if (nativeIndex != null) {
      KeySchema key = nativeIndex.key();
      List<String> sort = key.sortName().map(List::of).orElse(List.of());
      if (!partitionAttributes.equals(List.of(key.partitionName()))
          || !sortAttributes.equals(sort)) {
        throw new IllegalArgumentException(
            "native index '"
                + name
                + "' is keyed by "
                + key
                + ", so its partition attributes must be ["
                + key.partitionName()
                + "] and its sort attributes "
                + sort
                + ", not "
                + partitionAttributes
                + " and "
                + sortAttributes);
      }
    }
  }

  /**
   * A native index: the backend's own secondary index {@code nativeName}, keyed by {@code key}'s
   * partition attribute and optional sort attribute, returning whole items.
   *
   * <p>The backend indexes the attributes' plain values and compares them itself (strings by UTF-8
   * bytes, numbers numerically, binary unsigned, ties by primary key, as every Stowage index), and
   * Stowage's core writes nothing for the index: items other applications write are found as they
   * are. The attributes must hold values of the declared types; Stowage refuses to write an item
   * whose value has another type, and items lacking an attribute are not in the index (sparse).
   * They cannot be compressed or encrypted. Queries use {@link dev.stowage.query.Query#index} with
   * one partition value and sort conditions on the one sort value, exactly like a table's primary
   * key. Opening the table checks that the backend has the index; Stowage never creates it. Drivers
   * declare {@link dev.stowage.spi.Capability#NATIVE_INDEXES}; others refuse such a table with
   * {@link UnsupportedCapabilityException}.
   *
   * @param name the Stowage index name queries use
   * @param nativeName the backend's name of the index (DynamoDB GSI or LSI name)
   * @param key the index's partition and optional sort attribute with their types
   */
  public static IndexSpec nativeIndex(String name, String nativeName, KeySchema key) {
    return nativeIndex(name, nativeName, key, Projection.ALL);
  }

  /**
   * A native index with a chosen projection ({@link Projection#KEYS_ONLY}: queries return the table
   * key and the index attributes only). See {@link #nativeIndex(String, String, KeySchema)}.
   */
  public static IndexSpec nativeIndex(
      String name, String nativeName, KeySchema key, Projection projection) {
    Objects.requireNonNull(key, "key");
    return new IndexSpec(
        name,
        List.of(key.partitionName()),
        key.sortName().map(List::of).orElse(List.of()),
        projection,
        new Native(nativeName, key));
  }

  /** True for a {@linkplain #nativeIndex(String, String, KeySchema) native} index. */
  public boolean isNative() {
    return nativeIndex != null;
  }

  /** An index with {@link Projection#ALL}. */
  public static IndexSpec of(
      String name, List<String> partitionAttributes, List<String> sortAttributes) {
    return new IndexSpec(name, partitionAttributes, sortAttributes, Projection.ALL);
  }

  /** Every attribute the index reads, partition part first. */
  public List<String> attributes() {
    var all = new java.util.ArrayList<>(partitionAttributes);
    all.addAll(sortAttributes);
    return List.copyOf(all);
  }
}
