package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.ConditionFailedException;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A conditional write whose request the client below the driver sent twice (an SDK's own retry
 * after a lost response, on a client the application configured): the first attempt landed, the
 * second failed its condition on the first one's effect. The core must not take that failure for a
 * write that certainly did not happen: the landed item's overflow blob stays, and the item reads
 * back whole.
 */
class RetriedUnderTheDriverTest {
  private static final TableSpec SPEC =
      TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();
  private static final Key KEY = Key.of("doc");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryBlobStore blobs = new MemoryBlobStore(clock);
  private final MemoryDriver memory = MemoryDriver.create();
  private final SentTwice driver = new SentTwice(memory);
  private final Stowage store =
      Stowage.builder(driver)
          .blobStore(blobs)
          .clock(clock)
          .namespace("prod")
          .retryPolicy(new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5)))
          .build();
  private final Table docs = store.ensureTable(SPEC);

  /** An item over the in-memory driver's 400 KB limit (it overflows), or a small one. */
  private static Item doc(long version, boolean big) {
    byte[] body = new byte[big ? 600_000 : 100];
    new Random(version).nextBytes(body);
    return Item.builder().put("id", "doc").put("body", body).put("v", version).build();
  }

  @Test
  void aConditionalPutSentTwiceKeepsTheBlobOfTheVersionThatLanded() {
    docs.put(doc(1, true));
    driver.sendNextConditionalPutTwice = true;
    docs.put(doc(2, true), WriteOptions.when(Condition.exists("id")));
    assertThat(driver.sentTwice).as("the put was sent twice").isTrue();
    assertThat(docs.get(KEY)).contains(doc(2, true));
    assertThat(blobKeys()).containsAll(referenced());
  }

  @Test
  void aConditionalCreateSentTwiceKeepsTheBlobOfTheItemItCreated() {
    driver.sendNextConditionalPutTwice = true;
    assertThat(docs.putIfAbsent(doc(1, true))).isTrue();
    assertThat(driver.sentTwice).as("the put was sent twice").isTrue();
    assertThat(docs.get(KEY)).contains(doc(1, true));
    assertThat(blobKeys()).containsAll(referenced());
  }

  @Test
  void anUpdateSentTwiceKeepsTheBlobOfTheVersionThatLanded() {
    docs.put(doc(1, true));
    driver.sendNextConditionalPutTwice = true;
    docs.update(KEY, Update.builder().set("v", dev.stowage.item.AttributeValue.of(7)).build());
    assertThat(driver.sentTwice).as("the put was sent twice").isTrue();
    assertThat(docs.get(KEY).orElseThrow().get("v"))
        .isEqualTo(dev.stowage.item.AttributeValue.of(7));
    assertThat(blobKeys()).containsAll(referenced());
  }

  @Test
  void aTransactionSentTwiceKeepsTheBlobsOfTheVersionsThatLanded() {
    docs.put(doc(1, true));
    driver.sendNextTransactionTwice = true;
    store.transaction().put(docs, doc(2, true), null).commit();
    assertThat(driver.sentTwice).as("the transaction was sent twice").isTrue();
    assertThat(docs.get(KEY)).contains(doc(2, true));
    assertThat(blobKeys()).containsAll(referenced());
  }

  private Set<String> blobKeys() {
    return Fixtures.blobKeys(blobs);
  }

  private Set<String> referenced() {
    return Fixtures.referencedBlobs(memory, new TableRef("prod", "docs"), SPEC.keySchema(), KEY);
  }

  /**
   * Sends the next conditional put twice, as a client retrying on its own after a lost response
   * would: the second attempt's condition fails on the first one's effect, and that failure is what
   * the driver reports.
   */
  private static final class SentTwice extends ForwardingDriver {
    volatile boolean sendNextConditionalPutTwice;
    volatile boolean sendNextTransactionTwice;
    volatile boolean sentTwice;

    SentTwice(MemoryDriver delegate) {
      super(delegate);
    }

    @Override
    public WriteResult put(
        TableLayout table, dev.stowage.item.Item item, Expectation expect, boolean previous) {
      if (sendNextConditionalPutTwice && !(expect instanceof Expectation.Any)) {
        sendNextConditionalPutTwice = false;
        delegate.put(table, item, expect, previous); // landed; its response lost
        sentTwice = true;
        try {
          return delegate.put(table, item, expect, previous);
        } catch (ConditionFailedException e) {
          throw e;
        }
      }
      return delegate.put(table, item, expect, previous);
    }

    @Override
    public void transactWrite(
        java.util.List<TableLayout> layouts, java.util.List<dev.stowage.spi.TxOp> ops) {
      if (sendNextTransactionTwice) {
        sendNextTransactionTwice = false;
        delegate.transactWrite(layouts, ops); // landed; its response lost
        sentTwice = true;
      }
      delegate.transactWrite(layouts, ops);
    }
  }
}
