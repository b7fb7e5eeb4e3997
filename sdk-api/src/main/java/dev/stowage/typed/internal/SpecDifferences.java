package dev.stowage.typed.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IndexSpec;
import dev.stowage.TableSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The differences between the spec a class implies and an explicit one, one line each. The explicit
 * spec may add what annotations cannot say (native indexes, adoption, the idempotency window);
 * everything the class declares must agree.
 */
public final class SpecDifferences {
  private SpecDifferences() {}

  /** Every disagreement, or an empty list. */
  public static List<String> between(
      TableSpec fromClass, boolean classNamesTable, TableSpec explicit) {
    List<String> out = new ArrayList<>();
    if (classNamesTable && !fromClass.name().equals(explicit.name())) {
      out.add("table name: class '" + fromClass.name() + "', spec '" + explicit.name() + "'");
    }
    if (!fromClass.keySchema().equals(explicit.keySchema())) {
      out.add("key: class " + fromClass.keySchema() + ", spec " + explicit.keySchema());
    }
    if (!fromClass.versionAttribute().equals(explicit.versionAttribute())) {
      out.add(
          "version attribute: class "
              + fromClass.versionAttribute().map(v -> "'" + v + "'").orElse("none")
              + ", spec "
              + explicit.versionAttribute().map(v -> "'" + v + "'").orElse("none"));
    }
    Set<String> attributes = new LinkedHashSet<>(fromClass.policies().keySet());
    attributes.addAll(explicit.policies().keySet());
    for (String a : attributes) {
      AttributePolicy c = fromClass.policy(a);
      AttributePolicy s = explicit.policy(a);
      if (!c.equals(s)) {
        out.add("attribute '" + a + "': class " + describe(c) + ", spec " + describe(s));
      }
    }
    for (IndexSpec ci : fromClass.indexes()) {
      var si = explicit.index(ci.name());
      if (si.isEmpty()) {
        out.add("index '" + ci.name() + "': declared by the class, missing from the spec");
      } else if (!si.get().partitionAttributes().equals(ci.partitionAttributes())
          || !si.get().sortAttributes().equals(ci.sortAttributes())
          || si.get().isNative()) {
        out.add(
            "index '"
                + ci.name()
                + "': class "
                + columns(ci)
                + ", spec "
                + columns(si.get())
                + (si.get().isNative() ? " (native)" : ""));
      }
    }
    for (IndexSpec si : explicit.indexes()) {
      if (!si.isNative() && fromClass.index(si.name()).isEmpty()) {
        out.add("index '" + si.name() + "': in the spec, not declared by the class (@Indexed)");
      }
    }
    return out;
  }

  private static String columns(IndexSpec i) {
    return "partition " + i.partitionAttributes() + " sort " + i.sortAttributes();
  }

  private static String describe(AttributePolicy p) {
    if (p.compressed() && p.encrypted()) {
      return "compressed and encrypted";
    }
    return p.compressed() ? "compressed" : p.encrypted() ? "encrypted" : "plain";
  }
}
