package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.pnSpec;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.Table;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** Updates: every action, creation of missing items, and linearizable counters. */
abstract class UpdateContracts extends Contract {

  @Test
  void concurrentIncrementsAddUpExactly() {
    Table t = table(pnSpec("counter"));
    int threads = scale().counterThreads();
    int increments = scale().counterIncrements();
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Callable<Long>> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      workers.add(
          () -> {
            start.await();
            long last = 0;
            for (int j = 0; j < increments; j++) {
              Item after = t.update(key("counter", 1), Update.builder().increment("n", 1).build());
              long now = after.getLong("n");
              assertThat(now)
                  .as("a thread's own increments return growing totals")
                  .isGreaterThan(last);
              last = now;
            }
            return last;
          });
    }
    List<Long> lastSeen = Helpers.runConcurrently(workers);
    long total = (long) threads * increments;
    assertThat(t.get(key("counter", 1), ReadOptions.CONSISTENT).orElseThrow().getLong("n"))
        .isEqualTo(total);
    assertThat(lastSeen).contains(total).allMatch(n -> n <= total);
  }

  @Test
  void everyUpdateActionApplies() {
    Table t = table(pnSpec("actions"));
    t.put(
        Item.builder()
            .put("p", "u")
            .put("s", 1)
            .put("gone", "x")
            .put("count", 5)
            .put("tags", AttributeValue.stringSet("a", "b"))
            .put("nums", AttributeValue.numberSet(List.of(BigDecimal.ONE, BigDecimal.TEN)))
            .put("blobs", AttributeValue.binarySet(List.of(Bytes.wrap(new byte[] {1}))))
            .put("last", AttributeValue.stringSet("only"))
            .put("log", AttributeValue.list(str("first")))
            .build());
    Item after =
        t.update(
            key("u", 1),
            Update.builder()
                .set("name", "ada")
                .set(
                    "nested",
                    AttributeValue.map(java.util.Map.of("k", AttributeValue.list(num(1)))))
                .remove("gone")
                .remove("neverExisted")
                .increment("count", new BigDecimal("-7.25"))
                .increment("fresh", 3)
                .addToSet("tags", AttributeValue.stringSet("b", "c"))
                .addToSet("newSet", AttributeValue.numberSet(List.of(new BigDecimal("2.5"))))
                .removeFromSet(
                    "nums", AttributeValue.numberSet(List.of(BigDecimal.TEN, new BigDecimal("99"))))
                .removeFromSet("last", AttributeValue.stringSet("only"))
                .addToSet(
                    "blobs",
                    AttributeValue.binarySet(List.of(Bytes.wrap(new byte[] {(byte) 0xff}))))
                .appendToList("log", str("second"), AttributeValue.nullValue())
                .appendToList("newList", num(1))
                .build());
    Item expected =
        Item.builder()
            .put("p", "u")
            .put("s", 1)
            .put("name", "ada")
            .put("nested", AttributeValue.map(java.util.Map.of("k", AttributeValue.list(num(1)))))
            .put("count", new BigDecimal("-2.25"))
            .put("fresh", 3)
            .put("tags", AttributeValue.stringSet("a", "b", "c"))
            .put("newSet", AttributeValue.numberSet(List.of(new BigDecimal("2.5"))))
            .put("nums", AttributeValue.numberSet(List.of(BigDecimal.ONE)))
            .put(
                "blobs",
                AttributeValue.binarySet(
                    List.of(Bytes.wrap(new byte[] {1}), Bytes.wrap(new byte[] {(byte) 0xff}))))
            .put(
                "log", AttributeValue.list(str("first"), str("second"), AttributeValue.nullValue()))
            .put("newList", AttributeValue.list(num(1)))
            .build();
    assertThat(after).isEqualTo(expected);
    assertThat(t.get(key("u", 1), ReadOptions.CONSISTENT)).contains(expected);
  }

  @Test
  void updateOfAMissingItemCreatesItWithItsKey() {
    Table t = table(pnSpec("upsert"));
    Item created =
        t.update(key("new", 9), Update.builder().set("a", "1").increment("hits", 1).build());
    assertThat(created).isEqualTo(item("new", 9, "a", "1").toBuilder().put("hits", 1).build());
    assertThat(t.get(key("new", 9), ReadOptions.CONSISTENT)).contains(created);
  }

  @Test
  void updatesWithWrongTypesOrOnKeysAreInvalidRequests() {
    Table t = table(pnSpec("badupdate"));
    Item original =
        Item.builder()
            .put("p", "b")
            .put("s", 1)
            .put("word", "text")
            .put("tags", AttributeValue.stringSet("a"))
            .put("list", AttributeValue.list())
            .build();
    t.put(original);
    List<Update> bad =
        List.of(
            Update.builder().increment("word", 1).build(),
            Update.builder()
                .addToSet("tags", AttributeValue.numberSet(List.of(BigDecimal.ONE)))
                .build(),
            Update.builder().addToSet("word", AttributeValue.stringSet("x")).build(),
            Update.builder().appendToList("word", str("x")).build(),
            Update.builder().set("p", "other").build(),
            Update.builder().increment("s", 1).build());
    for (Update u : bad) {
      assertThatThrownBy(() -> t.update(key("b", 1), u))
          .as("%s", u)
          .isInstanceOf(InvalidRequestException.class);
    }
    assertThat(t.get(key("b", 1), ReadOptions.CONSISTENT)).contains(original);
  }
}
