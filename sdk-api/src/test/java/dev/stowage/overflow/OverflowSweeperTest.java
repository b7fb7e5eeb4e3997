package dev.stowage.overflow;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.RetryPolicy;
import dev.stowage.ThrottledException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.FaultyBlobStore.Op;
import dev.stowage.overflow.FaultyBlobStore.When;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OverflowSweeperTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryBlobStore memory = new MemoryBlobStore(clock);
  private final BlobOverflow overflow = new BlobOverflow(memory);
  private final DriverLimits limits = TestLimits.limits(4096, 4096, 50, 1500);

  private Item stored(String pk, int seed) {
    Item item =
        Fixtures.item(pk, Map.of("big", AttributeValue.of(Fixtures.randomBytes(6000, seed))));
    return overflow.prepare(TABLE, SPEC, limits, item).item();
  }

  @Test
  void deletesOnlyUnreferencedBlobsOlderThanTheGracePeriod() {
    Item live = stored("live", 1);
    Item dead = stored("dead", 2);
    String deadKey = OverflowSweeper.referencedBlob(dead).orElseThrow();
    clock.advance(Duration.ofMinutes(90));
    Item young = stored("young", 3); // unreferenced but only just written
    String youngKey = OverflowSweeper.referencedBlob(young).orElseThrow();
    memory.put("staging/orders/00000000000000000000000000000000", new byte[1]); // other namespace

    List<OverflowSweeper.Report> progress = new ArrayList<>();
    List<String> orphans = new ArrayList<>();
    OverflowSweeper.Report r =
        OverflowSweeper.builder(memory, TABLE)
            .liveItems(() -> Stream.of(live))
            .clock(clock)
            .progress(progress::add)
            .onOrphan(b -> orphans.add(b.key()))
            .build()
            .run();

    assertThat(r.listed()).isEqualTo(3);
    assertThat(r.referenced()).isEqualTo(1);
    assertThat(r.tooYoung()).isEqualTo(1);
    assertThat(r.orphaned()).isEqualTo(1);
    assertThat(r.deleted()).isEqualTo(1);
    assertThat(r.bytesDeleted()).isPositive();
    assertThat(r.cutoff()).isEqualTo(clock.instant().minus(Duration.ofHours(1)));
    assertThat(orphans).containsExactly(deadKey);
    assertThat(progress).isNotEmpty().last().isEqualTo(r);
    assertThat(memory.get(deadKey)).isEmpty();
    assertThat(memory.get(youngKey)).isPresent();
    assertThat(memory.size()).isEqualTo(3);
    assertThat(overflow.restore(TABLE, live, null).has("big")).isTrue();
  }

  @Test
  void dryRunCountsButDeletesNothing() {
    stored("a", 1);
    stored("b", 2);
    clock.advance(Duration.ofHours(2));
    OverflowSweeper.Report r =
        OverflowSweeper.builder(memory, TABLE)
            .referencedKeys(Set::of)
            .dryRun(true)
            .clock(clock)
            .build()
            .run();
    assertThat(r.dryRun()).isTrue();
    assertThat(r.orphaned()).isEqualTo(2);
    assertThat(r.deleted()).isZero();
    assertThat(memory.size()).isEqualTo(2);
  }

  @Test
  void referencedKeysAndCustomGracePeriodAndBatches() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      keys.add(OverflowSweeper.referencedBlob(stored("k" + i, i)).orElseThrow());
    }
    clock.advance(Duration.ofMinutes(11));
    List<OverflowSweeper.Report> progress = new ArrayList<>();
    OverflowSweeper.Report r =
        OverflowSweeper.builder(memory, "prod/")
            .referencedKeys(() -> Set.of(keys.get(0)))
            .gracePeriod(Duration.ofMinutes(10))
            .deleteBatchSize(2)
            .progress(progress::add)
            .clock(clock)
            .build()
            .run();
    assertThat(r.deleted()).isEqualTo(6);
    assertThat(memory.list("").map(BlobStore.BlobInfo::key)).containsExactly(keys.get(0));
    assertThat(progress).extracting(OverflowSweeper.Report::deleted).contains(2L, 4L, 6L);
  }

  @Test
  void storeErrorsPropagateAndARerunFinishesTheJob() {
    for (int i = 0; i < 3; i++) {
      stored("k" + i, i);
    }
    clock.advance(Duration.ofHours(2));
    FaultyBlobStore faulty =
        new FaultyBlobStore(memory)
            .fail(Op.DELETE, When.BEFORE, 1, () -> new ThrottledException("slow down", null));
    OverflowSweeper sweeper =
        OverflowSweeper.builder(faulty, TABLE)
            .referencedKeys(Set::of)
            .clock(clock)
            .retryPolicy(RetryPolicy.NONE)
            .build();
    assertThatThrownBy(sweeper::run).isInstanceOf(ThrottledException.class);
    assertThat(sweeper.run().deleted()).isEqualTo(3);
    assertThat(memory.size()).isZero();
  }

  @Test
  void needsAReferenceSource() {
    assertThatThrownBy(() -> OverflowSweeper.builder(memory, TABLE).build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(
            () -> OverflowSweeper.builder(memory, TABLE).gracePeriod(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void prefixesOfTablesAreDisjoint() {
    assertThat(OverflowSweeper.prefixOf(new TableRef("", "orders"))).isEqualTo("_root/orders/");
    assertThat(OverflowSweeper.prefixOf(new TableRef("prod", "orders"))).isEqualTo("prod/orders/");
    assertThat(OverflowSweeper.prefixOf(new TableRef("prod", "orders-x")))
        .doesNotStartWith(OverflowSweeper.prefixOf(TABLE));
    assertThat(OverflowSweeper.referencedBlob(Fixtures.item("x", Map.of()))).isEmpty();
  }
}
