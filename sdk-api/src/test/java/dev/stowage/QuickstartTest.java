package dev.stowage;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuickstartTest {
  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();
  private final Table events =
      store.ensureTable(
          TableSpec.builder("events", KeySchema.of("feed", STRING, "at", NUMBER))
              .index("byKind", List.of("kind"), List.of("at"))
              .build());

  private Item event(int at, String kind) {
    return Item.builder().put("feed", "f").put("at", at).put("kind", kind).build();
  }

  @Test
  void putGetUpdateDelete() {
    events.put(event(1, "a"));
    assertThat(events.get(Key.of("f", 1))).contains(event(1, "a"));
    Item updated = events.update(Key.of("f", 1), Update.builder().increment("n", 5).build());
    assertThat(updated.getLong("n")).isEqualTo(5);
    assertThatThrownBy(
            () -> events.put(event(1, "b"), WriteOptions.when(Condition.notExists("feed"))))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(events.delete(Key.of("f", 1))).isTrue();
    assertThat(events.get(Key.of("f", 1))).isEmpty();
  }

  @Test
  void pagesBothWays() {
    for (int i = 1; i <= 10; i++) {
      events.put(event(i, i % 2 == 0 ? "even" : "odd"));
    }
    Page first = events.query(Query.partition("f").descending().limit(3).build());
    assertThat(first.items()).extracting(i -> i.getLong("at")).containsExactly(10L, 9L, 8L);
    assertThat(first.hasAfter()).isFalse();
    assertThat(first.hasBefore()).isTrue();
    List<Long> walked = new ArrayList<>();
    Page p = first;
    while (true) {
      p.items().forEach(i -> walked.add(i.getLong("at")));
      if (!p.hasBefore()) {
        break;
      }
      p = events.page(p.before().orElseThrow());
    }
    assertThat(walked).containsExactly(10L, 9L, 8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L);
    events.put(event(11, "odd"));
    events.put(event(12, "even"));
    Page newer = events.page(first.after().orElseThrow());
    assertThat(newer.items()).extracting(i -> i.getLong("at")).containsExactly(12L, 11L);
    Page back = events.page(newer.before().orElseThrow());
    assertThat(back.items()).extracting(i -> i.getLong("at")).containsExactly(10L, 9L, 8L);

    Page evens =
        events.query(
            Query.index("byKind")
                .partition("even")
                .sort(SortCondition.gt(AttributeValue.of(4)))
                .limit(2)
                .build());
    assertThat(evens.items()).extracting(i -> i.getLong("at")).containsExactly(6L, 8L);
    Page filtered =
        events.query(Query.partition("f").filter(Condition.eq("kind", "odd")).limit(4).build());
    assertThat(filtered.items()).extracting(i -> i.getLong("at")).containsExactly(1L, 3L, 5L, 7L);
    assertThat(events.page(filtered.after().orElseThrow()).items())
        .extracting(i -> i.getLong("at"))
        .containsExactly(9L, 11L);
  }
}
