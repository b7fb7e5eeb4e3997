package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.OverflowSweeper;
import dev.stowage.query.Condition;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Capability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Lost responses: a workload of puts, overwrites, conditional writes, idempotent and plain updates,
 * deletes and transactions, with and without overflow, is run once for every call it makes, losing
 * the response of that call (the backend applied it; the caller saw a timeout). Every write either
 * is acknowledged and then reads as written, or fails as {@link
 * UnavailableException#outcomeUnknown() outcome unknown} and leaves the previous or the new value;
 * nothing hangs, no acknowledged overflow write loses its blob, and the sweeper then finds only
 * true orphans.
 */
abstract class LostResponseContracts extends Contract {

  private static TableSpec spec() {
    return TableSpec.builder(
            "lost", KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .build();
  }

  /** The acceptable final states of each key the workload wrote (empty: absent). */
  private static final class Model {
    final Map<Key, List<Optional<Item>>> states = new LinkedHashMap<>();
    final Set<Key> uncertain = new HashSet<>();

    /** Runs a write expected to leave {@code after} (null: absent) under each of {@code keys}. */
    void write(String what, Map<Key, Item> after, Runnable write) {
      for (Key k : after.keySet()) {
        if (uncertain.contains(k)) {
          return; // the outcome of an earlier write to this key is open: leave the key alone
        }
      }
      try {
        write.run();
        after.forEach((k, v) -> states.put(k, List.of(Optional.ofNullable(v))));
      } catch (UnavailableException e) {
        if (!e.outcomeUnknown()) {
          throw new AssertionError(
              what + " failed after one lost response, which the retry policy should absorb", e);
        }
        after.forEach(
            (k, v) -> {
              List<Optional<Item>> s =
                  new ArrayList<>(states.getOrDefault(k, List.of(Optional.empty())));
              s.add(Optional.ofNullable(v));
              states.put(k, s);
              uncertain.add(k);
            });
      }
    }

    void write(String what, Key key, Item after, Runnable write) {
      Map<Key, Item> m = new LinkedHashMap<>();
      m.put(key, after);
      write(what, m, write);
    }
  }

  private Item big(String p, long s, long seed, String... more) {
    long bytes = driver().limits().maxItemBytes() + 1024;
    Item.Builder b =
        OverflowContracts.bigItem(p, s, bytes, Math.max(bytes / 2, 1024), seed).toBuilder();
    for (int i = 0; i < more.length; i += 2) {
      b.put(more[i], Long.parseLong(more[i + 1]));
    }
    return b.build();
  }

  private static Item small(String p, long s, String name, long value) {
    return Item.builder().put("p", p).put("s", s).put(name, value).build();
  }

  /** The workload: every kind of write, each key ending in a known state. */
  private Model workload(Stowage store, Table t, String p) {
    Model m = new Model();
    Key a = Key.of(p, 1);
    Key b = Key.of(p, 2);
    Key c = Key.of(p, 3);
    Key d = Key.of(p, 4);
    m.write("put", a, small(p, 1, "v", 1), () -> t.put(small(p, 1, "v", 1)));
    m.write("overflowing put", b, big(p, 2, 1), () -> t.put(big(p, 2, 1)));
    m.write("overflowing overwrite", b, big(p, 2, 2), () -> t.put(big(p, 2, 2)));
    m.write(
        "put-if-absent",
        c,
        small(p, 3, "n", 0),
        () -> assertThat(t.putIfAbsent(small(p, 3, "n", 0))).as("put-if-absent").isTrue());
    m.write(
        "conditional overflowing put",
        c,
        big(p, 3, 3, "n", "1"),
        () -> t.put(big(p, 3, 3, "n", "1"), WriteOptions.when(Condition.eq("n", 0))));
    m.write(
        "idempotent increment",
        c,
        big(p, 3, 3, "n", "6"),
        () ->
            assertThat(
                    t.update(
                        c,
                        Update.builder().increment("n", 5).build(),
                        WriteOptions.idempotent("rq-" + p)))
                .isEqualTo(big(p, 3, 3, "n", "6")));
    m.write(
        "increment",
        a,
        small(p, 1, "v", 2),
        () ->
            assertThat(t.update(a, Update.builder().increment("v", 1).build()))
                .isEqualTo(small(p, 1, "v", 2)));
    m.write(
        "set on an overflowed item",
        b,
        big(p, 2, 2, "tag", "7"),
        () -> t.update(b, Update.builder().set("tag", 7).build()));
    m.write(
        "conditional delete",
        a,
        null,
        () ->
            assertThat(t.delete(a, WriteOptions.when(Condition.eq("v", 2))))
                .as("conditional delete")
                .isTrue());
    m.write("delete of an overflowed item", b, null, () -> t.delete(b));
    m.write("overflowing put", d, big(p, 4, 4), () -> t.put(big(p, 4, 4)));
    m.write(
        "conditional delete of an overflowed item",
        d,
        null,
        () -> assertThat(t.delete(d, WriteOptions.when(Condition.exists("p")))).isTrue());
    Key g = Key.of(p, 7);
    Key h = Key.of(p, 8);
    Map<Key, Item> batch = new LinkedHashMap<>();
    batch.put(g, small(p, 7, "y", 1));
    batch.put(h, big(p, 8, 6));
    m.write("batch put", batch, () -> t.batchPut(List.copyOf(batch.values())));
    Map<Key, Item> gone = new LinkedHashMap<>();
    gone.put(g, null);
    gone.put(h, null);
    m.write("batch delete", gone, () -> t.batchDelete(List.of(g, h)));
    if (driver().capabilities().contains(Capability.TRANSACTIONS)) {
      Key e = Key.of(p, 5);
      Key f = Key.of(p, 6);
      Map<Key, Item> after = new LinkedHashMap<>();
      after.put(e, small(p, 5, "x", 1));
      after.put(f, big(p, 6, 5));
      m.write(
          "transaction",
          after,
          () ->
              store
                  .transaction()
                  .put(t, small(p, 5, "x", 1), Condition.notExists("p"))
                  .put(t, big(p, 6, 5), null)
                  .commit());
    }
    return m;
  }

  private static void verify(Table t, Model m, String when) {
    m.states.forEach(
        (k, acceptable) -> {
          Optional<Item> now = t.get(k, ReadOptions.CONSISTENT);
          if (!acceptable.contains(now)) {
            fail(
                "%s: %s reads as %s, expected %s",
                when,
                k,
                now.map(i -> describe(i)).orElse("absent"),
                acceptable.stream().map(o -> o.map(i -> describe(i)).orElse("absent")).toList());
          }
        });
  }

  private static String describe(Item i) {
    return i.attributes().keySet().toString() + " " + i.find("n").or(() -> i.find("v"));
  }

  @Test
  void aLostDriverResponseAtAnyCallLosesNothingAndNothingHangs() {
    LostResponses faults = new LostResponses();
    String ns = kit().freshNamespace();
    Stowage store =
        Stowage.builder(faults.wrap(driver()))
            .blobStore(kit().fixture().blobStore())
            .namespace(ns)
            .build();
    loseEachResponseInTurn(faults, store, ns);
  }

  @Test
  void aLostBlobStoreResponseAtAnyCallLosesNothingAndNothingHangs() {
    LostResponses faults = new LostResponses();
    String ns = kit().freshNamespace();
    Stowage store =
        Stowage.builder(driver())
            .blobStore(faults.wrap(kit().fixture().blobStore()))
            .namespace(ns)
            .build();
    loseEachResponseInTurn(faults, store, ns);
  }

  private void loseEachResponseInTurn(LostResponses faults, Stowage store, String ns) {
    Table t = table(store, spec());
    faults.heal();
    Model clean = workload(store, t, "clean");
    int calls = faults.calls();
    verify(t, clean, "without faults");
    assertThat(clean.uncertain).isEmpty();

    List<Model> runs = new ArrayList<>();
    for (int n = 0; n < calls; n++) {
      String p = "lost" + n;
      int lose = n;
      faults.loseResponseOfCall(lose);
      Model m =
          assertTimeoutPreemptively(
              Duration.ofMinutes(1),
              () -> workload(store, t, p),
              () -> "the workload hung after losing the response of call " + lose);
      // A write left open skips the later writes to its key, so the last calls may not come.
      assertThat(faults.fired() || !m.uncertain.isEmpty()).as("call %d happened", lose).isTrue();
      faults.heal();
      verify(t, m, "after losing the response of call " + n);
      runs.add(m);
    }

    // Sweep with every blob past its grace period: only true orphans may go.
    MutableClock later = new MutableClock(Instant.now().plus(Duration.ofDays(1)));
    Table swept = kit().storeBuilder(ns).clock(later).build().ensureTable(spec());
    OverflowSweeper.Report sweep = swept.sweepOverflow(Duration.ofHours(1), false);
    assertThat(sweep.deleted()).isEqualTo(sweep.orphaned());
    for (int n = 0; n < runs.size(); n++) {
      verify(t, runs.get(n), "after the sweep, run " + n);
    }
    verify(t, clean, "after the sweep, clean run");
    OverflowSweeper.Report again = swept.sweepOverflow(Duration.ofHours(1), true);
    assertThat(again.orphaned()).as("orphans left after the sweep").isZero();
  }
}
