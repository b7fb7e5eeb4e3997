package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.FaultyBlobStore.Op;
import dev.stowage.overflow.FaultyBlobStore.When;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.spi.TableRef;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every blob store call of a store (put, open and read, delete, list) goes through the store's
 * retry policy: transient errors before or after the call's effect are retried, a put replays the
 * whole body, a read starts over with a fresh stream, and a listing that fails part-way is listed
 * again.
 */
@Timeout(60)
class BlobStoreRetriesTest {
  private static final RetryPolicy FAST =
      new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5));
  private static final TableSpec SPEC =
      TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryBlobStore memory = new MemoryBlobStore(clock);
  private final FaultyBlobStore blobs = new FaultyBlobStore(memory);
  private final Stowage store =
      Stowage.builder(MemoryDriver.create())
          .blobStore(blobs)
          .retryPolicy(FAST)
          .clock(clock)
          .namespace("prod")
          .build();
  private final Table docs = store.ensureTable(SPEC);

  /** An item over the memory driver's 400 KB limit, so it overflows to one blob. */
  private static Item big(String id, long seed) {
    byte[] body = new byte[600_000];
    new Random(seed).nextBytes(body);
    return Item.builder().put("id", id).put("body", body).put("note", "seed " + seed).build();
  }

  /** Transient errors, each before or after the blob store call took effect. */
  enum Transient {
    UNAVAILABLE_BEFORE(When.BEFORE, () -> new UnavailableException("connection refused")),
    UNAVAILABLE_AFTER(When.AFTER, () -> new UnavailableException("timeout after the request")),
    THROTTLED_BEFORE(When.BEFORE, () -> new ThrottledException("SlowDown", null)),
    THROTTLED_AFTER(
        When.AFTER, () -> new ThrottledException("SlowDown", Duration.ofMinutes(10), null));

    final When when;
    final Supplier<RuntimeException> error;

    Transient(When when, Supplier<RuntimeException> error) {
      this.when = when;
      this.error = error;
    }
  }

  private Set<String> blobKeys() {
    return Fixtures.blobKeys(memory);
  }

  @ParameterizedTest
  @EnumSource(Transient.class)
  void aBlobPutIsRetriedWithTheWholeBody(Transient t) {
    blobs.fail(Op.PUT, t.when, 2, t.error);
    Item item = big("a", 1);
    docs.put(item);
    assertThat(blobs.calls(Op.PUT)).isEqualTo(3);
    assertThat(docs.get(Key.of("a"), ReadOptions.CONSISTENT)).contains(item);
    assertThat(blobKeys()).as("one blob, written whole").hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(Transient.class)
  void aBlobOpenIsRetried(Transient t) {
    Item item = big("a", 2);
    docs.put(item);
    blobs.fail(Op.OPEN, t.when, 2, t.error);
    assertThat(docs.get(Key.of("a"), ReadOptions.CONSISTENT)).contains(item);
    assertThat(blobs.calls(Op.OPEN)).isEqualTo(3);
    blobs.fail(Op.OPEN, t.when, 1, t.error);
    assertThat(docs.queryAll(Query.partition("a").build()).toList()).containsExactly(item);
  }

  @Test
  void aReadThatFailsPartWayStartsOverWithAFreshStream() {
    Item item = big("a", 3);
    docs.put(item);
    blobs.breakReads(2, 100_000);
    assertThat(docs.get(Key.of("a"), ReadOptions.CONSISTENT)).contains(item);
    assertThat(blobs.calls(Op.OPEN)).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(Transient.class)
  void releasingAReplacedItemsBlobIsRetried(Transient t) {
    docs.put(big("a", 4));
    blobs.fail(Op.DELETE, t.when, 2, t.error);
    Item next = big("a", 5);
    docs.put(next);
    assertThat(blobKeys()).as("the replaced item's blob is gone").hasSize(1);
    blobs.fail(Op.DELETE, t.when, 1, t.error);
    docs.delete(Key.of("a"));
    assertThat(blobKeys()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Transient.class)
  void sweepingRetriesListingAndDeleting(Transient t) {
    docs.put(big("live", 6));
    String prefix = OverflowSweeper.prefixOf(new TableRef("prod", "docs"));
    for (int i = 0; i < 5; i++) {
      memory.put(prefix + "orphan" + i, new byte[] {1, 2, 3});
    }
    clock.advance(Duration.ofHours(2));
    blobs.fail(Op.LIST, t.when, 2, t.error);
    blobs.breakListings(1, 3);
    blobs.fail(Op.DELETE, t.when, 1, t.error);
    OverflowSweeper.Report r = docs.sweepOverflow(Duration.ofHours(1), false);
    assertThat(r.listed()).as("each blob listed once").isEqualTo(6);
    assertThat(r.referenced()).isEqualTo(1);
    assertThat(r.deleted()).isEqualTo(5);
    assertThat(blobKeys()).hasSize(1);
  }

  @Test
  void aStandaloneSweeperRetriesUnderItsPolicy() {
    for (int i = 0; i < 4; i++) {
      memory.put("prod/docs/orphan" + i, new byte[] {1});
    }
    clock.advance(Duration.ofHours(2));
    blobs.breakListings(2, 1);
    blobs.fail(Op.DELETE, When.AFTER, 1, () -> new ThrottledException("SlowDown", null));
    OverflowSweeper.Report r =
        OverflowSweeper.builder(blobs, "prod/")
            .referencedKeys(Set::of)
            .clock(clock)
            .retryPolicy(FAST)
            .build()
            .run();
    assertThat(r.listed()).isEqualTo(4);
    assertThat(r.deleted()).isEqualTo(4);
    assertThat(memory.size()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transient.class)
  void droppingATableRetriesListingAndDeleting(Transient t) {
    docs.put(big("a", 7));
    docs.put(big("b", 8));
    blobs.fail(Op.LIST, t.when, 1, t.error);
    blobs.breakListings(1, 1);
    blobs.fail(Op.DELETE, t.when, 2, t.error);
    store.dropTable("docs");
    assertThat(blobKeys()).isEmpty();
  }

  @Test
  void aBlobStoreThatStaysDownFailsAfterThePolicyWithTheAttemptsInTheMessage() {
    blobs.fail(
        Op.PUT,
        When.BEFORE,
        Integer.MAX_VALUE,
        () -> new ThrottledException("SlowDown", Duration.ofMinutes(10), null));
    long start = System.nanoTime();
    ThrottledException e =
        catchThrowableOfType(ThrottledException.class, () -> docs.put(big("a", 9)));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(e.getMessage()).contains("SlowDown").contains("after 4 attempts over");
    assertThat(e.retryAfter()).contains(Duration.ofMinutes(10));
    assertThat(blobs.calls(Op.PUT)).isEqualTo(4);
    assertThat(docs.get(Key.of("a"))).isEmpty();
    assertThat(blobKeys()).isEmpty();
  }
}
