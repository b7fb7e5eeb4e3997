package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchTest extends DriverTestBase {

  private static List<WriteOp> puts(int from, int n) {
    List<WriteOp> ops = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      ops.add(
          new WriteOp.Put(
              Key.of("k" + i), Fixtures.item("k" + i, Map.of("i", AttributeValue.of(i)))));
    }
    return ops;
  }

  @Test
  void batchWriteAndGetAtTheLimits() {
    TableLayout t = newTable(null);
    for (int from = 0; from < 100; from += 25) {
      assertThat(driver.batchWrite(t, puts(from, 25)).unprocessed()).isEmpty();
    }
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      keys.add(Key.of("k" + i));
    }
    List<StoredItem> found = new ArrayList<>();
    List<Key> pending = keys;
    while (!pending.isEmpty()) {
      BatchGetResult r = driver.batchGet(t, pending, true);
      found.addAll(r.items());
      pending = r.unprocessed();
    }
    assertThat(found).hasSize(100);
    assertThat(found).allSatisfy(s -> assertThat(s.token()).hasSize(22));
    assertThat(found).noneMatch(s -> s.item().has("stowage:tok"));
  }

  @Test
  void batchMixesPutsAndDeletesAndSkipsMissingKeys() {
    TableLayout t = newTable(null);
    driver.batchWrite(t, puts(0, 3));
    assertThat(
            driver
                .batchWrite(t, List.of(new WriteOp.Delete(Key.of("k0")), puts(5, 1).get(0)))
                .unprocessed())
        .isEmpty();
    BatchGetResult r =
        driver.batchGet(t, List.of(Key.of("k0"), Key.of("k1"), Key.of("k5"), Key.of("zz")), false);
    assertThat(r.items())
        .extracting(s -> s.item().getString("pk"))
        .containsExactlyInAnyOrder("k1", "k5");
    assertThat(r.unprocessed()).isEmpty();
  }

  @Test
  void beyondTheNativeLimitsIsAnInvalidRequest() {
    TableLayout t = newTable(null);
    assertThatThrownBy(() -> driver.batchWrite(t, puts(0, 26)))
        .isInstanceOf(InvalidRequestException.class);
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      keys.add(Key.of("k" + i));
    }
    assertThatThrownBy(() -> driver.batchGet(t, keys, false))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(driver.limits().maxBatchGet()).isEqualTo(100);
    assertThat(driver.limits().maxBatchWrite()).isEqualTo(25);
  }
}
