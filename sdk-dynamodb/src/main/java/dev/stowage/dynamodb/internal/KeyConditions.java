package dev.stowage.dynamodb.internal;

import dev.stowage.item.KeyValue;
import dev.stowage.spi.KeyRange;

/** Builds KeyConditionExpressions for a partition and a sort range. */
final class KeyConditions {
  private KeyConditions() {}

  /**
   * The key condition for {@code partition} and {@code range}, or null if the range is empty.
   * DynamoDB has no half-open BETWEEN: a range with both bounds uses BETWEEN and the caller drops
   * the endpoints of exclusive bounds (see {@link #needsBoundFilter}).
   */
  static String of(Expressions ex, String pkAttr, KeyValue partition, String skAttr, KeyRange r) {
    r = withoutEmptyBounds(r);
    if (r == null) {
      return null;
    }
    StringBuilder kc = new StringBuilder(ex.name(pkAttr)).append(" = ").append(ex.value(partition));
    if (r.prefix() == null && r.lower() == null && r.upper() == null) {
      return kc.toString();
    }
    if (skAttr == null) {
      throw new dev.stowage.InvalidRequestException(
          "the table has no sort key; a query cannot have a sort range");
    }
    String sk = ex.name(skAttr);
    if (r.prefix() != null) {
      kc.append(" AND begins_with(").append(sk).append(", ").append(ex.value(r.prefix()));
      return kc.append(')').toString();
    }
    if (r.lower() != null && r.upper() != null) {
      int c = KeyValue.compare(r.lower(), r.upper());
      if (c > 0 || (c == 0 && !(r.lowerInclusive() && r.upperInclusive()))) {
        return null;
      }
      return kc.append(" AND ")
          .append(sk)
          .append(" BETWEEN ")
          .append(ex.value(r.lower()))
          .append(" AND ")
          .append(ex.value(r.upper()))
          .toString();
    }
    if (r.lower() != null) {
      return kc.append(" AND ")
          .append(sk)
          .append(r.lowerInclusive() ? " >= " : " > ")
          .append(ex.value(r.lower()))
          .toString();
    }
    return kc.append(" AND ")
        .append(sk)
        .append(r.upperInclusive() ? " <= " : " < ")
        .append(ex.value(r.upper()))
        .toString();
  }

  /**
   * The range without bounds DynamoDB refuses: key attributes (of tables and indexes) never hold an
   * empty string or binary, and a key condition may not name one either. Every key value is beyond
   * an empty lower bound or prefix, so those go; nothing is below an empty upper bound (null: the
   * range is empty).
   */
  private static KeyRange withoutEmptyBounds(KeyRange r) {
    if (isEmpty(r.upper())) {
      return null;
    }
    boolean emptyLower = isEmpty(r.lower());
    boolean emptyPrefix = isEmpty(r.prefix());
    if (!emptyLower && !emptyPrefix) {
      return r;
    }
    KeyValue prefix = emptyPrefix ? null : r.prefix();
    return emptyLower
        ? new KeyRange(null, false, r.upper(), r.upperInclusive(), prefix)
        : new KeyRange(r.lower(), r.lowerInclusive(), r.upper(), r.upperInclusive(), prefix);
  }

  private static boolean isEmpty(KeyValue v) {
    return (v instanceof dev.stowage.item.AttributeValue.StringValue s && s.value().isEmpty())
        || (v instanceof dev.stowage.item.AttributeValue.BinaryValue b && b.value().size() == 0);
  }

  /** True if items returned for {@link #of} must still be checked against the bounds. */
  static boolean needsBoundFilter(KeyRange r) {
    return r.prefix() == null
        && r.lower() != null
        && r.upper() != null
        && !(r.lowerInclusive() && r.upperInclusive());
  }

  /** True if a stored sort attribute value lies in the range (bounds and prefix). */
  static boolean contains(
      KeyRange r, software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
    if (v == null || !(AttributeMapper.fromNative(v) instanceof KeyValue kv)) {
      return false;
    }
    if ((r.lower() != null && r.lower().type() != kv.type())
        || (r.upper() != null && r.upper().type() != kv.type())) {
      return false;
    }
    if (r.prefix() != null && !startsWith(kv, r.prefix())) {
      return false;
    }
    return r.contains(kv);
  }

  private static boolean startsWith(KeyValue v, KeyValue prefix) {
    if (v instanceof dev.stowage.item.AttributeValue.BinaryValue b
        && prefix instanceof dev.stowage.item.AttributeValue.BinaryValue p) {
      return b.value().startsWith(p.value());
    }
    if (v instanceof dev.stowage.item.AttributeValue.StringValue s
        && prefix instanceof dev.stowage.item.AttributeValue.StringValue p) {
      return s.value().startsWith(p.value());
    }
    return false;
  }
}
