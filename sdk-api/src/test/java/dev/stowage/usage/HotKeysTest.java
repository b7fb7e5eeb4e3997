package dev.stowage.usage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot keys and usage through a real store: a Zipf-skewed workload whose exact per-key counts the
 * test keeps, checked against the rankings with Space-Saving's error bound and memory bound.
 */
class HotKeysTest {
  private static final TableSpec EVENTS =
      TableSpec.builder("events", KeySchema.of("user", STRING, "seq", STRING))
          .index("byRegion", List.of("region"), List.of())
          .build();

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

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
      return Instant.ofEpochMilli(millis.get());
    }
  }

  private final TestClock clock = new TestClock();

  private Stowage store(UsageTracking tracking, dev.stowage.spi.StorageDriver driver) {
    return Stowage.builder(driver).clock(clock).usageTracking(tracking).build();
  }

  @Test
  void zipfWorkloadReportsTheTrueHottestKeysInOrderWithinTheErrorBound() {
    int counters = 64;
    UsageTracking tracking =
        UsageTracking.builder()
            .topK(10)
            .counters(counters)
            .slices(4)
            .window(Duration.ofMinutes(1))
            .build();
    try (Stowage store = store(tracking, MemoryDriver.create())) {
      Table events = store.ensureTable(EVENTS);
      var zipf = new dev.stowage.internal.usage.Zipf(5_000, 1.2, 11);
      Map<String, Long> exact = new HashMap<>();
      int n = 20_000;
      for (int i = 0; i < n; i++) {
        String user = "u" + zipf.next();
        exact.merge(user, 1L, Long::sum);
        events.put(Item.builder().put("user", user).put("seq", "s" + i).build());
        clock.millis.addAndGet(2); // 40 s in all: inside the one-minute window
      }
      HotKeys hot = store.usage().hotKeys("", "events").orElseThrow();
      assertThat(hot.requests()).isEqualTo(n);
      List<String> trueTop =
          exact.entrySet().stream()
              .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
              .limit(5)
              .map(Map.Entry::getKey)
              .toList();
      assertThat(hot.byRequests().subList(0, 5).stream().map(HotKey::key).toList())
          .isEqualTo(trueTop);
      for (HotKey k : hot.byRequests()) {
        long truth = exact.get(k.key());
        assertThat(truth).isBetween(k.guaranteed(), k.count());
        // Each of the 4 slices over-counts by at most its total / counters.
        assertThat(k.error()).isLessThanOrEqualTo((long) n / counters + 4);
      }
      assertThat(hot.byThrottles()).isEmpty();
      // Memory: 3 rankings (requests, bytes, throttles) × 4 slices × 64 counters, for the one
      // ranking id in use, though the workload has thousands of keys.
      assertThat(exact.size()).isGreaterThan(1_000);
      assertThat(hot.byBytes().get(0).key()).isEqualTo(trueTop.get(0));
      TableUsage u = store.usage().table("", "events").orElseThrow();
      assertThat(u.writes()).isEqualTo(n);
      assertThat(u.itemsWritten()).isEqualTo(n);
      assertThat(u.writeUnits()).isEqualTo(n); // small items: 1 WCU each
    }
  }

  @Test
  void memoryBoundHoldsWhateverTheKeySpace() {
    UsageTracking tracking = UsageTracking.builder().counters(16).topK(4).slices(2).build();
    var recorder = new dev.stowage.internal.usage.UsageRecorder(tracking, clock, "memory");
    var driver = new dev.stowage.internal.usage.UsageDriver(MemoryDriver.create(), recorder);
    try (Stowage store = Stowage.builder(driver).clock(clock).build()) {
      Table events = store.ensureTable(EVENTS);
      for (int i = 0; i < 5_000; i++) {
        events.put(
            Item.builder().put("user", "u" + i).put("seq", "s").put("region", "r" + i).build());
        clock.millis.addAndGet(37);
      }
    }
    // Two rankings (table and index), three dimensions, two slices of 16 counters at most.
    assertThat(recorder.rankings()).isEqualTo(2);
    assertThat(recorder.counters()).isLessThanOrEqualTo(2 * 3 * 2 * 16);
  }

  @Test
  void indexPartitionsAreRankedWithTheirDecodedValues() {
    try (Stowage store = store(UsageTracking.defaults(), MemoryDriver.create())) {
      Table events = store.ensureTable(EVENTS);
      for (int i = 0; i < 30; i++) {
        String region = i < 20 ? "eu-west" : i < 27 ? "us-east" : "ap-south";
        events.put(
            Item.builder().put("user", "u" + i).put("seq", "s").put("region", region).build());
      }
      for (int i = 0; i < 5; i++) {
        events.query(Query.index("byRegion").partition(AttributeValue.of("us-east")).build());
      }
      HotKeys hot = store.usage().hotKeys("", "events", "byRegion").orElseThrow();
      assertThat(hot.byRequests())
          .containsExactly(
              new HotKey("eu-west", 20, 0),
              new HotKey("us-east", 12, 0),
              new HotKey("ap-south", 3, 0));
      assertThat(hot.isTable()).isFalse();
    }
  }

  @Test
  void throttledRequestsRankTheirKeysAndCount() {
    // A driver that throttles every other put of user "hot".
    AtomicLong calls = new AtomicLong();
    var throttling =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public WriteResult put(
              TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
            if (item.getString("user").equals("hot") && calls.incrementAndGet() % 2 == 1) {
              throw new ThrottledException("throttled", null);
            }
            return super.put(table, item, expect, returnPrevious);
          }
        };
    try (Stowage store =
        Stowage.builder(throttling)
            .clock(clock)
            .retryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2)))
            .usageTracking(UsageTracking.defaults())
            .build()) {
      Table events = store.ensureTable(EVENTS);
      for (int i = 0; i < 10; i++) {
        events.put(Item.builder().put("user", "hot").put("seq", "s" + i).build());
        events.put(Item.builder().put("user", "cold" + i).put("seq", "s").build());
      }
      HotKeys hot = store.usage().hotKeys("", "events").orElseThrow();
      assertThat(hot.byThrottles()).containsExactly(new HotKey("hot", 10, 0));
      assertThat(hot.byRequests().get(0)).isEqualTo(new HotKey("hot", 20, 0));
      assertThat(store.usage().table("", "events").orElseThrow().throttled()).isEqualTo(10);
    }
  }

  @Test
  void theWindowSlidesPastOldTraffic() {
    UsageTracking tracking =
        UsageTracking.builder().window(Duration.ofSeconds(60)).slices(6).build();
    try (Stowage store = store(tracking, MemoryDriver.create())) {
      Table events = store.ensureTable(EVENTS);
      for (int i = 0; i < 50; i++) {
        events.put(Item.builder().put("user", "morning").put("seq", "s" + i).build());
      }
      clock.millis.addAndGet(90_000);
      for (int i = 0; i < 5; i++) {
        events.put(Item.builder().put("user", "noon").put("seq", "s" + i).build());
      }
      HotKeys hot = store.usage().hotKeys("", "events").orElseThrow();
      assertThat(hot.byRequests()).containsExactly(new HotKey("noon", 5, 0));
      // Usage totals do not slide: they are since the store was built.
      assertThat(store.usage().table("", "events").orElseThrow().writes()).isEqualTo(55);
      assertThat(store.usage().observed()).isEqualTo(Duration.ofSeconds(90));
    }
  }

  @Test
  void snapshotFileRoundTrips(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("usage.properties");
    try (Stowage store = store(UsageTracking.defaults(), MemoryDriver.create())) {
      Table events = store.ensureTable(EVENTS);
      events.put(Item.builder().put("user", "a,b\nc=d").put("seq", "1").put("region", "x").build());
      events.get(Key.of("a,b\nc=d", "1"));
      UsageSnapshot s = store.usage();
      s.writeTo(file);
      assertThat(UsageSnapshot.readFrom(file)).isEqualTo(s);
    }
  }

  @Test
  void usageIsOffUnlessAsked() {
    try (Stowage store = Stowage.builder(MemoryDriver.create()).build()) {
      assertThatThrownBy(store::usage).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void snapshotFileIsWrittenPeriodicallyAndOnClose(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("live.properties");
    UsageTracking tracking =
        UsageTracking.builder().snapshotFile(file, Duration.ofMillis(20)).build();
    Stowage store = store(tracking, MemoryDriver.create());
    Table events = store.ensureTable(EVENTS);
    events.put(Item.builder().put("user", "a").put("seq", "1").build());
    store.close();
    UsageSnapshot s = UsageSnapshot.readFrom(file);
    assertThat(s.table("", "events").orElseThrow().writes()).isEqualTo(1);
    assertThat(s.hotKeys("", "events").orElseThrow().byRequests().get(0).key()).isEqualTo("a");
  }
}
