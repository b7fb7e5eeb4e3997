package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An unconditional put on a driver that learns the replaced item from a read just before the write
 * (as Datastore and Azure Tables do, see {@link dev.stowage.spi.StorageDriver#put}), not
 * atomically: replaced blobs are released at once in the ordinary case, and a write landing between
 * the read and the write, or a lost response, loses nothing and leaves at most an unreferenced
 * blob, which the sweeper collects.
 */
class ReadBeforeWritePutTest {
  private static final TableSpec SPEC =
      TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();
  private static final Key KEY = Key.of("doc");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryBlobStore blobs = new MemoryBlobStore(clock);
  private final MemoryDriver memory = MemoryDriver.create();
  private final ReadThenWrite driver = new ReadThenWrite(memory);
  private final Table docs = store(driver).ensureTable(SPEC);

  /** Another writer on the same data, straight on the in-memory driver. */
  private final Table other = store(memory).ensureTable(SPEC);

  private Stowage store(dev.stowage.spi.StorageDriver d) {
    return Stowage.builder(d)
        .blobStore(blobs)
        .clock(clock)
        .namespace("prod")
        .retryPolicy(new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5)))
        .build();
  }

  /** An item over the in-memory driver's 400 KB limit (it overflows), or a small one. */
  private static Item doc(long version, boolean big) {
    byte[] body = new byte[big ? 600_000 : 100];
    new Random(version).nextBytes(body);
    return Item.builder().put("id", "doc").put("body", body).put("v", version).build();
  }

  @Test
  void replacedBlobsAreReleasedAtOnceWithoutATransaction() {
    boolean[] sizes = {true, true, false, true, false, false, true};
    for (int v = 0; v < sizes.length; v++) {
      docs.put(doc(v, sizes[v]));
      assertThat(docs.get(KEY)).contains(doc(v, sizes[v]));
      assertThat(blobKeys()).as("version %d", v).isEqualTo(referenced());
    }
    assertThat(driver.readsBeforeWrites).isEqualTo(sizes.length);
  }

  @Test
  void aWriteLandingBetweenTheReadAndTheWriteLosesNothing() {
    docs.put(doc(1, true));
    driver.between = () -> other.put(doc(2, true));
    docs.put(doc(3, true));
    assertThat(docs.get(KEY)).contains(doc(3, true));
    assertThat(other.get(KEY)).contains(doc(3, true));
    // Version 2's blob was replaced by a put that did not see it: only the sweeper knows it.
    assertThat(blobKeys()).hasSize(2).containsAll(referenced());
    assertSweptToReferenced();
    assertThat(docs.get(KEY)).contains(doc(3, true));
  }

  @Test
  void aLostResponseKeepsTheLandedBlobAndTheSweeperTakesTheRest() {
    docs.put(doc(1, true));
    driver.loseNextResponse = true;
    docs.put(doc(2, true));
    assertThat(docs.get(KEY)).contains(doc(2, true));
    assertThat(blobKeys()).containsAll(referenced());
    assertSweptToReferenced();
    assertThat(docs.get(KEY)).contains(doc(2, true));
  }

  private void assertSweptToReferenced() {
    clock.advance(Duration.ofHours(2));
    docs.sweepOverflow(Duration.ofHours(1), false);
    assertThat(blobKeys()).isEqualTo(referenced());
  }

  private Set<String> blobKeys() {
    return Fixtures.blobKeys(blobs);
  }

  private Set<String> referenced() {
    return Fixtures.referencedBlobs(memory, new TableRef("prod", "docs"), SPEC.keySchema(), KEY);
  }

  /**
   * Puts with {@link Expectation#ANY} read the stored item, then write without a condition, and
   * return what they read as the previous item.
   */
  private static final class ReadThenWrite extends ForwardingDriver {
    Runnable between;
    boolean loseNextResponse;
    int readsBeforeWrites;

    ReadThenWrite(MemoryDriver delegate) {
      super(delegate);
    }

    @Override
    public WriteResult put(
        TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
      if (!(expect instanceof Expectation.Any) || !returnPrevious) {
        return delegate.put(table, item, expect, returnPrevious);
      }
      readsBeforeWrites++;
      Optional<StoredItem> read = delegate.get(table, table.keySchema().keyOf(item), true);
      if (between != null) {
        Runnable r = between;
        between = null;
        r.run();
      }
      WriteResult written = delegate.put(table, item, expect, false);
      if (loseNextResponse) {
        loseNextResponse = false;
        throw new UnavailableException("response lost after the write landed");
      }
      return new WriteResult(read, written.token());
    }
  }
}
