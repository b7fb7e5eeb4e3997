package dev.stowage.beam.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TableSpec} in a serialisable form, carried by a pipeline to its workers ({@code
 * TableSpec} itself is not serialisable). Taking a snapshot rebuilds the spec from it at once and
 * fails if the rebuilt spec differs, so a spec property this class does not carry is found when the
 * pipeline is built, never on a worker.
 */
public final class SpecSnapshot implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String name;
  private final KeyShape key;
  private final List<IndexShape> indexes;
  private final Map<String, boolean[]> policies;
  private final String versionAttribute;
  private final int idempotencyWindow;
  private final String adoptedName;
  private final boolean descendingQueries;
  private final long overflowThreshold;
  private transient TableSpec spec;

  private SpecSnapshot(TableSpec spec) {
    this.name = spec.name();
    this.key = KeyShape.of(spec.keySchema());
    this.indexes = new ArrayList<>();
    for (IndexSpec i : spec.indexes()) {
      indexes.add(
          new IndexShape(
              i.name(),
              new ArrayList<>(i.partitionAttributes()),
              new ArrayList<>(i.sortAttributes()),
              i.projection().name(),
              i.nativeIndex() == null ? null : i.nativeIndex().name(),
              i.nativeIndex() == null ? null : KeyShape.of(i.nativeIndex().key())));
    }
    this.policies = new LinkedHashMap<>();
    spec.policies()
        .forEach((a, p) -> policies.put(a, new boolean[] {p.compressed(), p.encrypted()}));
    this.versionAttribute = spec.versionAttribute().orElse(null);
    this.idempotencyWindow = spec.idempotencyWindow();
    this.adoptedName = spec.adoptedName().orElse(null);
    this.descendingQueries = spec.descendingQueries();
    this.overflowThreshold = spec.overflowThreshold().orElse(0);
  }

  /**
   * A snapshot of {@code spec}.
   *
   * @throws IllegalStateException if the spec has a property the snapshot cannot carry
   */
  public static SpecSnapshot of(TableSpec spec) {
    SpecSnapshot s = new SpecSnapshot(spec);
    if (!s.spec().equals(spec)) {
      throw new IllegalStateException(
          "table spec " + spec + " does not survive serialisation: rebuilt as " + s.spec());
    }
    return s;
  }

  /** The spec. */
  public TableSpec spec() {
    TableSpec s = spec;
    if (s == null) {
      s = rebuild();
      spec = s;
    }
    return s;
  }

  private TableSpec rebuild() {
    TableSpec.Builder b =
        TableSpec.builder(name, key.schema()).idempotencyWindow(idempotencyWindow);
    for (IndexShape i : indexes) {
      IndexSpec.Native nativeIndex =
          i.nativeName == null ? null : new IndexSpec.Native(i.nativeName, i.nativeKey.schema());
      b.index(
          new IndexSpec(
              i.name,
              i.partition,
              i.sort,
              IndexSpec.Projection.valueOf(i.projection),
              nativeIndex));
    }
    policies.forEach((a, p) -> b.policy(a, new AttributePolicy(p[0], p[1])));
    if (versionAttribute != null) {
      b.versionAttribute(versionAttribute);
    }
    if (adoptedName != null) {
      b.adopt(adoptedName);
    }
    if (descendingQueries) {
      b.descendingQueries();
    }
    if (overflowThreshold != 0) {
      b.overflowAbove(overflowThreshold);
    }
    return b.build();
  }

  private record KeyShape(
      String partitionName, AttributeType partitionType, String sortName, AttributeType sortType)
      implements Serializable {
    static KeyShape of(KeySchema k) {
      return new KeyShape(
          k.partitionName(),
          k.partitionType(),
          k.sortName().orElse(null),
          k.sortType().orElse(null));
    }

    KeySchema schema() {
      return sortName == null
          ? KeySchema.of(partitionName, partitionType)
          : KeySchema.of(partitionName, partitionType, sortName, sortType);
    }
  }

  private record IndexShape(
      String name,
      List<String> partition,
      List<String> sort,
      String projection,
      String nativeName,
      KeyShape nativeKey)
      implements Serializable {}
}
