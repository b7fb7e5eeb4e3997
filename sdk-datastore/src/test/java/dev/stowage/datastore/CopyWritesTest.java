package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link DatastoreDriver#batchWriteCopies}: the migrator's writes, stored exactly as batch writes
 * store them, without keeping the written entities as templates, and forgetting the ones kept for
 * the keys they replace.
 */
class CopyWritesTest extends DriverTestBase {
  @Test
  void copiesAreStoredExactlyEachWithItsOwnToken() {
    TableLayout t = table("", AttributeType.STRING);
    List<WriteOp> copies = new ArrayList<>();
    for (int i = 0; i < DatastoreDriver.MAX_MUTATIONS; i++) {
      Item item =
          i % 50 == 0
              ? DatastoreDriverTest.item("p" + i % 7, "s" + i, DatastoreDriverTest.everyType())
              : DatastoreDriverTest.item(
                  "p" + i % 7,
                  "s" + i,
                  Map.of(
                      "amount", AttributeValue.of(new BigDecimal(i + ".25")),
                      "memo", AttributeValue.of("memo " + i)));
      copies.add(new WriteOp.Put(Key.of("p" + i % 7, "s" + i), item));
    }
    assertThat(driver.batchWriteCopies(t, copies).unprocessed()).isEmpty();
    Set<String> tokens = new HashSet<>();
    for (WriteOp op : copies) {
      WriteOp.Put put = (WriteOp.Put) op;
      StoredItem got = driver.get(t, put.key(), true).orElseThrow();
      assertThat(got.item()).isEqualTo(put.item());
      assertThat(got.token()).hasSize(22);
      assertThat(tokens.add(got.token())).isTrue();
    }
  }

  @Test
  void aCopyOverAnEntityThisDriverWroteIsWhatTheNextPutReplaces() {
    TableLayout t = table("", AttributeType.STRING);
    Key key = Key.of("p", "1");
    Item v1 = DatastoreDriverTest.item("p", "1", Map.of("n", AttributeValue.of(1)));
    Item v2 = DatastoreDriverTest.item("p", "1", Map.of("n", AttributeValue.of("two")));
    Item v3 = DatastoreDriverTest.item("p", "1", Map.of("n", AttributeValue.of(3)));
    driver.put(t, v1, Expectation.ANY, false); // kept as the last entity written under the key
    driver.batchWriteCopies(t, List.of(new WriteOp.Put(key, v2)));

    // The put's previous item (what a blob store cleans up after) is the copy, not v1: the
    // copy made the driver forget v1.
    WriteResult w = driver.put(t, v3, Expectation.ANY, true);
    assertThat(w.previous()).map(StoredItem::item).contains(v2);
    assertThat(driver.get(t, key, true).orElseThrow().item()).isEqualTo(v3);
  }
}
