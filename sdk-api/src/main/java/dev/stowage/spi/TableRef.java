package dev.stowage.spi;

import dev.stowage.TableSpec;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A logical table in a namespace. Drivers map the pair to a physical table, kind or name in a way
 * that never lets two pairs collide.
 *
 * @param namespace the namespace: empty for the root namespace, else 1 to 16 characters, a
 *     lowercase letter followed by lowercase letters and digits
 * @param table the logical table name (see {@link TableSpec})
 */
public record TableRef(String namespace, String table) {
  private static final Pattern NAMESPACE = Pattern.compile("|[a-z][a-z0-9]{0,15}");

  public TableRef {
    Objects.requireNonNull(namespace, "namespace");
    if (!isValidNamespace(namespace)) {
      throw new IllegalArgumentException(
          "namespace '"
              + namespace
              + "' must be empty or 1 to 16 characters: a lowercase letter"
              + " followed by lowercase letters or digits");
    }
    if (!TableSpec.isValidName(table)) {
      throw new IllegalArgumentException(
          "table name '"
              + table
              + "' must be 3 to 40 characters: a lowercase letter, then lowercase letters, digits,"
              + " '_' or '-'");
    }
  }

  /** True if {@code namespace} is valid. */
  public static boolean isValidNamespace(String namespace) {
    return namespace != null && NAMESPACE.matcher(namespace).matches();
  }

  @Override
  public String toString() {
    return namespace.isEmpty() ? table : namespace + "." + table;
  }
}
