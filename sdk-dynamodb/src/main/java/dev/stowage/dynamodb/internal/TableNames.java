package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Maps a (namespace, table) pair to a DynamoDB table name. The root namespace maps to the logical
 * name itself, so existing tables can be adopted; any other namespace to {@code
 * <namespace>.<table>}. Logical names and namespaces never contain a dot, so no two pairs collide.
 * Explicit overrides let an application adopt root tables whose names Stowage's logical names
 * cannot spell (upper case, dots).
 */
public final class TableNames {
  /** DynamoDB's rule for table names. */
  private static final Pattern DYNAMODB_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

  private static final int REMEMBERED = 4096;

  private final Map<String, String> rootOverrides;

  /**
   * Names already mapped and validated, so that a request costs a lookup, not a concatenation and a
   * regular expression. Bounded: cleared when it grows past {@value #REMEMBERED} names.
   */
  private final Map<TableRef, String> physical = new ConcurrentHashMap<>();

  private final Map<String, String> adopted = new ConcurrentHashMap<>();

  /**
   * @param rootOverrides logical root-namespace table name to physical name
   */
  public TableNames(Map<String, String> rootOverrides) {
    rootOverrides.values().forEach(TableNames::validate);
    this.rootOverrides = Map.copyOf(rootOverrides);
  }

  /** The physical table name. */
  public String physical(TableRef ref) {
    String known = physical.get(ref);
    if (known != null) {
      return known;
    }
    String name =
        ref.namespace().isEmpty()
            ? validate(rootOverrides.getOrDefault(ref.table(), ref.table()))
            : validate(ref.namespace() + "." + ref.table());
    remember(physical, ref, name);
    return name;
  }

  /** The physical table name of a layout: an adopted table's own name, else {@link #physical}. */
  public String physical(TableLayout layout) {
    if (!layout.adopted()) {
      return physical(layout.ref());
    }
    String name = layout.adoptedName();
    if (adopted.get(name) == null) {
      remember(adopted, name, validate(name));
    }
    return name;
  }

  private static <K> void remember(Map<K, String> map, K key, String name) {
    if (map.size() >= REMEMBERED) {
      map.clear();
    }
    map.put(key, name);
  }

  /** Checks a physical name against DynamoDB's naming rules. */
  public static String validate(String physical) {
    if (!DYNAMODB_NAME.matcher(physical).matches()) {
      throw new InvalidRequestException(
          "'"
              + physical
              + "' is not a valid DynamoDB table name: 3 to 255 characters of letters, digits,"
              + " '_', '-' or '.'");
    }
    return physical;
  }

  /** The name of the GSI that serves a Stowage index. */
  public static String indexName(String index) {
    return "__ix_" + index;
  }
}
