package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.pnSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.ReadOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Batches larger than every backend's native limit are chunked, complete and exact. */
abstract class BatchContracts extends Contract {

  @Test
  void batchesLargerThanEveryBackendLimitPutGetAndDeleteEverything() {
    Table t = table(pnSpec("batches"));
    int n = scale().batchItems();
    List<Item> items = new ArrayList<>();
    Map<Key, Item> expected = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      // Several partitions, so chunks mix partitions as they do in real workloads.
      Item it = item("part-" + (i % 7), i, "payload", "value " + i);
      items.add(it);
      expected.put(key("part-" + (i % 7), i), it);
    }
    t.batchPut(items);
    List<Key> keys = new ArrayList<>(expected.keySet());
    for (int i = 0; i < 100; i++) {
      keys.add(key("missing", i));
    }
    assertThat(t.batchGet(keys, ReadOptions.CONSISTENT)).isEqualTo(expected);
    assertThat(Helpers.scanAll(t)).hasSize(n);

    List<Key> toDelete = new ArrayList<>(expected.keySet());
    toDelete.add(key("missing", 1));
    t.batchDelete(toDelete);
    assertThat(t.batchGet(expected.keySet(), ReadOptions.CONSISTENT)).isEmpty();
    assertThat(Helpers.scanAll(t)).isEmpty();
  }

  @Test
  void duplicateKeysInABatchGetAreReadOnce() {
    Table t = table(pnSpec("batchdups"));
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      items.add(item("d", i));
    }
    t.batchPut(items);
    List<Key> keys = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 150; i++) {
        keys.add(key("d", i));
      }
    }
    Map<Key, Item> got = t.batchGet(keys);
    assertThat(got).hasSize(150);
    for (int i = 0; i < 150; i++) {
      assertThat(got.get(key("d", i))).isEqualTo(item("d", i));
    }
  }

  @Test
  void emptyBatchesDoNothing() {
    Table t = table(pnSpec("batchempty"));
    t.batchPut(List.of());
    t.batchDelete(List.of());
    assertThat(t.batchGet(List.of())).isEmpty();
    assertThat(Helpers.scanAll(t)).isEmpty();
  }
}
