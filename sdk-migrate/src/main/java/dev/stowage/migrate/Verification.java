package dev.stowage.migrate;

import dev.stowage.item.Key;
import java.util.List;

/**
 * The result of comparing a migration's source and target.
 *
 * @param sourceItems items in the source
 * @param targetItems items in the target
 * @param missing number of source items absent from the target
 * @param extra number of target items absent from the source
 * @param different number of items present on both sides whose digests differ
 * @param examples up to 20 keys of missing, extra or different items, for the report
 */
public record Verification(
    long sourceItems,
    long targetItems,
    long missing,
    long extra,
    long different,
    List<Key> examples) {
  public Verification {
    examples = List.copyOf(examples);
  }

  /** True if both sides hold exactly the same items. */
  public boolean ok() {
    return missing == 0 && extra == 0 && different == 0 && sourceItems == targetItems;
  }
}
