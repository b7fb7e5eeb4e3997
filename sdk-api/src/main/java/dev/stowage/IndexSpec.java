package dev.stowage;

import dev.stowage.item.AttributeNames;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A secondary index over one or more attributes for its partition part and zero or more for its
 * sort part (multi-column). An item appears in the index only when it has every attribute the index
 * names, each a string, number or binary value (sparse index). Index entries order by the sort
 * attributes as a tuple, component by component, in key order.
 *
 * <p>Index names are 1 to 32 characters: a letter followed by letters, digits or underscores.
 * Immutable and thread-safe.
 *
 * @param name the index name, unique within its table
 * @param partitionAttributes attributes whose values, together, select an index partition
 * @param sortAttributes attributes whose values, as a tuple, order entries within a partition
 * @param projection which attributes an index query returns
 */
public record IndexSpec(
    String name,
    List<String> partitionAttributes,
    List<String> sortAttributes,
    Projection projection) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");

  /** Which attributes an index query returns. */
  public enum Projection {
    /** Whole items. */
    ALL,
    /** The table key and the index attributes only. */
    KEYS_ONLY
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
