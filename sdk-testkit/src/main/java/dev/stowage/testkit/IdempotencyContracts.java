package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static dev.stowage.testkit.Helpers.key;
import static dev.stowage.testkit.Helpers.pnSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.ConditionFailedException;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.query.UpdateResult;
import dev.stowage.query.WriteOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** Writes carrying a request id are applied once, however often they are retried. */
abstract class IdempotencyContracts extends Contract {

  @Test
  void aRetriedUpdateIsAppliedOnceAndReturnsTheSameResult() {
    Table t = table(pnSpec("idemupdate"));
    Update inc = Update.builder().increment("n", 1).build();
    Item first = t.update(key("i", 1), inc, WriteOptions.idempotent("req-1"));
    Item retry = t.update(key("i", 1), inc, WriteOptions.idempotent("req-1"));
    assertThat(first.getLong("n")).isEqualTo(1);
    assertThat(retry).isEqualTo(first);
    Item other = t.update(key("i", 1), inc, WriteOptions.idempotent("req-2"));
    assertThat(other.getLong("n")).isEqualTo(2);
    assertThat(t.update(key("i", 1), inc, WriteOptions.idempotent("req-1")).getLong("n"))
        .as("an old request id is still remembered")
        .isEqualTo(2);
    assertThat(t.get(key("i", 1), ReadOptions.CONSISTENT).orElseThrow().getLong("n")).isEqualTo(2);
  }

  @Test
  void theWindowIsTheContractAndAForgottenRequestIdIsReported() {
    TableSpec spec =
        TableSpec.builder(
                "idemwindow", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
            .idempotencyWindow(3)
            .build();
    Table t = table(spec);
    Update inc = Update.builder().increment("n", 1).build();
    Key k = key("w", 1);
    long forgottenBefore = store.metrics().requestIdsForgotten();
    for (int i = 1; i <= 3; i++) {
      UpdateResult r = t.updateWithResult(k, inc, WriteOptions.idempotent("req-" + i));
      assertThat(r.applied()).isTrue();
      assertThat(r.forgotten()).isEmpty();
      assertThat(r.item().getLong("n")).isEqualTo(i);
    }
    UpdateResult repeat = t.updateWithResult(k, inc, WriteOptions.idempotent("req-1"));
    assertThat(repeat.applied()).as("a remembered request id is recognised").isFalse();
    assertThat(repeat.item().getLong("n")).isEqualTo(3);

    UpdateResult fourth = t.updateWithResult(k, inc, WriteOptions.idempotent("req-4"));
    assertThat(fourth.applied()).isTrue();
    assertThat(fourth.forgotten()).as("the window of 3 is full").contains("req-1");
    assertThat(store.metrics().requestIdsForgotten() - forgottenBefore).isEqualTo(1);

    UpdateResult late = t.updateWithResult(k, inc, WriteOptions.idempotent("req-1"));
    assertThat(late.applied())
        .as("a forgotten request id is applied again, as documented")
        .isTrue();
    assertThat(late.item().getLong("n")).isEqualTo(5);
  }

  @Test
  void concurrentRetriesOfOneRequestApplyOnce() {
    Table t = table(pnSpec("idemrace"));
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Callable<Long>> retries = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      retries.add(
          () -> {
            start.await();
            return t.update(
                    key("r", 1),
                    Update.builder().increment("n", 1).build(),
                    WriteOptions.idempotent("same-request"))
                .getLong("n");
          });
    }
    assertThat(Helpers.runConcurrently(retries)).containsOnly(1L);
    assertThat(t.get(key("r", 1), ReadOptions.CONSISTENT).orElseThrow().getLong("n")).isEqualTo(1);
  }

