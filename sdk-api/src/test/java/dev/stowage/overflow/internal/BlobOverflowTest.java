package dev.stowage.overflow.internal;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static dev.stowage.overflow.Fixtures.item;
import static dev.stowage.overflow.Fixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IntegrityException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.internal.OverflowHandler.BlobMissingException;
import dev.stowage.internal.OverflowHandler.Prepared;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.FaultyBlobStore;
import dev.stowage.overflow.FaultyBlobStore.Op;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.overflow.TestLimits;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlobOverflowTest {
  private final MemoryBlobStore memory = new MemoryBlobStore();
  private final FaultyBlobStore store = new FaultyBlobStore(memory);
  private final BlobOverflow overflow = new BlobOverflow(store);
  private final DriverLimits limits = TestLimits.limits(4096, 2048, 20, 1500);

  private static Map<String, AttributeValue> attrs(Object... kv) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      Object v = kv[i + 1];
      m.put(
          (String) kv[i],
          v instanceof AttributeValue a
              ? a
              : v instanceof Bytes b ? AttributeValue.of(b) : AttributeValue.of((String) v));
    }
    return m;
  }

  @Test
  void itemThatFitsIsReturnedUnchangedWithoutBlob() {
    Item item = item("a", attrs("small", "x", "cat", "c", "rank", "1"));
    Prepared p = overflow.prepare(TABLE, SPEC, limits, item);
    assertThat(p.item()).isSameAs(item);
    assertThat(p.blobKey()).isNull();
    assertThat(memory.size()).isZero();
  }

  @Test
  void largestMovableAttributesMoveUntilTheItemFits() {
    Item item =
        item(
            "a",
            attrs(
                "big", randomBytes(2040, 1),
                "mid", randomBytes(2030, 2),
                "small", randomBytes(2020, 3),
                "cat", "category",
                "rank", "r",
                "stowage:ix:byCat:p", randomBytes(40, 4),
                "stowage:rq", AttributeValue.list(AttributeValue.of("r1"))));
    Prepared p = overflow.prepare(TABLE, SPEC, limits, item);
    assertThat(p.blobKey()).startsWith("prod/orders/").matches("prod/orders/[0-9a-f]{32}");
    assertThat(p.item().names())
        .contains(
            "pk", "sk", "cat", "rank", "stowage:ix:byCat:p", "stowage:rq", "small", "stowage:ovf")
        .doesNotContain("big", "mid");
    Pointer pointer = Pointer.parse(p.item().get("stowage:ovf"), "t");
    assertThat(pointer.names()).containsExactly("big", "mid");
    assertThat(pointer.blobKey()).isEqualTo(p.blobKey());
    assertThat(memory.get(p.blobKey()).orElseThrow()).hasSize((int) pointer.size());
    assertThat(TestLimits.SIZE_MODEL.itemBytes(p.item())).isLessThanOrEqualTo(4096);
    assertThat(overflow.restore(TABLE, p.item(), null)).isEqualTo(item);
  }

  @Test
  void encodedEnvelopesMoveByteForByte() {
    Bytes envelope = randomBytes(5000, 9);
    Item item = item("a", attrs("doc", envelope));
    Prepared p = overflow.prepare(TABLE, SPEC, limits, item);
    byte[] blob = memory.get(p.blobKey()).orElseThrow();
    // The envelope's bytes appear verbatim in the blob: nothing was decoded or re-encoded.
    assertThat(indexOf(blob, envelope.toByteArray())).isPositive();
    assertThat(overflow.restore(TABLE, p.item(), null).getBinary("doc")).isEqualTo(envelope);
  }

  @Test
  void keyIndexedAndReservedAttributesNeverMove() {
    Item item =
        item(
            "a",
            attrs(
                "cat", "c".repeat(1400),
                "rank", "r".repeat(1400),
                "stowage:rq", AttributeValue.list(AttributeValue.of("q".repeat(1000))),
                "free", randomBytes(900, 1)));
    Prepared p = overflow.prepare(TABLE, SPEC, limits, item);
    assertThat(Pointer.parse(p.item().get("stowage:ovf"), "t").names()).containsExactly("free");
  }

  @Test
  void indexedValueOverTheLimitFailsBeforeAnythingIsWritten() {
    Item item = item("a", attrs("cat", "c".repeat(1501), "free", randomBytes(9000, 1)));
    assertThatThrownBy(() -> overflow.prepare(TABLE, SPEC, limits, item))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("'cat'")
        .hasMessageContaining("1500");
    Item ix = item("a", attrs("stowage:ix:byCat:s", randomBytes(1600, 1)));
    assertThatThrownBy(() -> overflow.prepare(TABLE, SPEC, limits, ix))
        .isInstanceOf(ItemTooLargeException.class);
    assertThat(store.calls(Op.PUT)).isZero();
  }

  @Test
  void keysAndIndexedAttributesAloneTooLargeFailBeforeAnythingIsWritten() {
    DriverLimits tight = TestLimits.limits(2048, 2048, 20, 1500);
    Item item =
        item(
            "a",
            attrs("cat", "c".repeat(1200), "rank", "r".repeat(1200), "free", randomBytes(50, 1)));
    assertThatThrownBy(() -> overflow.prepare(TABLE, SPEC, tight, item))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("key, indexed and reserved attributes alone");
    assertThat(store.calls(Op.PUT)).isZero();
  }

  @Test
  void wideItemOverTheAttributeCountLimitMovesAttributes() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < 300; i++) {
      m.put("a" + i, AttributeValue.of("value-" + i));
    }
    Item item = item("wide", m);
    DriverLimits azure = TestLimits.azureLike();
    Prepared p = overflow.prepare(TABLE, SPEC, azure, item);
    assertThat(p.item().size()).isLessThanOrEqualTo(255);
    assertThat(Pointer.parse(p.item().get("stowage:ovf"), "t").names()).hasSize(48);
    assertThat(overflow.restore(TABLE, p.item(), null)).isEqualTo(item);
  }

  @Test
  void projectionWithoutMovedAttributesFetchesNoBlob() {
    Item item = item("a", attrs("big", randomBytes(5000, 1), "small", "s"));
    Prepared p = overflow.prepare(TABLE, SPEC, limits, item);
    Item partial = overflow.restore(TABLE, p.item(), Set.of("pk", "small"));
    assertThat(store.calls(Op.OPEN)).isZero();
    assertThat(partial.names()).doesNotContain("stowage:ovf", "big").contains("small");
    assertThat(overflow.restore(TABLE, p.item(), Set.of("big")).getBinary("big"))
        .isEqualTo(item.getBinary("big"));
    assertThat(store.calls(Op.OPEN)).isEqualTo(1);
  }

  @Test
  void itemWithoutPointerIsRestoredAsIs() {
    Item item = item("a", attrs("x", "y"));
    assertThat(overflow.restore(TABLE, item, null)).isSameAs(item);
  }

  @Test
  void restoreAllFetchesAPageInParallelAndKeepsOrder() {
    List<Item> originals = new ArrayList<>();
    List<Item> stored = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Item item =
          i % 3 == 0
              ? item("k" + i, attrs("x", "small"))
              : item("k" + i, attrs("big", randomBytes(6000, i)));
      originals.add(item);
      stored.add(overflow.prepare(TABLE, SPEC, limits, item).item());
    }
    assertThat(overflow.restoreAll(TABLE, stored, null)).isEqualTo(originals);
    assertThat(store.calls(Op.OPEN)).isEqualTo(8);
  }

  @Test
  void restoreAllSurfacesAMissingBlob() {
    Item a =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1)))).item();
    Prepared b =
        overflow.prepare(TABLE, SPEC, limits, item("b", attrs("big", randomBytes(6000, 2))));
    memory.delete(b.blobKey());
    assertThatThrownBy(() -> overflow.restoreAll(TABLE, List.of(a, b.item()), null))
        .isInstanceOf(BlobMissingException.class)
        .hasMessageContaining(b.blobKey());
  }

  @Test
  void tamperedBlobIsAnIntegrityError() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    byte[] blob = memory.get(p.blobKey()).orElseThrow();
    blob[blob.length - 1] ^= 1;
    memory.put(p.blobKey(), blob);
    assertThatThrownBy(() -> overflow.restore(TABLE, p.item(), null))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("SHA-256");
  }

  @Test
  void truncatedOrSwappedBlobIsAnIntegrityError() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    Prepared q =
        overflow.prepare(TABLE, SPEC, limits, item("b", attrs("big", randomBytes(6000, 2))));
    byte[] blob = memory.get(p.blobKey()).orElseThrow();
    memory.put(p.blobKey(), java.util.Arrays.copyOf(blob, blob.length - 10));
    assertThatThrownBy(() -> overflow.restore(TABLE, p.item(), null))
        .isInstanceOf(IntegrityException.class);
    memory.put(p.blobKey(), memory.get(q.blobKey()).orElseThrow());
    assertThatThrownBy(() -> overflow.restore(TABLE, p.item(), null))
        .isInstanceOf(IntegrityException.class);
  }

  @Test
  void malformedPointerIsAnIntegrityError() {
    Item bad = item("a", attrs("stowage:ovf", AttributeValue.of(Bytes.wrap(new byte[] {9, 9}))));
    assertThatThrownBy(() -> overflow.restore(TABLE, bad, null))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("version 9");
    Item notBinary = item("a", attrs("stowage:ovf", "text"));
    assertThatThrownBy(() -> overflow.restore(TABLE, notBinary, null))
        .isInstanceOf(IntegrityException.class);
  }

  @Test
  void missingBlobAsksTheCoreToReRead() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    overflow.release(TABLE, p.item());
    assertThat(memory.size()).isZero();
    assertThatThrownBy(() -> overflow.restore(TABLE, p.item(), null))
        .isInstanceOf(BlobMissingException.class);
    overflow.release(TABLE, p.item()); // releasing twice is fine
  }

  @Test
  void abandonDeletesThePreparedBlob() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    assertThat(memory.size()).isEqualTo(1);
    overflow.abandon(TABLE, p);
    assertThat(memory.size()).isZero();
    overflow.abandon(TABLE, new Prepared(item("b", attrs()), null));
  }

  @Test
  void releaseNeverDeletesAnotherTablesBlob() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    overflow.release(new TableRef("staging", "orders"), p.item());
    assertThat(memory.size()).isEqualTo(1);
    overflow.release(
        TABLE, item("x", attrs("stowage:ovf", AttributeValue.of(Bytes.wrap(new byte[] {1})))));
    assertThat(memory.size()).isEqualTo(1);
  }

  @Test
  void blobKeysAreFreshForEveryVersionAndRootNamespaceIsNamed() {
    Item item = item("a", attrs("big", randomBytes(6000, 1)));
    TableRef root = new TableRef("", "orders");
    String k1 = overflow.prepare(root, SPEC, limits, item).blobKey();
    String k2 = overflow.prepare(root, SPEC, limits, item).blobKey();
    assertThat(k1).startsWith("_root/orders/").isNotEqualTo(k2);
    assertThat(BlobKeys.tableOf(k1)).contains(root);
  }

  @Test
  void itemThatAlreadyHasAPointerIsRejected() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(6000, 1))));
    assertThatThrownBy(() -> overflow.prepare(TABLE, SPEC, limits, p.item()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pointerAttributeNameMatchesTheContract() {
    assertThat(OverflowHandler.POINTER_ATTRIBUTE).isEqualTo("stowage:ovf");
  }

  @Test
  void itemsAtOneTwoAndAHundredTimesTheItemLimit() {
    for (int factor : new int[] {1, 2, 100}) {
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      // Attributes of at most half the per-attribute limit, so each one fits on its own.
      int total = (int) limits.maxItemBytes() * factor;
      for (int i = 0; total > 0; i++) {
        int n = Math.min(total, 1000);
        m.put("part" + i, AttributeValue.of(randomBytes(n, factor * 1000L + i)));
        total -= n;
      }
      m.put("cat", AttributeValue.of("c"));
      Item item = item("x" + factor, m);
      DriverLimits wide = TestLimits.limits(4096, 2048, 100_000, 1500);
      Prepared p = overflow.prepare(TABLE, SPEC, wide, item);
      assertThat(p.blobKey()).isNotNull();
      assertThat(TestLimits.SIZE_MODEL.itemBytes(p.item())).isLessThanOrEqualTo(4096);
      assertThat(p.item().names()).contains("pk", "sk", "cat", "stowage:ovf");
      assertThat(overflow.restore(TABLE, p.item(), null)).isEqualTo(item);
      Pointer pointer = Pointer.parse(p.item().get("stowage:ovf"), "t");
      // 400 names do not fit a 2 KB attribute: the pointer then leaves them out.
      assertThat(pointer.namesListed()).isEqualTo(factor < 100);
    }
  }

  @Test
  void pointerWithoutNamesFetchesOnlyForAbsentAttributes() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < 400; i++) {
      m.put("attribute_with_a_long_name_" + i, AttributeValue.of(randomBytes(1000, i)));
    }
    m.put("cat", AttributeValue.of("c"));
    Item item = item("wide", m);
    DriverLimits wide = TestLimits.limits(4096, 2048, 100_000, 1500);
    Prepared p = overflow.prepare(TABLE, SPEC, wide, item);
    assertThat(Pointer.parse(p.item().get("stowage:ovf"), "t").namesListed()).isFalse();
    assertThat(overflow.restore(TABLE, p.item(), Set.of("cat", "pk")).names())
        .contains("cat", "pk", "sk")
        .doesNotContain("stowage:ovf");
    assertThat(store.calls(Op.OPEN)).isZero();
    // Equal sizes tie-break by name, so the first names in UTF-8 order moved.
    Item restored = overflow.restore(TABLE, p.item(), Set.of("attribute_with_a_long_name_100"));
    assertThat(restored.equals(item)).as("restored item equals the original").isTrue();
    assertThat(store.calls(Op.OPEN)).isEqualTo(1);
  }

  @Test
  void connectionDroppedMidBlobIsRetryableAndReturnsNothingUnverified() {
    Prepared p =
        overflow.prepare(TABLE, SPEC, limits, item("a", attrs("big", randomBytes(60_000, 1))));
    BlobStore dropping =
        new BlobStore() {
          @Override
          public void put(String key, java.io.InputStream data, long length) {
            memory.put(key, data, length);
          }

          @Override
          public java.util.Optional<java.io.InputStream> open(String key) {
            byte[] all = memory.get(key).orElseThrow();
            return java.util.Optional.of(
                new java.io.FilterInputStream(new java.io.ByteArrayInputStream(all)) {
                  private int served;

                  @Override
                  public int read(byte[] b, int off, int len) throws java.io.IOException {
                    if (served > 30_000) {
                      throw new java.io.IOException("connection reset");
                    }
                    int n = super.read(b, off, Math.min(len, 1000));
                    served += Math.max(n, 0);
                    return n;
                  }
                });
          }

          @Override
          public void delete(String key) {
            memory.delete(key);
          }

          @Override
          public java.util.stream.Stream<BlobInfo> list(String prefix) {
            return memory.list(prefix);
          }
        };
    assertThatThrownBy(() -> new BlobOverflow(dropping).restore(TABLE, p.item(), null))
        .isInstanceOf(dev.stowage.UnavailableException.class)
        .hasRootCauseMessage("connection reset");
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
