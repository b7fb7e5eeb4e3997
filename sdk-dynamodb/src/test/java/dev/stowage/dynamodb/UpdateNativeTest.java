package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.Capability;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdateNativeTest extends DriverTestBase {
  private static final Key K = Key.of("k");

  @Test
  void everyActionAppliesAndTheTokenRotates() {
    assertThat(driver.capabilities()).contains(Capability.NATIVE_UPDATES);
    TableLayout t = newTable(null);
    String before =
        driver
            .put(
                t,
                Fixtures.item(
                    "k",
                    Map.of(
                        "status", AttributeValue.of("new"),
                        "gone", AttributeValue.of(1),
                        "tags", AttributeValue.stringSet("a", "b"),
                        "nums", AttributeValue.numberSet(List.of(BigDecimal.ONE, BigDecimal.TEN)),
                        "log", AttributeValue.list(AttributeValue.of("x")))),
                Expectation.ANY,
                false)
            .token();
    Update u =
        Update.builder()
            .set("status", "done")
            .set("a.b #c :d", AttributeValue.map(Map.of("x", AttributeValue.of(1))))
            .remove("gone")
            .increment("count", 5)
            .addToSet("tags", AttributeValue.stringSet("c"))
            .removeFromSet(
                "nums", AttributeValue.numberSet(List.of(BigDecimal.ONE, BigDecimal.TEN)))
            .appendToList("log", AttributeValue.of("y"), AttributeValue.of(2))
            .appendToList("fresh", AttributeValue.of("z"))
            .build();
    StoredItem after = driver.updateNative(t, K, u, Condition.eq("status", "new"));
    Item i = after.item();
    assertThat(i.getString("status")).isEqualTo("done");
    assertThat(i.getMap("a.b #c :d")).containsEntry("x", AttributeValue.of(1));
    assertThat(i.has("gone")).isFalse();
    assertThat(i.getLong("count")).isEqualTo(5);
    assertThat(i.getStringSet("tags")).containsExactly("a", "b", "c");
    assertThat(i.has("nums")).isFalse();
    assertThat(i.getList("log"))
        .containsExactly(AttributeValue.of("x"), AttributeValue.of("y"), AttributeValue.of(2));
    assertThat(i.getList("fresh")).containsExactly(AttributeValue.of("z"));
    assertThat(i.has("stowage:tok")).isFalse();
    assertThat(after.token()).isNotEqualTo(before);
    assertThat(driver.get(t, K, true).orElseThrow()).isEqualTo(after);
  }

  /**
   * Without an append and with a condition of existence checks only, the update goes as
   * AttributeUpdates and Expected (no expressions): the same actions have the same effects.
   */
  @Test
  void actionsWithoutAnAppendApplyAlikeAsAttributeUpdates() {
    TableLayout t = newTable(null);
    Item stored =
        Fixtures.item(
            "k",
            Map.of(
                "status", AttributeValue.of("new"),
                "gone", AttributeValue.of(1),
                "count", AttributeValue.of(10),
                "tags", AttributeValue.stringSet("a", "b"),
                "nums", AttributeValue.numberSet(List.of(BigDecimal.ONE, BigDecimal.TEN)),
                "other", AttributeValue.of("kept")));
    String before = driver.put(t, stored, Expectation.ANY, false).token();
    Update u =
        Update.builder()
            .set("status", "done")
            .set("a.b #c :d", AttributeValue.map(Map.of("x", AttributeValue.of(1))))
            .set("nothing", AttributeValue.nullValue())
            .remove("gone")
            .remove("never")
            .increment("count", 5)
            .increment("fresh", -2)
            .addToSet("tags", AttributeValue.stringSet("c"))
            .removeFromSet("nums", AttributeValue.numberSet(List.of(BigDecimal.ONE)))
            .build();
    StoredItem after =
        driver.updateNative(
            t,
            K,
            u,
            Condition.and(
                Condition.notExists("stowage:ovf"),
                Condition.exists("status"),
                Condition.notExists("never")));
    Item i = after.item();
    assertThat(i.getString("status")).isEqualTo("done");
    assertThat(i.getMap("a.b #c :d")).containsEntry("x", AttributeValue.of(1));
    assertThat(i.get("nothing")).isEqualTo(AttributeValue.nullValue());
    assertThat(i.has("gone")).isFalse();
    assertThat(i.has("never")).isFalse();
    assertThat(i.getLong("count")).isEqualTo(15);
    assertThat(i.getLong("fresh")).isEqualTo(-2);
    assertThat(i.getStringSet("tags")).containsExactly("a", "b", "c");
    assertThat(i.get("nums")).isEqualTo(AttributeValue.numberSet(List.of(BigDecimal.TEN)));
    assertThat(i.getString("other")).isEqualTo("kept");
    assertThat(i.has("stowage:tok")).isFalse();
    assertThat(after.token()).isNotEqualTo(before);
    assertThat(driver.get(t, K, true).orElseThrow()).isEqualTo(after);

    Update again = Update.builder().set("status", "again").build();
    for (Condition c :
        List.of(
            Condition.exists("never"),
            Condition.notExists("status"),
            Condition.and(Condition.exists("status"), Condition.exists("never")))) {
      assertThatThrownBy(() -> driver.updateNative(t, K, again, c))
          .as(c.toString())
          .isInstanceOf(ConditionFailedException.class);
    }
    assertThat(driver.get(t, K, true).orElseThrow()).isEqualTo(after);
    // A condition on an absent item: existence checks see no attributes at all.
    Key other = Key.of("other");
    assertThatThrownBy(() -> driver.updateNative(t, other, again, Condition.exists("status")))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.get(t, other, true)).isEmpty();
    assertThat(driver.updateNative(t, other, again, Condition.notExists("status")).item())
        .isEqualTo(Fixtures.item("other", Map.of("status", AttributeValue.of("again"))));
  }

  @Test
  void updateOfMissingItemCreatesItWithItsKey() {
    TableLayout t = newTable(null);
    StoredItem s = driver.updateNative(t, K, Update.builder().increment("n", 2).build(), null);
    assertThat(s.item()).isEqualTo(Fixtures.item("k", Map.of("n", AttributeValue.of(2))));
  }

  @Test
  void conditionTreeTranslatesWithDynamoSemantics() {
    TableLayout t = newTable(null);
    driver.put(
        t,
        Fixtures.item(
            "k",
            Map.of(
                "n", AttributeValue.of(5),
                "s", AttributeValue.of("hello"),
                "b", AttributeValue.of(new byte[] {1, 2}),
                "set", AttributeValue.stringSet("x", "y"),
                "l", AttributeValue.list(AttributeValue.of(1), AttributeValue.map(Map.of())),
                "m", AttributeValue.map(Map.of("q", AttributeValue.of(true))))),
        Expectation.ANY,
        false);
    Update u = Update.builder().increment("hits", 1).build();
    List<Condition> holding =
        List.of(
            Condition.exists("n"),
            Condition.notExists("missing"),
            Condition.eq("n", 5),
            Condition.ne("n", AttributeValue.of(6)),
            Condition.ne("missing", AttributeValue.of(1)),
            Condition.lt("n", AttributeValue.of(6)),
            Condition.le("n", AttributeValue.of(5)),
            Condition.gt("s", AttributeValue.of("hell")),
            Condition.ge("b", AttributeValue.of(new byte[] {1})),
            Condition.between("n", AttributeValue.of(1), AttributeValue.of(5)),
            Condition.beginsWith("s", AttributeValue.of("he")),
            Condition.beginsWith("b", AttributeValue.of(Bytes.of(new byte[] {1}))),
            Condition.contains("s", AttributeValue.of("ell")),
            Condition.contains("set", AttributeValue.of("y")),
            Condition.contains("l", AttributeValue.of(1)),
            Condition.eq("m", AttributeValue.map(Map.of("q", AttributeValue.of(true)))),
            Condition.eq("set", AttributeValue.stringSet("y", "x")),
            Condition.and(
                Condition.exists("s"), Condition.or(Condition.exists("zz"), Condition.eq("n", 5))),
            Condition.not(Condition.exists("zz")));
    for (Condition c : holding) {
      driver.updateNative(t, K, u, c);
    }
    assertThat(driver.get(t, K, true).orElseThrow().item().getLong("hits"))
        .isEqualTo(holding.size());
    List<Condition> failing =
        List.of(
            Condition.eq("missing", AttributeValue.of(1)),
            Condition.lt("n", AttributeValue.of("string operand")),
            Condition.gt("n", AttributeValue.of(5)),
            Condition.not(Condition.exists("n")),
            Condition.and(Condition.exists("n"), Condition.exists("zz")));
    for (Condition c : failing) {
      assertThatThrownBy(() -> driver.updateNative(t, K, u, c))
          .as(c.toString())
          .isInstanceOf(ConditionFailedException.class);
    }
  }

  @Test
  void growingPastTheItemLimitIsItemTooLarge() {
    TableLayout t = newTable(null);
    driver.put(
        t,
        Fixtures.item("k", Map.of("a", AttributeValue.of("x".repeat(300_000)))),
        Expectation.ANY,
        false);
    assertThatThrownBy(
            () ->
                driver.updateNative(
                    t,
                    K,
                    Update.builder().set("b", AttributeValue.of("y".repeat(200_000))).build(),
                    null))
        .isInstanceOf(ItemTooLargeException.class);
  }
}
