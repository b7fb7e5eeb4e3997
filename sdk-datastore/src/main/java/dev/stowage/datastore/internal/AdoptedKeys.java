package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.PathElement;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.TableLayout;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The native key layout of an adopted kind ({@link TableLayout#adopted()}): the kind is addressed
 * by its own name in the table's namespace, and an item key is a root entity key with one path
 * element whose <em>name</em> (a {@code STRING} partition key) or numeric <em>id</em> (a {@code
 * NUMBER} partition key) is the partition key value. Adopted kinds have no sort key: an ancestor
 * path has no order-preserving reading as one (its elements are kinds and names or ids of other
 * entities), so entities with ancestors, and entities whose key is a name where the schema says id
 * or the other way round, are refused with an error naming the entity.
 *
 * <p>Because every key of an adopted table is a root key of one kind and of one identifier type,
 * Datastore's key order (ids numerically; names by UTF-8 bytes) is Stowage's key order. Stateless
 * and thread-safe.
 */
public final class AdoptedKeys {
  /** Longest key name Datastore accepts, in UTF-8 bytes. */
  static final int MAX_NAME_BYTES = 1500;

  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private AdoptedKeys() {}

  /**
   * Checks that an adopted layout can be mapped onto a kind's native keys.
   *
   * @throws InvalidRequestException naming every problem: a sort key, a binary partition key, a
   *     kind name Datastore or Stowage reserves
   */
  public static void check(TableLayout layout) {
    List<String> problems = new ArrayList<>();
    KeySchema schema = layout.keySchema();
    if (schema.hasSort()) {
      problems.add(
          "the spec declares the sort key '"
              + schema.sortName().orElseThrow()
              + "', but an adopted Datastore kind is keyed by one name or id per entity"
              + " (ancestor paths are not mapped to sort keys); declare only the partition key");
    }
    if (schema.partitionType() == AttributeType.BINARY) {
      problems.add(
          "the partition key '"
              + schema.partitionName()
              + "' is BINARY, but a Datastore key is a name (declare it STRING) or a numeric id"
              + " (declare it NUMBER)");
    }
    String kind = layout.adoptedName();
    if (reserved(kind)) {
      problems.add("the kind name '" + kind + "' is reserved by Datastore (names matching __.*__)");
    } else if (kind.startsWith("stowage.")) {
      problems.add(
          "the kind name '" + kind + "' is one of Stowage's own (names starting 'stowage.')");
    }
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "cannot adopt "
              + where(kind, layout.ref().namespace())
              + " as table "
              + layout.ref()
              + ": "
              + String.join("; ", problems));
    }
  }

  /**
   * The entity key of an item key: a key name for a string, a numeric id for a number.
   *
   * @param kind a key factory of the adopted kind in the table's namespace
   * @throws InvalidRequestException if the value is not a valid name or id: an empty or reserved
   *     ({@code __.*__}) name, a name over 1500 bytes, a number that is not an integer, zero or
   *     outside the 64-bit range
   */
  static Key key(KeyFactory kind, TableLayout layout, dev.stowage.item.Key key) {
    KeyValue p = key.partition();
    if (key.sortOrNull() != null) {
      throw new InvalidRequestException(
          "table " + layout.ref() + " is an adopted Datastore kind and has no sort key");
    }
    if (p instanceof StringValue s) {
      String name = s.value();
      String problem = null;
      if (name.isEmpty()) {
        problem = "Datastore key names cannot be empty";
      } else if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        problem = "Datastore key names are at most " + MAX_NAME_BYTES + " bytes";
      } else if (reserved(name)) {
        problem = "Datastore reserves key names matching __.*__";
      }
      if (problem != null) {
        throw new InvalidRequestException(
            "key '" + abbreviate(name) + "' of table " + layout.ref() + ": " + problem);
      }
      return kind.newKey(name);
    }
    if (p instanceof NumberValue n) {
      BigDecimal v = n.value();
      if (v.signum() != 0 && v.stripTrailingZeros().scale() > 0) {
        throw new InvalidRequestException(
            "key "
                + v.toPlainString()
                + " of table "
                + layout.ref()
                + ": a numeric Datastore id is an integer");
      }
      if (v.signum() == 0 || v.compareTo(LONG_MIN) < 0 || v.compareTo(LONG_MAX) > 0) {
        throw new InvalidRequestException(
            "key "
                + v.toString()
                + " of table "
                + layout.ref()
                + ": a numeric Datastore id is a non-zero 64-bit integer ("
                + Long.MIN_VALUE
                + " to "
                + Long.MAX_VALUE
                + ")");
      }
      return kind.newKey(v.longValueExact());
    }
    throw new InvalidRequestException(
        "table " + layout.ref() + ": a Datastore key is a name or a numeric id, not " + p.type());
  }

  /**
   * The partition key value of an adopted kind's entity key.
   *
   * @throws InvalidRequestException naming the entity if the key has ancestors, or is a name where
   *     the schema says {@code NUMBER} (or an id where it says {@code STRING})
   */
  static KeyValue keyValue(TableLayout layout, Key key) {
    KeySchema schema = layout.keySchema();
    if (!key.getAncestors().isEmpty()) {
      throw new InvalidRequestException(
          "entity "
              + describe(key)
              + " of table "
              + layout.ref()
              + " has an ancestor path; an adopted Datastore kind is read as root entities keyed"
              + " by one name or id, so Stowage cannot address this entity (read or change it"
              + " with the Datastore client)");
    }
    boolean wantsName = schema.partitionType() == AttributeType.STRING;
    if (wantsName && key.hasName()) {
      return AttributeValue.of(key.getName());
    }
    if (!wantsName && key.hasId()) {
      return AttributeValue.of(key.getId());
    }
    throw new InvalidRequestException(
        "entity "
            + describe(key)
            + " of table "
            + layout.ref()
            + (key.hasId() ? " has a numeric id" : " has a key name")
            + ", but the partition key '"
            + schema.partitionName()
            + "' is "
            + schema.partitionType()
            + (wantsName ? " (key names)" : " (numeric ids)")
            + "; Stowage reads an adopted kind's keys as one type");
  }

  /**
   * The entity key in GQL's key literal form with its namespace, e.g. {@code Key(Customer, 'c1',
   * Orders, 17) in namespace 'prod'}.
   */
  public static String describe(Key key) {
    StringBuilder sb = new StringBuilder("Key(");
    for (PathElement e : key.getAncestors()) {
      element(sb, e.getKind(), e.getNameOrId());
      sb.append(", ");
    }
    element(sb, key.getKind(), key.getNameOrId());
    return sb.append(") in ").append(namespace(key.getNamespace())).toString();
  }

  private static void element(StringBuilder sb, String kind, Object nameOrId) {
    sb.append(kind).append(", ");
    if (nameOrId instanceof String name) {
      sb.append('\'').append(abbreviate(name).replace("'", "\\'")).append('\'');
    } else {
      sb.append(nameOrId);
    }
  }

  /** "kind 'K' in namespace 'ns'" or "… in the default namespace". */
  static String where(String kind, String namespace) {
    return "kind '" + kind + "' in " + namespace(namespace);
  }

  private static String namespace(String namespace) {
    return namespace == null || namespace.isEmpty()
        ? "the default namespace"
        : "namespace '" + namespace + "'";
  }

  /** True for names Datastore reserves for kinds and keys: {@code __.*__}. */
  static boolean reserved(String name) {
    return name.length() >= 4 && name.startsWith("__") && name.endsWith("__");
  }

  private static String abbreviate(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "…";
  }
}
