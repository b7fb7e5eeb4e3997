package dev.stowage.usage;

import java.util.Objects;

/**
 * One heavy hitter of a {@link HotKeys} ranking: a partition key value and its estimated weight
 * (requests, bytes or throttled requests) in the window. Immutable.
 *
 * <p>The estimate never under-counts: the key's true weight lies between {@code count - error} and
 * {@code count}.
 *
 * @param key the partition key value as text: a string as it is, a number in plain notation, binary
 *     values and the values of indexes Stowage maintains decoded where possible (a tuple as {@code
 *     (a, 1)}), otherwise hex
 * @param count the estimated weight, an over-estimate by at most {@code error}
 * @param error how much {@code count} may over-estimate by, 0 when exact
 */
public record HotKey(String key, long count, long error) {
  /** Checks the arguments. */
  public HotKey {
    Objects.requireNonNull(key, "key");
    if (count < 0 || error < 0 || error > count) {
      throw new IllegalArgumentException("need 0 <= error <= count");
    }
  }

  /** The weight the key certainly had in the window: {@code count - error}. */
  public long guaranteed() {
    return count - error;
  }
}
