package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.Capability;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Segmented scans ({@link dev.stowage.spi.StorageDriver#segments}, {@link
 * dev.stowage.spi.StorageDriver#scanSegment}), called on the driver: the segments of a plan return
 * every item exactly once for 1, 3 and 16 segments (more segments than items, an empty table, the
 * items of an index), a segment resumes from any page's checkpoint, and writes made while a scan
 * runs behave as the SPI documents. A backend without segmented scans must refuse with {@link
 * dev.stowage.UnsupportedCapabilityException}; the kit reports its reason.
 */
abstract class SegmentedScanContracts extends Contract {
  private static final int[] PLANS = {1, 3, 16};
  private static final String INDEX = "byg";

  private final List<TableRef> created = new ArrayList<>();

  @AfterEach
  final void dropSegmentTables() {
    created.forEach(driver()::dropTable);
    created.clear();
  }

  private TableLayout layout(String name, boolean sorted) {
    KeySchema keys =
        sorted
            ? KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER)
            : KeySchema.of("p", AttributeType.STRING);
    IndexLayout byGroup = IndexLayout.of(IndexSpec.of(INDEX, List.of("g"), List.of("v")));
    TableLayout l = new TableLayout(new TableRef(store.namespace(), name), keys, List.of(byGroup));
    driver().ensureTable(l);
    created.add(l.ref());
    return l;
  }

  /** An item; every third one is in the index (it carries the index's two attributes). */
  private static Item item(TableLayout l, int i, String v) {
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    if (l.keySchema().hasSort()) {
      a.put("p", AttributeValue.of("part-" + (i % 23)));
      a.put("s", AttributeValue.of(i));
    } else {
      a.put("p", AttributeValue.of("item-" + i));
    }
    a.put("v", AttributeValue.of(v));
    if (i % 3 == 0) {
      IndexLayout ix = l.index(INDEX).orElseThrow();
      a.put(ix.partitionAttribute(), AttributeValue.of(Bytes.of(new byte[] {1, (byte) (i % 5)})));
      a.put(
          ix.sortAttribute(),
          AttributeValue.of(Bytes.of(new byte[] {2, (byte) (i >> 8), (byte) i})));
    }
    return StoredItems.of(a);
  }

  private void load(TableLayout l, List<Item> items) {
    List<WriteOp> ops = new ArrayList<>();
    for (Item it : items) {
      ops.add(new WriteOp.Put(l.keySchema().keyOf(it), it));
    }
    write(l, ops);
  }

  private void write(TableLayout l, List<WriteOp> ops) {
    int chunk = driver().limits().maxBatchWrite();
    for (int from = 0; from < ops.size(); from += chunk) {
      List<WriteOp> batch = ops.subList(from, Math.min(ops.size(), from + chunk));
      for (int attempt = 0; !batch.isEmpty(); attempt++) {
        assertThat(attempt).as("batch writes make progress").isLessThan(50);
        BatchWriteResult r = driver().batchWrite(l, batch);
        batch = r.unprocessed();
      }
    }
  }

  private List<Item> items(TableLayout l, int count) {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(item(l, i, "v" + i));
    }
    return items;
  }

  /** Reads a whole segment page by page, checking each page's shape. */
  private List<StoredItem> readSegment(TableLayout l, ScanSegment s, int pageSize) {
    List<StoredItem> out = new ArrayList<>();
    String checkpoint = null;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("%s terminates", s).isLessThan(10_000);
      SegmentPage p = driver().scanSegment(l, new SegmentScan(s, pageSize, checkpoint, true));
      assertThat(p.items().size())
          .as("a page holds at most its limit")
          .isLessThanOrEqualTo(pageSize);
      out.addAll(p.items());
      if (p.done()) {
        return out;
      }
      checkpoint = p.checkpoint();
    }
  }

  /** Every segment of a fresh plan, read one after the other. */
  private Map<Integer, List<StoredItem>> readPlan(
      TableLayout l, String index, int total, int pageSize) {
    List<ScanSegment> plan = driver().segments(l, index, total);
    assertPlan(plan, index, total);
    Map<Integer, List<StoredItem>> out = new HashMap<>();
    for (ScanSegment s : plan) {
      out.put(s.number(), readSegment(l, s, pageSize));
    }
    return out;
  }

  private static void assertPlan(List<ScanSegment> plan, String index, int total) {
    assertThat(plan).as("a plan has exactly the segments asked for").hasSize(total);
    for (int i = 0; i < total; i++) {
      assertThat(plan.get(i).number()).isEqualTo(i);
      assertThat(plan.get(i).total()).isEqualTo(total);
      assertThat(plan.get(i).index()).isEqualTo(index);
    }
  }

  private static List<Item> all(Map<Integer, List<StoredItem>> bySegment) {
    List<Item> out = new ArrayList<>();
    bySegment.values().forEach(items -> items.forEach(s -> out.add(s.item())));
    return out;
  }

  private void assertExactlyOnce(List<Item> seen, List<Item> expected, String what) {
    assertThat(new HashSet<>(seen)).as("%s: no item twice", what).hasSize(seen.size());
    assertThat(seen).as(what).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void theSegmentsOfAPlanHoldEveryItemExactlyOnce() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segall", true);
          List<Item> items = items(l, 300);
          load(l, items);
          for (int total : PLANS) {
            Map<Integer, List<StoredItem>> seen = readPlan(l, null, total, 17);
            assertExactlyOnce(all(seen), items, total + " segments");
            if (total == 3) {
              long nonEmpty = seen.values().stream().filter(s -> !s.isEmpty()).count();
              assertThat(nonEmpty)
                  .as("300 items spread over more than one of 3 segments")
                  .isGreaterThan(1);
            }
          }
        });
  }

  @Test
  void morePlannedSegmentsThanItemsLeaveSomeEmpty() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segfew", false);
          List<Item> items = items(l, 5);
          load(l, items);
          for (int total : PLANS) {
            assertExactlyOnce(all(readPlan(l, null, total, 2)), items, total + " segments");
          }
        });
  }

  @Test
  void anEmptyTableHasEmptySegmentsThatStillCoverItemsWrittenLater() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segempty", true);
          for (int total : PLANS) {
            Map<Integer, List<StoredItem>> seen = readPlan(l, null, total, 10);
            assertThat(all(seen)).as("%d segments of an empty table", total).isEmpty();
            assertThat(readPlan(l, INDEX, total, 10).values()).allMatch(List::isEmpty);
          }
          // A plan made on the empty table stays valid: items written afterwards fall into
          // exactly one of its segments.
          List<ScanSegment> plan = driver().segments(l, null, 16);
          List<Item> items = items(l, 40);
          load(l, items);
          List<Item> seen = new ArrayList<>();
          for (ScanSegment s : plan) {
            readSegment(l, s, 7).forEach(x -> seen.add(x.item()));
          }
          assertExactlyOnce(seen, items, "items written after an empty table was planned");
        });
  }

  @Test
  void indexSegmentsHoldEveryItemInTheIndexExactlyOnce() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segindex", true);
          List<Item> items = items(l, 300);
          load(l, items);
          IndexLayout ix = l.index(INDEX).orElseThrow();
          List<Item> indexed =
              items.stream().filter(i -> i.find(ix.partitionAttribute()).isPresent()).toList();
          for (int total : PLANS) {
            assertExactlyOnce(
                all(readPlan(l, INDEX, total, 13)), indexed, total + " index segments");
          }
        });
  }

  @Test
  void aSegmentResumesFromAnyPagesCheckpoint() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segresume", true);
          List<Item> items = items(l, 120);
          load(l, items);
          for (String index : new String[] {null, INDEX}) {
            for (ScanSegment s : driver().segments(l, index, 3)) {
              List<String> checkpoints = new ArrayList<>();
              List<List<Item>> pages = new ArrayList<>();
              String checkpoint = null;
              while (true) {
                SegmentPage p = driver().scanSegment(l, new SegmentScan(s, 6, checkpoint, true));
                pages.add(p.items().stream().map(StoredItem::item).toList());
                if (p.done()) {
                  break;
                }
                checkpoint = p.checkpoint();
                checkpoints.add(checkpoint);
              }
              List<Item> whole = pages.stream().flatMap(List::stream).toList();
              // Resume from the middle page's checkpoint, as another process would after a crash
              // (a segment travels as its fields, a checkpoint as its string).
              if (!checkpoints.isEmpty()) {
                int k = checkpoints.size() / 2;
                ScanSegment copy = new ScanSegment(s.index(), s.number(), s.total(), s.bounds());
                List<Item> rest = new ArrayList<>();
                for (StoredItem x : readFrom(l, copy, checkpoints.get(k), 4)) {
                  rest.add(x.item());
                }
                int before = 0;
                for (int p = 0; p <= k; p++) {
                  before += pages.get(p).size();
                }
                assertThat(rest)
                    .as("%s resumed after page %d", s, k)
                    .containsExactlyInAnyOrderElementsOf(whole.subList(before, whole.size()));
              }
            }
          }
        });
  }

  /**
   * {@link dev.stowage.spi.StorageDriver#splitSegment}: a segment cut inside after 0 or 2 pages, at
   * fractions 0.1, 0.5 and 0.9 (its residual cut again after one page), still returns every item of
   * the table or the index exactly once; a table segment's primary keeps at least the first key
   * after the checkpoint and its residual at least one key. A driver whose segments cannot be cut
   * (DynamoDB's parallel scan) answers empty everywhere: the contract is then reported as aborted,
   * not passed.
   */
  @Test
  void aSegmentCutInsideStillHoldsEveryItemExactlyOnce() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segcut", true);
          List<Item> items = items(l, 200);
          load(l, items);
          IndexLayout ix = l.index(INDEX).orElseThrow();
          ScanSegment whole = driver().segments(l, null, 1).get(0);
          for (double bad : new double[] {0, 1, -0.5, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> driver().splitSegment(l, whole, null, bad))
                .as("fraction %s", bad)
                .isInstanceOf(IllegalArgumentException.class);
          }
          boolean cut = false;
          for (String index : new String[] {null, INDEX}) {
            List<Item> expected =
                index == null
                    ? items
                    : items.stream()
                        .filter(i -> i.find(ix.partitionAttribute()).isPresent())
                        .toList();
            for (int total : new int[] {1, 3}) {
              List<ScanSegment> plan = driver().segments(l, index, total);
              for (double fraction : new double[] {0.1, 0.5, 0.9}) {
                for (int before : new int[] {0, 2}) {
                  String what =
                      (index == null ? "table" : "index")
                          + ", "
                          + total
                          + " segments, cut at "
                          + fraction
                          + " after "
                          + before
                          + " pages";
                  List<Item> seen = new ArrayList<>();
                  for (ScanSegment s : plan) {
                    cut |= readCutting(l, s, before, fraction, index == null, seen, what);
                  }
                  assertExactlyOnce(seen, expected, what);
                }
              }
            }
          }
          if (!cut) {
            throw new org.opentest4j.TestAbortedException(
                "driver '"
                    + driver().name()
                    + "' cannot cut its segments inside (splitSegment"
                    + " answered empty throughout)");
          }
        });
  }

  /**
   * Reads {@code s} with a cut after {@code before} pages, the residual cut again after its first
   * page, adding every item to {@code seen}.
   *
   * @return whether the driver cut the segment
   */
  private boolean readCutting(
      TableLayout l,
      ScanSegment s,
      int before,
      double fraction,
      boolean table,
      List<Item> seen,
      String what) {
    String checkpoint = null;
    for (int p = 0; p < before; p++) {
      SegmentPage page = driver().scanSegment(l, new SegmentScan(s, 7, checkpoint, true));
      page.items().forEach(x -> seen.add(x.item()));
      if (page.done()) {
        return false;
      }
      checkpoint = page.checkpoint();
    }
    var split = driver().splitSegment(l, s, checkpoint, fraction);
    if (split.isEmpty()) {
      readFrom(l, s, checkpoint, 5).forEach(x -> seen.add(x.item()));
      return false;
    }
    ScanSegment primary = split.get().primary();
    ScanSegment residual = split.get().residual();
    for (ScanSegment part : List.of(primary, residual)) {
      assertThat(List.of(part.index() == null ? "" : part.index(), part.number(), part.total()))
          .as("%s: a part of %s belongs to the same plan", what, s)
          .isEqualTo(List.of(s.index() == null ? "" : s.index(), s.number(), s.total()));
    }
    // Parts travel as their fields, as a Beam restriction carries them.
    primary = new ScanSegment(primary.index(), primary.number(), primary.total(), primary.bounds());
    List<StoredItem> kept = readFrom(l, primary, checkpoint, 5);
    kept.forEach(x -> seen.add(x.item()));
    SegmentPage first = driver().scanSegment(l, new SegmentScan(residual, 5, null, true));
    first.items().forEach(x -> seen.add(x.item()));
    int rest = first.items().size();
    if (!first.done()) {
      var again = driver().splitSegment(l, residual, first.checkpoint(), 0.5);
      List<StoredItem> more = new ArrayList<>();
      if (again.isPresent()) {
        more.addAll(readFrom(l, again.get().primary(), first.checkpoint(), 5));
        more.addAll(readFrom(l, again.get().residual(), null, 5));
      } else {
        more.addAll(readFrom(l, residual, first.checkpoint(), 5));
      }
      more.forEach(x -> seen.add(x.item()));
      rest += more.size();
    }
    if (table) {
      assertThat(kept)
          .as("%s: the primary keeps the first key after the checkpoint", what)
          .isNotEmpty();
      assertThat(rest).as("%s: the residual holds a key", what).isPositive();
    }
    return true;
  }

  private List<StoredItem> readFrom(TableLayout l, ScanSegment s, String checkpoint, int size) {
    List<StoredItem> out = new ArrayList<>();
    while (true) {
      SegmentPage p = driver().scanSegment(l, new SegmentScan(s, size, checkpoint, true));
      out.addAll(p.items());
      if (p.done()) {
        return out;
      }
      checkpoint = p.checkpoint();
    }
  }

  /**
   * While the segments are read in parallel, another thread rewrites, deletes and adds items. As
   * documented on {@code StorageDriver.segments}: items not written meanwhile come back exactly
   * once; in table segments no item comes back twice (a rewritten one in its old or new version),
   * and none that never existed appears.
   */
  @Test
  void writesDuringAScanBehaveAsDocumented() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segwrites", true);
          List<Item> items = items(l, 240);
          load(l, items);
          List<ScanSegment> plan = driver().segments(l, null, 3);
          List<ScanSegment> indexPlan = driver().segments(l, INDEX, 3);
          ExecutorService pool = Executors.newFixedThreadPool(4);
          try {
            Future<?> writer =
                pool.submit(
                    () -> {
                      List<WriteOp> ops = new ArrayList<>();
                      for (int i = 0; i < 240; i += 4) {
                        ops.add(
                            new WriteOp.Put(
                                l.keySchema().keyOf(items.get(i)), item(l, i, "rewritten")));
                        ops.add(new WriteOp.Delete(l.keySchema().keyOf(items.get(i + 1))));
                        Item added = item(l, 1000 + i, "added");
                        ops.add(new WriteOp.Put(l.keySchema().keyOf(added), added));
                      }
                      write(l, ops);
                    });
            List<Future<List<StoredItem>>> readers = new ArrayList<>();
            for (ScanSegment s : plan) {
              readers.add(pool.submit(() -> readSegment(l, s, 5)));
            }
            List<Future<List<StoredItem>>> indexReaders = new ArrayList<>();
            for (ScanSegment s : indexPlan) {
              indexReaders.add(pool.submit(() -> readSegment(l, s, 5)));
            }
            writer.get(5, TimeUnit.MINUTES);
            List<Item> seen = new ArrayList<>();
            for (Future<List<StoredItem>> r : readers) {
              r.get(5, TimeUnit.MINUTES).forEach(x -> seen.add(x.item()));
            }
            List<Item> seenInIndex = new ArrayList<>();
            for (Future<List<StoredItem>> r : indexReaders) {
              r.get(5, TimeUnit.MINUTES).forEach(x -> seenInIndex.add(x.item()));
            }
            for (int i = 0; i < 240; i += 3) {
              if (i % 4 == 2 || i % 4 == 3) {
                Item untouched = items.get(i);
                assertThat(seenInIndex.stream().filter(untouched::equals).count())
                    .as("an untouched item in the index comes back once from the index segments")
                    .isEqualTo(1);
              }
            }
            Map<Key, Integer> times = new HashMap<>();
            seen.forEach(x -> times.merge(l.keySchema().keyOf(x), 1, Integer::sum));
            assertThat(times.values()).as("no key comes back twice").allMatch(n -> n == 1);
            Set<Item> allowed = new HashSet<>(items);
            for (int i = 0; i < 240; i += 4) {
              allowed.add(item(l, i, "rewritten"));
              allowed.add(item(l, 1000 + i, "added"));
            }
            assertThat(allowed).as("every item seen existed at some time").containsAll(seen);
            for (int i = 0; i < 240; i++) {
              Key k = l.keySchema().keyOf(items.get(i));
              if (i % 4 == 2 || i % 4 == 3) {
                assertThat(seen).as("an untouched item comes back").contains(items.get(i));
              } else if (i % 4 == 0) {
                assertThat(times).as("a rewritten item comes back once").containsEntry(k, 1);
              }
            }
          } catch (Exception e) {
            throw new AssertionError(e);
          } finally {
            pool.shutdownNow();
          }
        });
  }

  @Test
  void badPlansAndForeignSegmentsAreRefused() {
    whereSupported(
        Capability.SEGMENTED_SCANS,
        () -> {
          TableLayout l = layout("segbad", true);
          assertThat(driver().segments(l, null, 1)).hasSize(1);
          assertThatThrownBy(() -> driver().segments(l, null, 0))
              .isInstanceOf(IllegalArgumentException.class);
          assertThatThrownBy(() -> driver().segments(l, "nosuchindex", 3))
              .isInstanceOf(IllegalArgumentException.class);
        });
  }
}
