package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.pnSpec;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Condition.Op;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** Conditional writes: races, every condition kind, failures that change nothing, versions. */
abstract class ConditionContracts extends Contract {

  @Test
  void putIfAbsentRaceHasExactlyOneWinner() {
    Table t = table(pnSpec("race"));
    int threads = scale().raceThreads();
    for (int round = 0; round < 3; round++) {
      final long s = round;
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Callable<Boolean>> racers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        final String me = "racer-" + i;
        racers.add(
            () -> {
              start.await();
              return t.putIfAbsent(item("race", s, "winner", me));
            });
      }
      List<Boolean> won = Helpers.runConcurrently(racers);
      assertThat(won.stream().filter(w -> w).count()).as("winners of round %d", round).isEqualTo(1);
      String winner = "racer-" + won.indexOf(true);
      assertThat(t.get(key("race", s), ReadOptions.CONSISTENT))
          .contains(item("race", s, "winner", winner));
    }
  }

  @Test
  void everyConditionKindEvaluatesLikeDynamoDb() {
    Table t = table(pnSpec("condkinds"));
    Item stored =
        Item.builder()
            .put("p", "c")
            .put("s", 1)
            .put("name", "alpha beta")
            .put("n", 10)
            .put("bin", new byte[] {1, 2, 3})
            .put("flag", true)
            .put("nothing", AttributeValue.nullValue())
            .put("tags", AttributeValue.stringSet("red", "green"))
            .put("nums", AttributeValue.numberSet(List.of(new java.math.BigDecimal("1.5"))))
            .put("list", AttributeValue.list(str("x"), num(2)))
            .put("map", AttributeValue.map(Map.of("k", str("v"))))
            .build();
    t.put(stored);
    Map<Condition, Boolean> cases = new java.util.LinkedHashMap<>();
    cases.put(Condition.exists("name"), true);
    cases.put(Condition.exists("missing"), false);
    cases.put(Condition.exists("nothing"), true);
    cases.put(Condition.notExists("missing"), true);
    cases.put(Condition.notExists("name"), false);
    cases.put(Condition.eq("name", "alpha beta"), true);
    cases.put(Condition.eq("name", "alpha"), false);
    cases.put(Condition.eq("n", 10), true);
    cases.put(Condition.eq("n", AttributeValue.of(new java.math.BigDecimal("10.000"))), true);
    cases.put(Condition.eq("n", "10"), false);
    cases.put(Condition.eq("flag", AttributeValue.of(true)), true);
    cases.put(Condition.eq("nothing", AttributeValue.nullValue()), true);
    cases.put(Condition.eq("map", AttributeValue.map(Map.of("k", str("v")))), true);
    cases.put(Condition.eq("list", AttributeValue.list(str("x"), num(2))), true);
    cases.put(Condition.eq("list", AttributeValue.list(num(2), str("x"))), false);
    cases.put(Condition.eq("tags", AttributeValue.stringSet("green", "red")), true);
    cases.put(Condition.ne("n", num(11)), true);
    cases.put(Condition.ne("n", num(10)), false);
    cases.put(Condition.ne("missing", num(10)), true);
    cases.put(Condition.lt("n", num(11)), true);
    cases.put(Condition.lt("n", num(10)), false);
    cases.put(Condition.le("n", num(10)), true);
    cases.put(Condition.gt("n", num(9)), true);
    cases.put(Condition.gt("n", num("10.5")), false);
    cases.put(Condition.ge("n", num(10)), true);
    cases.put(Condition.lt("n", str("99")), false); // ordered comparison across types is false
    cases.put(Condition.lt("missing", num(1)), false);
    cases.put(Condition.gt("name", str("alpha")), true);
    cases.put(Condition.lt("bin", Helpers.bin(1, 2, 4)), true);
    cases.put(Condition.between("n", num(10), num(20)), true);
    cases.put(Condition.between("n", num(11), num(20)), false);
    cases.put(Condition.beginsWith("name", str("alpha ")), true);
    cases.put(Condition.beginsWith("name", str("beta")), false);
    cases.put(Condition.beginsWith("bin", Helpers.bin(1, 2)), true);
    cases.put(Condition.beginsWith("n", str("1")), false);
    cases.put(Condition.contains("name", str("ha be")), true);
    cases.put(Condition.contains("name", str("gamma")), false);
    cases.put(Condition.contains("tags", str("red")), true);
    cases.put(Condition.contains("tags", str("blue")), false);
    cases.put(Condition.contains("nums", num("1.50")), true);
    cases.put(Condition.contains("list", num(2)), true);
    cases.put(Condition.contains("list", num(3)), false);
    cases.put(Condition.and(Condition.exists("name"), Condition.eq("n", 10)), true);
    cases.put(Condition.and(Condition.exists("name"), Condition.eq("n", 11)), false);
    cases.put(Condition.or(Condition.exists("missing"), Condition.eq("n", 10)), true);
    cases.put(Condition.or(Condition.exists("missing"), Condition.eq("n", 11)), false);
    cases.put(Condition.not(Condition.exists("missing")), true);
    cases.put(Condition.not(Condition.eq("n", 10)), false);
    cases.put(
        Condition.not(
            Condition.or(
                Condition.eq("n", 1),
                Condition.and(
                    Condition.eq("flag", AttributeValue.of(false)), Condition.exists("name")))),
        true);
    int round = 0;
    for (var c : cases.entrySet()) {
      round++;
      Item next = stored.toBuilder().put("round", round).build();
      boolean applied;
      try {
        t.put(next, WriteOptions.when(c.getKey()));
        applied = true;
      } catch (ConditionFailedException e) {
        applied = false;
      }
      assertThat(applied).as("%s", c.getKey()).isEqualTo(c.getValue());
      Item now = t.get(key("c", 1), ReadOptions.CONSISTENT).orElseThrow();
      assertThat(now).as("after %s", c.getKey()).isEqualTo(applied ? next : stored);
      stored = now.toBuilder().remove("round").build();
      t.put(stored);
    }
  }

  @Test
  void conditionsOnAMissingItemSeeNoAttributes() {
    Table t = table(pnSpec("condmissing"));
    t.put(item("m", 1, "a", "1"), WriteOptions.when(Condition.notExists("a")));
    assertThatThrownBy(() -> t.put(item("m", 2), WriteOptions.when(Condition.exists("p"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> t.delete(key("m", 3), WriteOptions.when(Condition.eq("a", "1"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(
            () ->
                t.update(
                    key("m", 4),
                    Update.builder().set("a", "1").build(),
                    WriteOptions.when(Condition.exists("a"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(Helpers.scanAll(t)).containsExactly(item("m", 1, "a", "1"));
  }

  @Test
  void aFailedConditionLeavesTheItemUnchanged() {
    Table t = table(pnSpec("condfail"));
    Item original = item("f", 1, "status", "open", "owner", "ada");
    t.put(original);
    Condition wrong = Condition.eq("status", "closed");
    assertThatThrownBy(() -> t.put(item("f", 1, "status", "hacked"), WriteOptions.when(wrong)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(
            () ->
                t.update(
                    key("f", 1),
                    Update.builder().set("owner", "eve").remove("status").build(),
                    WriteOptions.when(wrong)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> t.delete(key("f", 1), WriteOptions.when(wrong)))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(t.get(key("f", 1), ReadOptions.CONSISTENT)).contains(original);
    assertThat(t.delete(key("f", 1), WriteOptions.when(Condition.eq("status", "open")))).isTrue();
    assertThat(t.get(key("f", 1), ReadOptions.CONSISTENT)).isEmpty();
  }

  @Test
  void staleVersionsAreRejected() {
    Table t =
        table(
            TableSpec.builder(
                    "versioned", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
                .versionAttribute("version")
                .build());
    t.put(item("v", 1, "data", "first"));
    Item read1 = t.get(key("v", 1), ReadOptions.CONSISTENT).orElseThrow();
    long v1 = read1.getLong("version");
    Item read1Again = t.get(key("v", 1), ReadOptions.CONSISTENT).orElseThrow();

    t.put(read1.toBuilder().put("data", "second").build());
    Item read2 = t.get(key("v", 1), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read2.getString("data")).isEqualTo("second");
    assertThat(read2.getLong("version")).isEqualTo(v1 + 1);

    // A writer holding the old version loses; the item keeps the winner's write.
    assertThatThrownBy(() -> t.put(read1Again.toBuilder().put("data", "lost update").build()))
        .isInstanceOf(ConditionFailedException.class);
    // An item written as new (no version) may not replace an existing one.
    assertThatThrownBy(() -> t.put(item("v", 1, "data", "blind overwrite")))
        .isInstanceOf(ConditionFailedException.class);
    // A version for an item that does not exist is stale too.
    assertThatThrownBy(
            () -> t.put(item("v", 2, "data", "ghost").toBuilder().put("version", v1).build()))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(t.get(key("v", 1), ReadOptions.CONSISTENT)).contains(read2);
    assertThat(t.get(key("v", 2), ReadOptions.CONSISTENT)).isEmpty();
  }

  @Test
  void wrongTypesInConditionsAreRejectedAtConstruction() {
    assertThatThrownBy(() -> new Condition.Compare("a", Op.LT, AttributeValue.list(num(1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Condition.Compare("a", Op.GE, AttributeValue.of(true)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Condition.Compare("a", Op.GT, AttributeValue.nullValue()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.between("a", num(1), str("2")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.between("a", num(2), num(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.beginsWith("a", num(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.and()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.or()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Condition.exists("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SortCondition.beginsWith(num(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new SortCondition(SortCondition.Operator.BETWEEN, List.of(num(1)), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Update.builder().addToSet("tags", str("not a set")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Update.builder().set("a", "1").remove("a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Key.of(str("a"), null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void concurrentWritersHoldingTheSameVersionHaveExactlyOneWinner() {
    Table t =
        table(
            TableSpec.builder(
                    "versionrace",
                    KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
                .versionAttribute("version")
                .build());
    t.put(item("v", 1, "owner", "nobody"));
    int threads = scale().raceThreads();
    Item read = t.get(key("v", 1), ReadOptions.CONSISTENT).orElseThrow();
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Callable<Boolean>> writers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      final String me = "writer-" + i;
      writers.add(
          () -> {
            start.await();
            try {
              t.put(read.toBuilder().put("owner", me).build());
              return true;
            } catch (ConditionFailedException lost) {
              return false;
            }
          });
    }
    List<Boolean> won = Helpers.runConcurrently(writers);
    assertThat(won.stream().filter(w -> w).count()).isEqualTo(1);
    Item now = t.get(key("v", 1), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(now.getString("owner")).isEqualTo("writer-" + won.indexOf(true));
    assertThat(now.getLong("version")).isEqualTo(read.getLong("version") + 1);
  }
}
