package dev.stowage.overflow;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static dev.stowage.overflow.Fixtures.versioned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.item.Item;
import dev.stowage.overflow.FakeCore.Crash;
import dev.stowage.overflow.FaultyBlobStore.Op;
import dev.stowage.overflow.FaultyBlobStore.When;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.spi.DriverLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crashes and failures at every step of the write protocol: afterwards the item reads back as
 * exactly its old or its new value, and a sweep after the grace period leaves no orphan blob.
 */
class FaultInjectionTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryBlobStore memory = new MemoryBlobStore(clock);
  private final FaultyBlobStore store = new FaultyBlobStore(memory);
  private final DriverLimits limits = TestLimits.limits(4096, 4096, 50, 1500);
  private final FakeCore core = new FakeCore(new BlobOverflow(store), TABLE, SPEC, limits);

  /** Old and new values: small→big, big→big, big→small overwrites all go through the protocol. */
  enum Transition {
    SMALL_TO_BIG(100, 20_000),
    BIG_TO_BIG(20_000, 30_000),
    BIG_TO_SMALL(20_000, 100);

    final int oldSize;
    final int newSize;

    Transition(int oldSize, int newSize) {
      this.oldSize = oldSize;
      this.newSize = newSize;
    }
  }

  private void assertOldOrNewAndNoOrphans(Item old, Item neu, boolean expectNew) {
    store.heal();
    Item read = core.get(old, null);
    assertThat(read).isEqualTo(expectNew ? neu : old);
    sweepAndAssertNoOrphans();
  }

  private void sweepAndAssertNoOrphans() {
    clock.advance(Duration.ofHours(2));
    OverflowSweeper.builder(store, TABLE).liveItems(core::storedItems).clock(clock).build().run();
    Set<String> referenced =
        core.storedItems()
            .map(OverflowSweeper::referencedBlob)
            .flatMap(java.util.Optional::stream)
            .collect(Collectors.toSet());
    Set<String> present = memory.list("").map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
    assertThat(present).isEqualTo(referenced);
  }

  @ParameterizedTest
  @EnumSource(Transition.class)
  void crashAfterTheBlobWrite(Transition t) {
    Item old = versioned("k", 1, t.oldSize);
    Item neu = versioned("k", 2, t.newSize);
    core.put(old, Crash.NONE);
    assertThatThrownBy(() -> core.put(neu, Crash.AFTER_BLOB_WRITE))
        .isInstanceOf(FakeCore.Crashed.class);
    assertOldOrNewAndNoOrphans(old, neu, false);
  }

  @ParameterizedTest
  @EnumSource(Transition.class)
  void itemWriteFails(Transition t) {
    Item old = versioned("k", 1, t.oldSize);
    Item neu = versioned("k", 2, t.newSize);
    core.put(old, Crash.NONE);
    assertThatThrownBy(() -> core.put(neu, Crash.ITEM_WRITE_FAILS))
        .isInstanceOf(FakeCore.ItemWriteFailed.class);
    assertThat(memory.size()).isEqualTo(t.oldSize > 4096 ? 1 : 0); // abandoned blob is gone
    assertOldOrNewAndNoOrphans(old, neu, false);
  }

  @ParameterizedTest
  @EnumSource(Transition.class)
  void crashAfterTheItemWriteBeforeTheOldBlobIsDeleted(Transition t) {
    Item old = versioned("k", 1, t.oldSize);
    Item neu = versioned("k", 2, t.newSize);
    core.put(old, Crash.NONE);
    assertThatThrownBy(() -> core.put(neu, Crash.AFTER_ITEM_WRITE))
        .isInstanceOf(FakeCore.Crashed.class);
    assertOldOrNewAndNoOrphans(old, neu, true);
  }

  @ParameterizedTest
  @EnumSource(Transition.class)
  void deletingTheOldBlobFails(Transition t) {
    Item old = versioned("k", 1, t.oldSize);
    Item neu = versioned("k", 2, t.newSize);
    core.put(old, Crash.NONE);
    store.fail(Op.DELETE, When.BEFORE, Integer.MAX_VALUE, () -> new UnavailableException("down"));
    if (t.oldSize > 4096) {
      assertThatThrownBy(() -> core.put(neu, Crash.NONE)).isInstanceOf(UnavailableException.class);
    } else {
      core.put(neu, Crash.NONE);
    }
    assertOldOrNewAndNoOrphans(old, neu, true);
  }

  @Test
  void blobStoreDownOnWriteLeavesTheOldValue() {
    Item old = versioned("k", 1, 20_000);
    Item neu = versioned("k", 2, 30_000);
    core.put(old, Crash.NONE);
    store.fail(Op.PUT, When.BEFORE, Integer.MAX_VALUE, () -> new UnavailableException("down"));
    assertThatThrownBy(() -> core.put(neu, Crash.NONE)).isInstanceOf(UnavailableException.class);
    assertOldOrNewAndNoOrphans(old, neu, false);
  }

  @Test
  void blobPutThatLandedButReportedFailureIsCleanedUp() {
    Item old = versioned("k", 1, 20_000);
    Item neu = versioned("k", 2, 30_000);
    core.put(old, Crash.NONE);
    store.fail(Op.PUT, When.AFTER, 1, () -> new UnavailableException("timeout after upload"));
    assertThatThrownBy(() -> core.put(neu, Crash.NONE)).isInstanceOf(UnavailableException.class);
    assertThat(memory.size()).isEqualTo(1); // the best-effort delete removed the landed blob
    assertOldOrNewAndNoOrphans(old, neu, false);
  }

  @Test
  void landedBlobWhoseCleanupAlsoFailsIsSwept() {
    Item old = versioned("k", 1, 20_000);
    Item neu = versioned("k", 2, 30_000);
    core.put(old, Crash.NONE);
    store.fail(Op.PUT, When.AFTER, 1, () -> new UnavailableException("timeout after upload"));
    store.fail(Op.DELETE, When.BEFORE, 1, () -> new UnavailableException("down"));
    assertThatThrownBy(() -> core.put(neu, Crash.NONE))
        .isInstanceOf(UnavailableException.class)
        .satisfies(e -> assertThat(e.getSuppressed()).hasSize(1));
    assertThat(memory.size()).isEqualTo(2);
    assertOldOrNewAndNoOrphans(old, neu, false);
  }

  @Test
  void throttledBlobStoreSurfacesARetryableErrorAndTheRetrySucceeds() {
    Item old = versioned("k", 1, 20_000);
    Item neu = versioned("k", 2, 30_000);
    core.put(old, Crash.NONE);
    Supplier<RuntimeException> throttled =
        () -> new ThrottledException("SlowDown", Duration.ofMillis(50), null);
    store.fail(Op.PUT, When.BEFORE, 1, throttled);
    assertThatThrownBy(() -> core.put(neu, Crash.NONE))
        .isInstanceOf(ThrottledException.class)
        .satisfies(e -> assertThat(((ThrottledException) e).retryable()).isTrue());
    core.put(neu, Crash.NONE); // the core's retry
    store.fail(Op.OPEN, When.BEFORE, 1, throttled);
    assertThatThrownBy(() -> core.get(neu, null)).isInstanceOf(ThrottledException.class);
    assertOldOrNewAndNoOrphans(old, neu, true);
  }

  @Test
  void blobStoreDownOnReadIsRetryableAndNeverADanglingPointer() {
    Item old = versioned("k", 1, 20_000);
    core.put(old, Crash.NONE);
    store.fail(Op.OPEN, When.BEFORE, Integer.MAX_VALUE, () -> new UnavailableException("down"));
    assertThatThrownBy(() -> core.get(old, null))
        .isInstanceOf(UnavailableException.class)
        .satisfies(e -> assertThat(((UnavailableException) e).retryable()).isTrue());
    // A projection without moved attributes still reads while the blob store is down.
    assertThat(core.get(old, Set.of("pk", "v")).getLong("v")).isEqualTo(1);
    assertOldOrNewAndNoOrphans(old, old, false);
  }

  @Test
  void deleteThenSweepLeavesNothing() {
    Item old = versioned("k", 1, 20_000);
    core.put(old, Crash.NONE);
    store.fail(Op.DELETE, When.BEFORE, 1, () -> new UnavailableException("down"));
    assertThatThrownBy(() -> core.delete(old)).isInstanceOf(UnavailableException.class);
    assertThat(core.get(old, null)).isNull();
    sweepAndAssertNoOrphans();
    assertThat(memory.size()).isZero();
  }

  @Test
  void crashesAtEveryStepOfManyWritesLeaveNoOrphans() {
    Item current = null;
    java.util.Random random = new java.util.Random(42);
    for (int version = 1; version <= 60; version++) {
      Item next = versioned("k", version, random.nextBoolean() ? 10_000 + version : 200);
      Crash crash = Crash.values()[random.nextInt(Crash.values().length)];
      Op faultOp = random.nextInt(5) == 0 ? (random.nextBoolean() ? Op.PUT : Op.DELETE) : null;
      if (faultOp != null) {
        store.fail(
            faultOp,
            random.nextBoolean() ? When.BEFORE : When.AFTER,
            1,
            () -> new UnavailableException("injected"));
      }
      boolean committed;
      try {
        core.put(next, crash);
        committed = true;
      } catch (FakeCore.Crashed e) {
        committed = crash == Crash.AFTER_ITEM_WRITE;
      } catch (FakeCore.ItemWriteFailed e) {
        committed = false;
      } catch (UnavailableException e) {
        // A blob put fails before the item write; a blob delete fails either in abandon (item
        // write failed) or in release (after the commit).
        assertThat(faultOp).isNotNull();
        committed = faultOp == Op.DELETE && crash == Crash.NONE;
      }
      store.heal();
      if (committed) {
        current = next;
      }
      assertThat(core.get(next, null)).isEqualTo(current);
    }
    sweepAndAssertNoOrphans();
  }
}
