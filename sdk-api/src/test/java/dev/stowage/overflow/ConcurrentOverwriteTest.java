package dev.stowage.overflow;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static dev.stowage.overflow.Fixtures.versioned;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.Item;
import dev.stowage.overflow.FakeCore.Crash;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.spi.DriverLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Writers overwrite one key while readers read it: readers only ever see complete versions (a
 * missing blob makes them re-read the item, never fail), and no blob is left over at the end.
 */
class ConcurrentOverwriteTest {
  @Test
  void writersAndReadersOnOneKey() throws Exception {
    MemoryBlobStore memory = new MemoryBlobStore();
    DriverLimits limits = TestLimits.limits(4096, 4096, 50, 1500);
    FakeCore core = new FakeCore(new BlobOverflow(memory), TABLE, SPEC, limits);
    Map<Long, Item> written = new ConcurrentHashMap<>();
    Item first = versioned("hot", 0, 9000);
    written.put(0L, first);
    core.put(first, Crash.NONE);

    AtomicInteger nextVersion = new AtomicInteger(1);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  while (!stop.get()) {
                    int v = nextVersion.getAndIncrement();
                    // Alternate big (overflowing) and small versions.
                    Item item = versioned("hot", v, v % 3 == 0 ? 300 : 8000 + v % 500);
                    written.put((long) v, item);
                    core.put(item, Crash.NONE);
                  }
                  return null;
                }));
      }
      for (int r = 0; r < 4; r++) {
        boolean projected = r == 3;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  while (!stop.get()) {
                    Item read = core.get(first, projected ? Set.of("v", "payload") : null);
                    long v = read.getLong("v");
                    Item expected = written.get(v);
                    assertThat(expected).isNotNull();
                    if (projected) {
                      assertThat(read.getBinary("payload"))
                          .isEqualTo(expected.getBinary("payload"));
                    } else {
                      assertThat(read).isEqualTo(expected);
                    }
                    reads.incrementAndGet();
                  }
                  return null;
                }));
      }
      start.countDown();
      Thread.sleep(Duration.ofSeconds(2).toMillis());
      stop.set(true);
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(reads.get()).isGreaterThan(100);
    assertThat(nextVersion.get()).isGreaterThan(50);
    // Every replaced blob was released: only the current item's blob (if it overflowed) remains.
    long expectedBlobs = core.storedItems().filter(i -> i.has("stowage:ovf")).count();
    assertThat((long) memory.size()).isEqualTo(expectedBlobs);
  }
}
