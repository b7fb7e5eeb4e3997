package dev.stowage.spi;

import dev.stowage.item.KeyValue;

/**
 * A range of sort values within one partition; any bound may be absent (unbounded). For queries of
 * indexes Stowage maintains the values are the binary tuple encodings held in the index's sort
 * attribute; for the primary key and for native indexes ({@link IndexLayout#isNative()}) they are
 * raw sort values.
 *
 * <p>When {@code prefix} is present the range is exactly "starts with prefix" and the bounds hold
 * the equivalent range, so a driver may use either its native begins-with or the bounds.
 *
 * @param lower lower bound or null
 * @param lowerInclusive whether the lower bound is included
 * @param upper upper bound or null
 * @param upperInclusive whether the upper bound is included
 * @param prefix string or binary prefix, or null
 */
public record KeyRange(
    KeyValue lower,
    boolean lowerInclusive,
    KeyValue upper,
    boolean upperInclusive,
    KeyValue prefix) {
  /** The whole partition. */
  public static final KeyRange ALL = new KeyRange(null, false, null, false, null);

  /** True if {@code v} lies inside the range (bounds only; a prefix range's bounds are exact). */
  public boolean contains(KeyValue v) {
    if (lower != null) {
      int c = KeyValue.compare(v, lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = KeyValue.compare(v, upper);
      if (c > 0 || (c == 0 && !upperInclusive)) {
        return false;
      }
    }
    return true;
  }
}
