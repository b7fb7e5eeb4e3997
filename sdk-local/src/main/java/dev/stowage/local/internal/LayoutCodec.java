package dev.stowage.local.internal;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.CanonicalEncoding;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's layout as it is recorded in the file (key schema, indexes, adoption, descending
 * queries), so that another process, or the same one after a restart, maintains the same indexes
 * and {@code openTable} can compare a spec with what exists. Stored in Stowage's canonical value
 * encoding, as a map of strings. Stateless.
 */
final class LayoutCodec {
  private LayoutCodec() {}

  static byte[] encode(TableLayout layout) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    KeySchema ks = layout.keySchema();
    m.put("partition", AttributeValue.of(ks.partitionName()));
    m.put("partitionType", AttributeValue.of(ks.partitionType().name()));
    ks.sortName().ifPresent(s -> m.put("sort", AttributeValue.of(s)));
    ks.sortType().ifPresent(t -> m.put("sortType", AttributeValue.of(t.name())));
    if (layout.adoptedName() != null) {
      m.put("adopted", AttributeValue.of(layout.adoptedName()));
    }
    m.put("descending", AttributeValue.of(layout.descendingQueries()));
    List<AttributeValue> indexes = new ArrayList<>();
    for (IndexLayout i : layout.indexes()) {
      Map<String, AttributeValue> x = new LinkedHashMap<>();
      x.put("name", AttributeValue.of(i.name()));
      x.put("partition", AttributeValue.of(i.partitionAttribute()));
      x.put("partitionType", AttributeValue.of(i.partitionType().name()));
      if (i.sortAttribute() != null) {
        x.put("sort", AttributeValue.of(i.sortAttribute()));
        x.put("sortType", AttributeValue.of(i.sortType().name()));
      }
      x.put("projection", AttributeValue.of(i.projection().name()));
      if (i.nativeName() != null) {
        x.put("native", AttributeValue.of(i.nativeName()));
      }
      indexes.add(AttributeValue.map(x));
    }
    m.put("indexes", AttributeValue.list(indexes));
    return CanonicalEncoding.encode(AttributeValue.map(m));
  }

  static TableLayout decode(TableRef ref, byte[] bytes) {
    Map<String, AttributeValue> m =
        ((AttributeValue.MapValue) CanonicalEncoding.decode(bytes)).values();
    KeySchema ks =
        m.containsKey("sort")
            ? KeySchema.of(
                text(m, "partition"),
                type(m, "partitionType"),
                text(m, "sort"),
                type(m, "sortType"))
            : KeySchema.of(text(m, "partition"), type(m, "partitionType"));
    List<IndexLayout> indexes = new ArrayList<>();
    for (AttributeValue v : ((AttributeValue.ListValue) m.get("indexes")).values()) {
      Map<String, AttributeValue> x = ((AttributeValue.MapValue) v).values();
      indexes.add(
          new IndexLayout(
              text(x, "name"),
              text(x, "partition"),
              x.containsKey("sort") ? text(x, "sort") : null,
              IndexSpec.Projection.valueOf(text(x, "projection")),
              x.containsKey("native") ? text(x, "native") : null,
              type(x, "partitionType"),
              x.containsKey("sortType") ? type(x, "sortType") : null));
    }
    return new TableLayout(
        ref,
        ks,
        indexes,
        m.containsKey("adopted") ? text(m, "adopted") : null,
        ((AttributeValue.BooleanValue) m.get("descending")).value());
  }

  private static String text(Map<String, AttributeValue> m, String name) {
    return ((AttributeValue.StringValue) m.get(name)).value();
  }

  private static AttributeType type(Map<String, AttributeValue> m, String name) {
    return AttributeType.valueOf(text(m, name));
  }
}
