package dev.stowage.cli.internal;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Table specs for the command line: a small JSON file or the same fields as flags (see
 * docs/cli.md). Errors are {@link CliException}s naming the field.
 */
public final class Specs {
  private Specs() {}

  /** Reads a spec file; {@code tableName} overrides or supplies its name. */
  public static TableSpec read(Path file, String tableName) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new CliException("cannot read spec file " + file + ": " + e.getMessage());
    }
    try {
      return fromJson(Json.parse(text), tableName);
    } catch (IllegalArgumentException e) {
      throw new CliException("spec file " + file + ": " + e.getMessage());
    }
  }

  /** A spec from its parsed JSON object. */
  public static TableSpec fromJson(Object json, String tableName) {
    if (!(json instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("a spec must be a JSON object");
    }
    for (Object k : m.keySet()) {
      if (!List.of(
              "name",
              "key",
              "sort",
              "indexes",
              "compressed",
              "encrypted",
              "version",
              "idempotencyWindow",
              "adopt",
              "descendingQueries",
              "overflowAbove")
          .contains(k)) {
        throw new IllegalArgumentException("unknown spec field \"" + k + "\"");
      }
    }
    String name = (String) m.get("name");
    if (tableName != null && !tableName.isEmpty()) {
      if (name != null && !name.equals(tableName)) {
        throw new IllegalArgumentException(
            "the spec names table '" + name + "' but the store names '" + tableName + "'");
      }
      name = tableName;
    }
    if (name == null) {
      throw new IllegalArgumentException(
          "no table name: give \"name\" or name it in the store URI");
    }
    List<String> indexes = new ArrayList<>();
    Object ix = m.get("indexes");
    if (ix != null) {
      for (Object o : (List<?>) ix) {
        if (o instanceof String s) {
          indexes.add(s);
        } else {
          Map<?, ?> im = (Map<?, ?>) o;
          indexes.add(
              im.get("name")
                  + "="
                  + String.join(",", strings(im.get("partition")))
                  + "/"
                  + String.join(",", strings(im.get("sort")))
                  + ("KEYS_ONLY".equals(im.get("projection")) ? "/keys" : ""));
        }
      }
    }
    Object window = m.get("idempotencyWindow");
    TableSpec spec =
        build(
            name,
            (String) m.get("key"),
            (String) m.get("sort"),
            indexes,
            strings(m.get("compressed")),
            strings(m.get("encrypted")),
            (String) m.get("version"),
            window == null ? 0 : ((BigDecimal) window).intValueExact(),
            (String) m.get("adopt"));
    Object descending = m.get("descendingQueries");
    if (descending != null && !(descending instanceof Boolean)) {
      throw new IllegalArgumentException("\"descendingQueries\" must be true or false");
    }
    Object overflow = m.get("overflowAbove");
    long overflowAbove = 0;
    if (overflow != null) {
      if (!(overflow instanceof BigDecimal n)) {
        throw new IllegalArgumentException("\"overflowAbove\" must be a number of bytes");
      }
      try {
        overflowAbove = n.longValueExact();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("\"overflowAbove\" must be a whole number of bytes");
      }
    }
    return Boolean.TRUE.equals(descending) || overflowAbove != 0
        ? copy(
            spec,
            spec.name(),
            spec.adoptedName().orElse(null),
            Boolean.TRUE.equals(descending),
            overflowAbove)
        : spec;
  }

  private static List<String> strings(Object o) {
    if (o == null) {
      return List.of();
    }
    return ((List<?>) o).stream().map(String.class::cast).toList();
  }

  /**
   * A spec from flag values.
   *
   * @param key partition key as {@code name:TYPE} (TYPE S, N or B)
   * @param sort sort key as {@code name:TYPE}, or null
   * @param indexes each {@code name=p1,p2/s1,s2} with an optional {@code /keys} suffix
   * @param idempotencyWindow 0 for the default
   * @param adopt the physical name of an adopted table (see {@code TableSpec.Builder.adopt}), or
   *     null
   */
  public static TableSpec build(
      String name,
      String key,
      String sort,
      List<String> indexes,
      List<String> compressed,
      List<String> encrypted,
      String version,
      int idempotencyWindow,
      String adopt) {
    if (key == null) {
      throw new IllegalArgumentException("the partition key is missing (key: name:TYPE)");
    }
    String[] pk = attr(key);
    KeySchema schema =
        sort == null
            ? KeySchema.of(pk[0], type(pk[1]))
            : KeySchema.of(pk[0], type(pk[1]), attr(sort)[0], type(attr(sort)[1]));
    TableSpec.Builder b = TableSpec.builder(name, schema);
    for (String ix : indexes) {
      b.index(index(ix));
    }
    compressed.forEach(b::compressed);
    encrypted.forEach(b::encrypted);
    if (version != null) {
      b.versionAttribute(version);
    }
    if (idempotencyWindow > 0) {
      b.idempotencyWindow(idempotencyWindow);
    }
    if (adopt != null) {
      b.adopt(adopt);
    }
    return b.build();
  }

  /**
   * {@code spec} under another name and adoption: everything else (key schema, indexes, policies,
   * version attribute, idempotency window, descending queries, overflow threshold) as it is.
   *
   * @param name the logical table name
   * @param adopt the physical name of an adopted table, or null for a table Stowage lays out
   */
  public static TableSpec derive(TableSpec spec, String name, String adopt) {
    return copy(spec, name, adopt, spec.descendingQueries(), spec.overflowThreshold().orElse(0));
  }

  private static TableSpec copy(
      TableSpec spec, String name, String adopt, boolean descending, long overflowAbove) {
    TableSpec.Builder b =
        TableSpec.builder(name, spec.keySchema()).idempotencyWindow(spec.idempotencyWindow());
    spec.indexes().forEach(b::index);
    spec.policies().forEach(b::policy);
    spec.versionAttribute().ifPresent(b::versionAttribute);
    if (adopt != null) {
      b.adopt(adopt);
    }
    if (descending) {
      b.descendingQueries();
    }
    if (overflowAbove != 0) {
      b.overflowAbove(overflowAbove);
    }
    return b.build();
  }

  private static IndexSpec index(String text) {
    int eq = text.indexOf('=');
    if (eq < 1) {
      throw new IllegalArgumentException(
          "index '" + text + "' must look like name=p1,p2/s1,s2 (sort part optional)");
    }
    String[] parts = text.substring(eq + 1).split("/", -1);
    if (parts.length > 3 || (parts.length == 3 && !parts[2].equals("keys"))) {
      throw new IllegalArgumentException("index '" + text + "' has an unknown suffix");
    }
    return new IndexSpec(
        text.substring(0, eq),
        names(parts[0]),
        parts.length > 1 ? names(parts[1]) : List.of(),
        parts.length == 3 ? IndexSpec.Projection.KEYS_ONLY : IndexSpec.Projection.ALL);
  }

  private static List<String> names(String csv) {
    return csv.isBlank() ? List.of() : List.of(csv.split(",")).stream().map(String::trim).toList();
  }

  private static String[] attr(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 1) {
      throw new IllegalArgumentException(
          "key attribute '" + text + "' must look like name:TYPE with TYPE S, N or B");
    }
    return new String[] {text.substring(0, colon), text.substring(colon + 1)};
  }

  private static AttributeType type(String t) {
    return switch (t.toUpperCase(Locale.ROOT)) {
      case "S", "STRING" -> AttributeType.STRING;
      case "N", "NUMBER" -> AttributeType.NUMBER;
      case "B", "BINARY" -> AttributeType.BINARY;
      default ->
          throw new IllegalArgumentException(
              "key type '" + t + "' must be S (string), N (number) or B (binary)");
    };
  }
}
