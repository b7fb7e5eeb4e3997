package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.StoredItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Re-reads items through the driver to show their stored form. */
final class RawReads {
  private RawReads() {}

  /** The stored forms of {@code items}, in the same order (items gone meanwhile are left out). */
  static List<Item> storedForms(OpenedStore store, List<Item> items) {
    var schema = store.spec().keySchema();
    List<Key> keys = items.stream().map(schema::keyOf).toList();
    Map<Key, Item> found = new HashMap<>();
    int chunk = store.driver().limits().maxBatchGet();
    for (int i = 0; i < keys.size(); i += chunk) {
      List<Key> part = keys.subList(i, Math.min(keys.size(), i + chunk));
      while (!part.isEmpty()) {
        BatchGetResult r = store.driver().batchGet(store.layout(), part, true);
        for (StoredItem s : r.items()) {
          found.put(schema.keyOf(s.item()), s.item());
        }
        part = r.unprocessed();
      }
    }
    List<Item> out = new ArrayList<>();
    for (Key k : keys) {
      Item s = found.get(k);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }
}
