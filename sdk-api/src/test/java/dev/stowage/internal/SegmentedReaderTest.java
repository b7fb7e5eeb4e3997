package dev.stowage.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.Capability;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SegmentedReaderTest {
  private static final TableLayout LAYOUT =
      new TableLayout(
          new TableRef("", "things"),
          KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER),
          List.of());

  private static List<Item> fill(MemoryDriver d, int n) {
    d.ensureTable(LAYOUT);
    List<Item> items = new ArrayList<>();
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Item it = Item.builder().put("p", "p" + (i % 13)).put("s", i).build();
      items.add(it);
      ops.add(new WriteOp.Put(LAYOUT.keySchema().keyOf(it), it));
    }
    for (int i = 0; i < ops.size(); i += 25) {
      d.batchWrite(LAYOUT, ops.subList(i, Math.min(ops.size(), i + 25)));
    }
    return items;
  }

  private static Retrier retrier() {
    return new Retrier(RetryPolicy.NONE, new Metrics());
  }

  @Test
  void readsEveryItemOnceFromSeveralSegmentsOnSeveralThreads() {
    MemoryDriver memory = MemoryDriver.create();
    List<Item> items = fill(memory, 2345);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    ForwardingDriver watched =
        new ForwardingDriver(memory) {
          @Override
          public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
            threads.add(Thread.currentThread().getName() + Thread.currentThread().getId());
            return delegate.scanSegment(table, scan);
          }
        };
    try (Stream<StoredItem> s = SegmentedReader.items(watched, LAYOUT, retrier(), 4)) {
      List<Item> seen = s.map(StoredItem::item).toList();
      assertThat(seen).hasSize(items.size()).containsExactlyInAnyOrderElementsOf(items);
    }
    assertThat(threads).hasSizeGreaterThan(1);
  }

  @Test
  void aDriverWithoutSegmentsIsScannedInOrder() {
    MemoryDriver plain = MemoryDriver.builder().without(Capability.SEGMENTED_SCANS).build();
    List<Item> items = fill(plain, 1200);
    try (Stream<StoredItem> s = SegmentedReader.items(plain, LAYOUT, retrier(), 4)) {
      assertThat(s.map(StoredItem::item).toList()).containsExactlyInAnyOrderElementsOf(items);
    }
  }

  @Test
  void aReadersFailureReachesTheConsumer() {
    MemoryDriver memory = MemoryDriver.create();
    fill(memory, 3000);
    ForwardingDriver failing =
        new ForwardingDriver(memory) {
          @Override
          public SegmentPage scanSegment(TableLayout table, SegmentScan scan) {
            if (scan.segment().number() == 2 && scan.checkpoint() != null) {
              throw new UnavailableException("segment 2 is down", null);
            }
            return delegate.scanSegment(table, scan);
          }
        };
    assertThatThrownBy(
            () -> {
              try (Stream<StoredItem> s = SegmentedReader.items(failing, LAYOUT, retrier(), 3)) {
                s.count();
              }
            })
        .isInstanceOf(UnavailableException.class)
        .hasMessageContaining("segment 2 is down");
  }
}
