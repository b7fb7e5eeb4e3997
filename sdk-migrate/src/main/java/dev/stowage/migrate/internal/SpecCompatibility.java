package dev.stowage.migrate.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether a migration's target spec can hold the source's stored forms as they are, and the target
 * spec a migration takes when none is given. Items are copied without keys, in their stored form,
 * so what the stored form depends on (key schema, attribute policies, and for encrypted attributes
 * the table name) must be the same on both sides; everything else (names, indexes, adoption) may
 * differ. Stateless.
 */
public final class SpecCompatibility {
  private SpecCompatibility() {}

  /** The spec as a table Stowage lays out itself: the same spec without {@code adopt}. */
  public static TableSpec withoutAdoption(TableSpec spec) {
    if (!spec.isAdopted()) {
      return spec;
    }
    TableSpec.Builder b =
        TableSpec.builder(spec.name(), spec.keySchema())
            .idempotencyWindow(spec.idempotencyWindow());
    spec.indexes().forEach(b::index);
    spec.policies().forEach(b::policy);
    spec.versionAttribute().ifPresent(b::versionAttribute);
    if (spec.descendingQueries()) {
      b.descendingQueries();
    }
    return b.build();
  }

  /**
   * Refuses a target spec that cannot hold the source's stored forms as they are: another key
   * schema (items would be addressed differently) or other attribute policies (the target would
   * read compressed or encrypted envelopes as plain values, or plain values as envelopes).
   */
  public static void requireCompatible(TableSpec source, TableSpec target) {
    KeySchema s = source.keySchema();
    KeySchema t = target.keySchema();
    if (!s.equals(t)) {
      throw new IllegalArgumentException(
          "the target spec's key schema "
              + t
              + " differs from the source's "
              + s
              + ": "
              + keyDifference(s, t)
              + "; items are copied with their keys as they are, so both sides need the same key"
              + " attributes and types (indexes may differ)");
    }
    if (!source.policies().equals(target.policies())) {
      Set<String> names = new TreeSet<>(source.policies().keySet());
      names.addAll(target.policies().keySet());
      List<String> diffs = new ArrayList<>();
      for (String n : names) {
        if (!source.policy(n).equals(target.policy(n))) {
          diffs.add(
              "'"
                  + n
                  + "' is "
                  + describe(source.policy(n))
                  + " in the source and "
                  + describe(target.policy(n))
                  + " in the target");
        }
      }
      if (!diffs.isEmpty()) {
        throw new IllegalArgumentException(
            "the target spec's attribute policies differ from the source's: "
                + String.join(", ", diffs)
                + "; stored forms are copied as they are (without keys), so both sides need the"
                + " same policies (change a policy after the copy, with the keys, by rewriting)");
      }
    }
  }

  /**
   * Refuses to copy a table with encrypted attributes under another table name: encrypted values
   * are bound to the logical table name, so the target could not decrypt them.
   *
   * @param source the source's spec
   * @param sourceTable the source table's (logical) name
   * @param targetTable the target table's (logical) name
   */
  public static void requireSameNameIfEncrypted(
      TableSpec source, String sourceTable, String targetTable) {
    if (!targetTable.equals(sourceTable)
        && source.policies().values().stream().anyMatch(p -> p.encrypted())) {
      throw new IllegalArgumentException(
          "table '"
              + sourceTable
              + "' has encrypted attributes, which are bound to the table name: copy it under the"
              + " same name (another namespace or backend is fine)");
    }
  }

  private static String describe(AttributePolicy p) {
    if (p.compressed() && p.encrypted()) {
      return "compressed and encrypted";
    }
    return p.compressed() ? "compressed" : p.encrypted() ? "encrypted" : "plain";
  }

  private static String keyDifference(KeySchema s, KeySchema t) {
    List<String> d = new ArrayList<>();
    if (!s.partitionName().equals(t.partitionName())) {
      d.add("partition key '" + s.partitionName() + "' vs '" + t.partitionName() + "'");
    } else if (s.partitionType() != t.partitionType()) {
      d.add(
          "partition key '"
              + s.partitionName()
              + "' is "
              + s.partitionType()
              + " vs "
              + t.partitionType());
    }
    String ss = s.sortName().orElse(null);
    String ts = t.sortName().orElse(null);
    if (ss == null || ts == null) {
      if (ss != null || ts != null) {
        d.add(
            ss == null
                ? "the source has no sort key, the target sort key '" + ts + "'"
                : "the source has sort key '" + ss + "', the target none");
      }
    } else if (!ss.equals(ts)) {
      d.add("sort key '" + ss + "' vs '" + ts + "'");
    } else if (s.sortType().orElseThrow() != t.sortType().orElseThrow()) {
      d.add(
          "sort key '"
              + ss
              + "' is "
              + s.sortType().orElseThrow()
              + " vs "
              + t.sortType().orElseThrow());
    }
    return String.join(", ", d);
  }
}