  @Test
  void aRetriedPutIsAppliedOnce() {
    Table t = table(pnSpec("idemput"));
    t.put(item("i", 1, "state", "created"), WriteOptions.idempotent("put-1"));
    t.update(
        key("i", 1),
        Update.builder().set("state", "shipped").build(),
        WriteOptions.idempotent("upd-1"));
    // The retry of the first put arrives late: it must not undo the later update.
    t.put(item("i", 1, "state", "created"), WriteOptions.idempotent("put-1"));
    assertThat(t.get(key("i", 1), ReadOptions.CONSISTENT).orElseThrow().getString("state"))
        .isEqualTo("shipped");
    // A retried conditional put that succeeded the first time succeeds again without writing.
    t.put(item("i", 2, "v", "1"), new WriteOptions(Condition.notExists("v"), "put-2"));
    t.put(item("i", 2, "v", "1"), new WriteOptions(Condition.notExists("v"), "put-2"));
    assertThat(t.get(key("i", 2), ReadOptions.CONSISTENT)).contains(item("i", 2, "v", "1"));
  }

  /**
   * The idempotent rate limiter of the Lambda article: each user may make 8 calls a day; every call
   * carries a request id, and retries of a call do not count against the limit.
   */
  static final class DailyLimiter {
    static final int LIMIT = 8;
    private final Table table;

    DailyLimiter(Table table) {
      this.table = table;
    }

    boolean allow(String user, String day, String requestId) {
      Condition underLimit =
          Condition.or(Condition.notExists("calls"), Condition.lt("calls", Helpers.num(LIMIT)));
      try {
        table.update(
            Key.of(user, day),
            Update.builder().increment("calls", 1).build(),
            new WriteOptions(underLimit, requestId));
        return true;
      } catch (ConditionFailedException limitReached) {
        return false;
      }
    }
  }

  @Test
  void theIdempotentDailyRateLimiterCountsEachRequestOnce() {
    Table t =
        table(
            TableSpec.builder(
                    "ratelimit",
                    KeySchema.of("user", AttributeType.STRING, "day", AttributeType.STRING))
                .build());
    DailyLimiter limiter = new DailyLimiter(t);
    for (int call = 1; call <= DailyLimiter.LIMIT; call++) {
      for (int attempt = 0; attempt < 3; attempt++) {
        assertThat(limiter.allow("ada", "2026-11-22", "call-" + call))
            .as("call %d attempt %d", call, attempt)
            .isTrue();
      }
    }
    assertThat(limiter.allow("ada", "2026-11-22", "call-9")).isFalse();
    assertThat(limiter.allow("ada", "2026-11-22", "call-9")).isFalse();
    assertThat(limiter.allow("ada", "2026-11-22", "call-3"))
        .as("a late retry of an allowed call is still allowed")
        .isTrue();
    assertThat(limiter.allow("ada", "2026-11-23", "call-9")).as("a new day").isTrue();
    assertThat(limiter.allow("bob", "2026-11-22", "call-1")).as("another user").isTrue();
    assertThat(
            t.get(Key.of("ada", "2026-11-22"), ReadOptions.CONSISTENT)
                .orElseThrow()
                .getLong("calls"))
        .isEqualTo(DailyLimiter.LIMIT);
  }

  @Test
  void requestIdsOlderThanTheWindowAreForgotten() {
    Table t =
        table(
            TableSpec.builder(
                    "idemwindow",
                    KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
                .idempotencyWindow(2)
                .build());
    Update inc = Update.builder().increment("n", 1).build();
    for (String id : List.of("r1", "r2", "r3")) {
      t.update(key("w", 1), inc, WriteOptions.idempotent(id));
    }
    assertThat(t.update(key("w", 1), inc, WriteOptions.idempotent("r3")).getLong("n"))
        .as("a recent id is remembered")
        .isEqualTo(3);
    assertThat(t.update(key("w", 1), inc, WriteOptions.idempotent("r1")).getLong("n"))
        .as("an id older than the window of 2 is applied again")
        .isEqualTo(4);
    assertThat(t.get(key("w", 1), ReadOptions.CONSISTENT).orElseThrow().names())
        .as("Stowage's bookkeeping never shows in items")
        .containsExactlyInAnyOrder("p", "s", "n");
  }
}
