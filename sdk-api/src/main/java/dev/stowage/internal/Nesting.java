package dev.stowage.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import java.util.Collection;

/**
 * Enforces {@link AttributeValue#MAX_NESTING} on what the core writes, counting levels as that
 * constant describes. Stateless and thread-safe.
 */
final class Nesting {
  private Nesting() {}

  /**
   * The nesting levels of {@code value}, exact up to {@link AttributeValue#MAX_NESTING}; for a
   * deeper value some number above the limit (the count stops descending once past it, so hostile
   * values cannot exhaust the stack).
   */
  static int levels(AttributeValue value) {
    return levels(value, false, 0);
  }

  /**
   * Checks one attribute's value.
   *
   * @param where how to name the attribute in the message, e.g. {@code "attribute 'a'"}
   * @throws InvalidRequestException if it nests deeper than {@link AttributeValue#MAX_NESTING}
   */
  static void check(String where, AttributeValue value) {
    if (levels(value) > AttributeValue.MAX_NESTING) {
      throw new InvalidRequestException(
          where
              + " nests lists and maps more than "
              + AttributeValue.MAX_NESTING
              + " levels deep (a list directly inside a list counts as two); Stowage writes at"
              + " most "
              + AttributeValue.MAX_NESTING
              + " levels, the depth every backend can store and read back");
    }
  }

  private static int levels(AttributeValue v, boolean inList, int above) {
    int own;
    Collection<AttributeValue> children;
    if (v instanceof ListValue l) {
      own = inList ? 2 : 1;
      children = l.values();
    } else if (v instanceof MapValue m) {
      own = 1;
      children = m.values().values();
    } else {
      return 0;
    }
    int here = above + own;
    int deepest = 0;
    for (AttributeValue child : children) {
      if (here + deepest > AttributeValue.MAX_NESTING) {
        break;
      }
      deepest = Math.max(deepest, levels(child, v instanceof ListValue, here));
    }
    return own + deepest;
  }
}
