package dev.stowage;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Cursors are sealed on first use: stable strings, expiry counted from the read. */
class LazyCursorsTest {
  private final AtomicLong now = new AtomicLong(1_000_000);
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return Instant.ofEpochMilli(now.get());
        }
      };
  private final Stowage store =
      Stowage.builder(MemoryDriver.create()).clock(clock).cursorTtl(Duration.ofMinutes(1)).build();
  private final Table events =
      store.ensureTable(
          TableSpec.builder("events", KeySchema.of("feed", STRING, "at", NUMBER))
              .index("byKind", List.of("kind"), List.of("at"))
              .build());

  private void fill() {
    for (int i = 1; i <= 7; i++) {
      events.put(Item.builder().put("feed", "f").put("at", i).put("kind", "k").build());
    }
  }

  @Test
  void aCursorIsTheSameStringEveryTimeAndLeadsOn() {
    fill();
    Page first =
        events.query(
            Query.index("byKind")
                .partition(dev.stowage.item.AttributeValue.of("k"))
                .limit(3)
                .build());
    String after = first.after().orElseThrow();
    assertThat(first.after()).contains(after);
    assertThat(first.before()).isPresent().isEqualTo(first.before());
    assertThat(first).isEqualTo(first).hasSameHashCodeAs(first);
    Page second = events.page(after);
    assertThat(second.items()).extracting(i -> i.getLong("at")).containsExactly(4L, 5L, 6L);
    Page back = events.page(second.before().orElseThrow());
    assertThat(back.items()).isEqualTo(first.items());
  }

  @Test
  void expiryCountsFromTheReadNotFromTheFirstAskingForTheCursor() {
    fill();
    Page first = events.query(Query.partition("f").limit(2).build());
    now.addAndGet(Duration.ofMinutes(2).toMillis());
    String late = first.after().orElseThrow();
    assertThatThrownBy(() -> events.page(late))
        .isInstanceOf(InvalidCursorException.class)
        .hasMessageContaining("expired");
  }

  @Test
  void scanPagesHaveOnlyAnAfterCursorAndNoneAtTheEnd() {
    fill();
    Page p = events.scan(Scan.all().withLimit(4));
    assertThat(p.before()).isEmpty();
    assertThat(p.hasAfter()).isTrue();
    Page last = events.page(p.after().orElseThrow());
    assertThat(last.items()).hasSize(3);
    assertThat(last.hasAfter()).isFalse();
    assertThat(last.after()).isEqualTo(Optional.empty());
  }

  @Test
  void pagesBuiltByApplicationsKeepTheirValues() {
    Page a = new Page(List.of(), Optional.of("b"), true, Optional.empty(), false);
    assertThat(a.before()).contains("b");
    assertThat(a.after()).isEmpty();
    assertThat(a).isEqualTo(new Page(List.of(), Optional.of("b"), true, Optional.empty(), false));
    assertThat(a.toString()).contains("before=Optional[b]");
  }
}
