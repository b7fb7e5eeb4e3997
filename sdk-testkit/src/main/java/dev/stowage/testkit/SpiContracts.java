package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The driver's primitives, called directly: expectations and tokens, batches within the declared
 * limits, query limits and resumption. The core builds every feature on these, so a failure here
 * pinpoints the driver rather than a feature.
 */
abstract class SpiContracts extends Contract {
  private final List<TableRef> created = new ArrayList<>();

  private TableLayout layout(String name) {
    TableLayout l =
        new TableLayout(
            new TableRef(store.namespace(), name),
            KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER),
            List.of());
    driver().ensureTable(l);
    driver().ensureTable(l); // idempotent
    created.add(l.ref());
    return l;
  }

  @AfterEach
  final void dropSpiTables() {
    created.forEach(driver()::dropTable);
    created.clear();
  }

  private static Item item(String p, long s, String v) {
    return Item.builder().put("p", p).put("s", s).put("v", v).build();
  }

  @Test
  void expectationsAndTokensAreCheckedAtomically() {
    TableLayout t = layout("spitokens");
    Key k = Key.of("a", 1);
    WriteResult first = driver().put(t, item("a", 1, "one"), Expectation.ABSENT, false);
    assertThat(first.token()).isNotNull();
    assertThatThrownBy(() -> driver().put(t, item("a", 1, "two"), Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);
    StoredItem stored = driver().get(t, k, true).orElseThrow();
    assertThat(stored.item()).isEqualTo(item("a", 1, "one"));
    assertThat(stored.token()).isEqualTo(first.token());

    WriteResult second =
        driver().put(t, item("a", 1, "two"), Expectation.token(stored.token()), true);
    assertThat(second.token()).as("the token changes on every write").isNotEqualTo(first.token());
    assertThat(second.previous())
        .hasValueSatisfying(p -> assertThat(p.item()).isEqualTo(item("a", 1, "one")));
    assertThatThrownBy(
            () -> driver().put(t, item("a", 1, "stale"), Expectation.token(first.token()), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> driver().delete(t, k, Expectation.token(first.token()), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(
            () -> driver().put(t, item("b", 1, "x"), Expectation.token(second.token()), false))
        .as("a token expectation on a missing item fails")
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver().get(t, k, true).orElseThrow().item()).isEqualTo(item("a", 1, "two"));
    assertThat(driver().get(t, Key.of("b", 1), true)).isEmpty();

    WriteResult deleted = driver().delete(t, k, Expectation.token(second.token()), true);
    assertThat(deleted.previous())
        .hasValueSatisfying(p -> assertThat(p.item()).isEqualTo(item("a", 1, "two")));
    assertThat(driver().get(t, k, true)).isEmpty();
    driver().delete(t, k, Expectation.ANY, false); // deleting a missing item succeeds
  }

  @Test
  void batchesWithinTheDeclaredLimitsAreApplied() {
    TableLayout t = layout("spibatch");
    int writes = Math.min(driver().limits().maxBatchWrite(), 500);
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < writes; i++) {
      Item it = item("b" + (i % 3), i, "v" + i);
      ops.add(new WriteOp.Put(Key.of(str("b" + (i % 3)), num(i)), it));
    }
    List<WriteOp> left = driver().batchWrite(t, ops).unprocessed();
    for (int round = 0; round < 20 && !left.isEmpty(); round++) {
      left = driver().batchWrite(t, left).unprocessed();
    }
    assertThat(left).as("unprocessed writes drain on retry").isEmpty();
    int reads = Math.min(driver().limits().maxBatchGet(), writes);
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < reads - 1; i++) {
      keys.add(Key.of(str("b" + (i % 3)), num(i)));
    }
    keys.add(Key.of("missing", 1));
    Set<Key> found = new HashSet<>();
    List<Key> pending = keys;
    for (int round = 0; round < 20 && !pending.isEmpty(); round++) {
      BatchGetResult r = driver().batchGet(t, pending, true);
      r.items()
          .forEach(
              s -> found.add(Key.of((KeyValue) s.item().get("p"), (KeyValue) s.item().get("s"))));
      pending = r.unprocessed();
    }
    assertThat(found).containsExactlyInAnyOrderElementsOf(keys.subList(0, keys.size() - 1));
  }

  @Test
  void queriesHonourLimitsRangesAndResumePositions() {
    TableLayout t = layout("spiquery");
    for (int i = 0; i < 30; i++) {
      driver().put(t, item("q", i, "v"), Expectation.ANY, false);
    }
    driver().put(t, item("other", 0, "v"), Expectation.ANY, false);
    List<Long> seen = new ArrayList<>();
    Position after = null;
    for (int round = 0; round < 40; round++) {
      QueryResult r =
          driver().query(t, new DriverQuery(null, str("q"), KeyRange.ALL, false, 4, after, true));
      assertThat(r.items().size()).isLessThanOrEqualTo(4);
      for (StoredItem s : r.items()) {
        seen.add(s.item().getLong("s"));
        after = new Position(Key.of(str("q"), num(s.item().getLong("s"))), null);
      }
      if (!r.more()) {
        break;
      }
    }
    assertThat(seen)
        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 30).boxed().toList());
    QueryResult range =
        driver()
            .query(
                t,
                new DriverQuery(
                    null,
                    str("q"),
                    new KeyRange(num(10), true, num(20), false, null),
                    true,
                    100,
                    null,
                    true));
    assertThat(range.items().stream().map(s -> s.item().getLong("s")).toList())
        .as("a descending range query, lower bound inclusive, upper bound exclusive")
        .containsExactly(19L, 18L, 17L, 16L, 15L, 14L, 13L, 12L, 11L, 10L);
  }
}
