package dev.stowage.beam.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.beam.internal.SegmentRange.Position;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.local.LocalDriver;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.SplitResult;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Splitting a segment read while it runs, on every backend's segmented scans: for each split
 * fraction, after several numbers of pages, primary and residual together read every item exactly
 * once; a residual splits again; a primary read again from its start (a retried bundle) reads the
 * same items; claims past the end are refused.
 */
class SegmentRangeTrackerTest {
  static final TableSpec SPEC =
      TableSpec.builder("splits", KeySchema.of("id", AttributeType.STRING)).build();
  static final int ITEMS = 240;
  static final int SEGMENTS = 8;
  static final int PAGE = 10;
  static final double[] FRACTIONS = {0, 0.01, 0.25, 0.5, 0.75, 1};
  static final int[] PAGES_BEFORE_SPLIT = {0, 1, 3, 7, 15};

  @TempDir static Path dir;

  static Stream<Arguments> backends() {
    return Stream.of(
        Arguments.of("memory", (Supplier<StorageDriver>) MemoryDriver::create),
        Arguments.of(
            "local",
            (Supplier<StorageDriver>)
                () -> {
                  try {
                    return LocalDriver.open(Files.createTempDirectory(dir, "l").resolve("db"));
                  } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                  }
                }),
        Arguments.of(
            "dynamodb",
            (Supplier<StorageDriver>)
                () -> DynamoDbDriver.create(Emulators.shared().dynamoDb().client())),
        Arguments.of(
            "datastore",
            (Supplier<StorageDriver>)
                () ->
                    DatastoreDriver.builder()
                        .projectId("test")
                        .emulatorHost(Emulators.shared().datastore().hostPort())
                        .build()),
        Arguments.of(
            "azure",
            (Supplier<StorageDriver>)
                () ->
                    AzureTablesDriver.fromConnectionString(
                        Emulators.shared().azurite().connectionString())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void primaryAndResidualReadEveryItemExactlyOnce(String backend, Supplier<StorageDriver> open) {
    StorageDriver driver = open.get();
    try {
      String ns = "s" + UUID.randomUUID().toString().substring(0, 8);
      Set<Key> all = fill(driver, ns);
      TableLayout layout = Layouts.of(ns, SPEC);
      List<ScanSegment> group = driver.segments(layout, null, SEGMENTS);
      SegmentPages.Reader reader =
          // Retried as the DoFns retry (an emulator on a loaded machine resets connections).
          (segment, checkpoint) ->
              dev.stowage.RetryPolicy.DEFAULT.call(
                  () ->
                      driver.scanSegment(layout, new SegmentScan(segment, PAGE, checkpoint, true)));

      // No split: the group whole.
      assertThat(read(group, new SegmentRangeTracker(SegmentRange.whole(SEGMENTS)), reader))
          .containsExactlyInAnyOrderElementsOf(all);

      int splits = 0;
      int midSegment = 0;
      for (double fraction : FRACTIONS) {
        for (int pages : PAGES_BEFORE_SPLIT) {
          String at = backend + " fraction " + fraction + " after " + pages + " pages";
          SegmentRangeTracker tracker = new SegmentRangeTracker(SegmentRange.whole(SEGMENTS));
          List<SplitResult<SegmentRange>> split = new ArrayList<>();
          List<Key> primary = readSplitting(group, tracker, reader, pages, fraction, split);
          tracker.checkDone();
          List<Key> residual = new ArrayList<>();
          if (!split.isEmpty() && split.get(0) != null) {
            splits++;
            SplitResult<SegmentRange> s = split.get(0);
            assertThat(s.getPrimary()).as(at).isEqualTo(tracker.currentRestriction());
            assertThat(s.getResidual().start()).as(at).isEqualTo(s.getPrimary().end());
            if (s.getResidual().start().checkpoint() != null) {
              midSegment++;
            }
            if (fraction > 0) {
              assertThat(s.getResidual().start().checkpoint()).as(at).isNull();
            }
            // The residual is split again, at its middle, after its first page.
            SegmentRangeTracker rest = new SegmentRangeTracker(roundTrip(s.getResidual()));
            List<SplitResult<SegmentRange>> again = new ArrayList<>();
            residual.addAll(readSplitting(group, rest, reader, 1, 0.5, again));
            rest.checkDone();
            if (!again.isEmpty() && again.get(0) != null) {
              SegmentRangeTracker last = new SegmentRangeTracker(again.get(0).getResidual());
              residual.addAll(read(group, last, reader));
              last.checkDone();
            }
            // A retried primary reads the same items from its start.
            SegmentRangeTracker retry = new SegmentRangeTracker(roundTrip(s.getPrimary()));
            assertThat(read(group, retry, reader)).as(at).isEqualTo(primary);
            retry.checkDone();
          }
          List<Key> both = new ArrayList<>(primary);
          both.addAll(residual);
          assertThat(both).as(at).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(all);
        }
      }
      // Splits happened, some of them inside a segment (at a page checkpoint).
      assertThat(splits).isGreaterThan(FRACTIONS.length * 3);
      assertThat(midSegment).isPositive();
    } finally {
      driver.close();
    }
  }

  static final double[] INSIDE_FRACTIONS = {0.1, 0.3, 0.5, 0.7, 0.9};
  static final int[] PAGES_BEFORE_INSIDE_SPLIT = {0, 1, 3, 7, 20};

  /**
   * One segment holding the whole table, split inside by the driver: after 0 to 20 pages, at
   * fractions 0.1 to 0.9, between two pages and while a page is being read (that page read again).
   * The primary is split again one page later and the residual after its first page; every part
   * read, every item comes exactly once, the residual holds the share the fraction asked for, and a
   * retried primary reads the same items. DynamoDB's segments cannot be cut: the splits are
   * declined and the read stays whole.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void aSingleSegmentSplitsInsideAtAFraction(String backend, Supplier<StorageDriver> open) {
    StorageDriver driver = open.get();
    boolean cuts = !backend.equals("dynamodb");
    try {
      String ns = "i" + UUID.randomUUID().toString().substring(0, 8);
      Set<Key> all = fill(driver, ns);
      TableLayout layout = Layouts.of(ns, SPEC);
      List<ScanSegment> group = driver.segments(layout, null, 1);
      SegmentRangeTracker.Splitter splitter =
          (segment, checkpoint, fraction) ->
              dev.stowage.RetryPolicy.DEFAULT.call(
                  () -> driver.splitSegment(layout, segment, checkpoint, fraction));
      int[] rereads = {0};
      int cases = 0;
      int checkpointsAfterACut = 0;
      for (boolean during : new boolean[] {false, true}) {
        for (double fraction : INSIDE_FRACTIONS) {
          for (int pages : PAGES_BEFORE_INSIDE_SPLIT) {
            String at =
                backend
                    + (during ? " during" : " after")
                    + " page "
                    + pages
                    + " fraction "
                    + fraction;
            SegmentRangeTracker tracker =
                new SegmentRangeTracker(SegmentRange.whole(1), group, splitter);
            // Split at the fraction after `pages` pages, then the primary again one page later,
            // then at a page checkpoint (fraction 0) one more page later.
            java.util.Map<Integer, Double> plan =
                java.util.Map.of(pages, fraction, pages + 1, 0.5, pages + 2, 0.0);
            List<SplitResult<SegmentRange>> splits = new ArrayList<>();
            List<Key> primary =
                readCutting(driver, layout, group, tracker, plan, during, splits, rereads);
            tracker.checkDone();
            List<Key> seen = new ArrayList<>(primary);
            if (!cuts) {
              // No cut: the fraction splits are declined; the checkpoint split still works.
              assertThat(splits.get(0)).as(at).isNull();
              assertThat(splits.size() < 2 || splits.get(1) == null).as(at).isTrue();
              for (SplitResult<SegmentRange> r : splits) {
                if (r != null) {
                  SegmentRangeTracker part =
                      new SegmentRangeTracker(roundTrip(r.getResidual()), group, splitter);
                  seen.addAll(read(group, part, reader(driver, layout)));
                  part.checkDone();
                }
              }
              assertThat(seen)
                  .as(at)
                  .doesNotHaveDuplicates()
                  .containsExactlyInAnyOrderElementsOf(all);
              continue;
            }
            int left = ITEMS - pages * PAGE;
            long kept = Math.max(1, Math.min(left - 1, Math.round(fraction * left)));
            assertThat(splits.get(0)).as(at).isNotNull();
            // The primary splits again when at least two keys are left after its next page (a
            // split during a page read is not tried when no page follows).
            boolean splitAgain = splits.size() > 1 && splits.get(1) != null;
            assertThat(splitAgain).as(at).isEqualTo(kept - PAGE >= 2);
            SplitResult<SegmentRange> first = splits.get(0);
            assertThat(first.getResidual().narrowed()).as(at).containsOnlyKeys(0);
            // The residual, cut again after its first page and checkpointed after its second.
            SegmentRangeTracker rest =
                new SegmentRangeTracker(roundTrip(first.getResidual()), group, splitter);
            List<SplitResult<SegmentRange>> again = new ArrayList<>();
            List<Key> residual =
                readCutting(
                    driver,
                    layout,
                    group,
                    rest,
                    java.util.Map.of(1, 0.5, 2, 0.0),
                    false,
                    again,
                    rereads);
            rest.checkDone();
            assertThat(again.get(0) != null).as(at).isEqualTo(left - kept - PAGE >= 2);
            for (SplitResult<SegmentRange> r : again) {
              if (r != null) {
                SegmentRangeTracker part =
                    new SegmentRangeTracker(roundTrip(r.getResidual()), group, splitter);
                residual.addAll(read(group, part, reader(driver, layout)));
                part.checkDone();
              }
            }
            // The share asked for: the residual holds the keys from the cut on.
            assertThat(residual).as(at).hasSize((int) (left - kept));
            seen.addAll(residual);
            // The primary's own residuals (a cut, a checkpoint), each read whole.
            for (SplitResult<SegmentRange> r : splits.subList(1, splits.size())) {
              if (r != null) {
                if (r.getResidual().start().checkpoint() != null) {
                  checkpointsAfterACut++;
                }
                SegmentRangeTracker part =
                    new SegmentRangeTracker(roundTrip(r.getResidual()), group, splitter);
                seen.addAll(read(group, part, reader(driver, layout)));
                part.checkDone();
              }
            }
            // A retried primary reads the same items from its start.
            SegmentRangeTracker retry =
                new SegmentRangeTracker(roundTrip(tracker.currentRestriction()), group, splitter);
            assertThat(read(group, retry, reader(driver, layout))).as(at).isEqualTo(primary);
            retry.checkDone();
            assertThat(seen)
                .as(at)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(all);
            cases++;
          }
        }
      }
      if (cuts) {
        assertThat(cases).isEqualTo(2 * INSIDE_FRACTIONS.length * PAGES_BEFORE_INSIDE_SPLIT.length);
        // Splits while a page was read made the reader read that page again.
        assertThat(rereads[0]).isGreaterThanOrEqualTo(INSIDE_FRACTIONS.length);
        // Checkpoint splits of a cut primary happened (their residual reads the cut segment).
        assertThat(checkpointsAfterACut).isPositive();
      }
    } finally {
      driver.close();
    }
  }

  @Test
  void aPageReadAcrossASplitIsReadAgainNotClaimed() {
    List<ScanSegment> group = List.of(new ScanSegment(null, 0, 1, "whole"));
    ScanSegment low = new ScanSegment(null, 0, 1, "low");
    ScanSegment high = new ScanSegment(null, 0, 1, "high");
    SegmentRangeTracker t =
        new SegmentRangeTracker(
            SegmentRange.whole(1),
            group,
            (segment, checkpoint, fraction) ->
                java.util.Optional.of(new dev.stowage.spi.SegmentSplit(low, high)));
    assertThat(t.tryClaim(new PageClaim(Position.startOf(0), new Position(0, "a"), group.get(0))))
        .isTrue();
    SplitResult<SegmentRange> s = t.trySplit(0.5);
    assertThat(s.getPrimary().segment(0, group)).isEqualTo(low);
    assertThat(s.getResidual())
        .isEqualTo(
            new SegmentRange(
                Position.startOf(0),
                Position.startOf(1),
                new java.util.TreeMap<>(java.util.Map.of(0, high)),
                // half of the segment unread (a page of it was read), half of that cut off
                new java.util.TreeMap<>(java.util.Map.of(0, 0.25))));
    assertThat(roundTrip(s.getResidual())).isEqualTo(s.getResidual());
    // A page read with the segment before the split: accepted, not moved past, read again.
    PageClaim stale = new PageClaim(new Position(0, "a"), new Position(0, "z"), group.get(0));
    assertThat(t.tryClaim(stale)).isTrue();
    assertThat(stale.reread()).isTrue();
    PageClaim fresh = new PageClaim(new Position(0, "a"), Position.startOf(1), low);
    assertThat(t.tryClaim(fresh)).isTrue();
    assertThat(fresh.reread()).isFalse();
    t.checkDone();
    // A checkpoint split after a cut: both halves keep the cut segment.
    SegmentRangeTracker c =
        new SegmentRangeTracker(
            SegmentRange.whole(1),
            group,
            (segment, checkpoint, fraction) ->
                java.util.Optional.of(new dev.stowage.spi.SegmentSplit(low, high)));
    assertThat(c.tryClaim(new PageClaim(Position.startOf(0), new Position(0, "a"), group.get(0))))
        .isTrue();
    assertThat(c.trySplit(0.5)).isNotNull();
    assertThat(c.tryClaim(new PageClaim(new Position(0, "a"), new Position(0, "b"), low))).isTrue();
    SplitResult<SegmentRange> cp = c.trySplit(0);
    assertThat(cp.getResidual().start()).isEqualTo(new Position(0, "b"));
    assertThat(cp.getResidual().segment(0, group)).isEqualTo(low);
    assertThat(cp.getPrimary().segment(0, group)).isEqualTo(low);
    // A driver that cannot cut (or fails) declines the split; fraction 0 still checkpoints.
    SegmentRangeTracker none =
        new SegmentRangeTracker(
            SegmentRange.whole(1), group, (segment, checkpoint, f) -> java.util.Optional.empty());
    assertThat(none.trySplit(0.5)).isNull();
    SegmentRangeTracker failing =
        new SegmentRangeTracker(
            SegmentRange.whole(1),
            group,
            (segment, checkpoint, f) -> {
              throw new IllegalStateException("unreachable store");
            });
    assertThat(failing.trySplit(0.5)).isNull();
    assertThat(failing.trySplit(0)).isNotNull();
  }

  private static SegmentPages.Reader reader(StorageDriver driver, TableLayout layout) {
    return (segment, checkpoint) ->
        dev.stowage.RetryPolicy.DEFAULT.call(
            () -> driver.scanSegment(layout, new SegmentScan(segment, PAGE, checkpoint, true)));
  }

  /**
   * Reads the tracker's range, splitting at {@code plan.get(n)} once {@code n} pages were claimed:
   * between pages, or ({@code during}) after the driver returned the next page but before it is
   * claimed. Counts pages read twice from the same place in {@code rereads}.
   */
  private static List<Key> readCutting(
      StorageDriver driver,
      TableLayout layout,
      List<ScanSegment> group,
      SegmentRangeTracker tracker,
      java.util.Map<Integer, Double> plan,
      boolean during,
      List<SplitResult<SegmentRange>> splits,
      int[] rereads) {
    List<Key> keys = new ArrayList<>();
    int[] claimed = {0};
    Set<Integer> done = new HashSet<>();
    String[] last = {"\u0000none"};
    SegmentPages.Reader plain = reader(driver, layout);
    SegmentPages.Reader reader =
        (segment, checkpoint) -> {
          String place = String.valueOf(checkpoint);
          if (place.equals(last[0])) {
            rereads[0]++;
          }
          last[0] = place;
          var page = plain.read(segment, checkpoint);
          if (during && plan.containsKey(claimed[0]) && done.add(claimed[0])) {
            splits.add(tracker.trySplit(plan.get(claimed[0])));
          }
          return page;
        };
    if (!during && plan.containsKey(0) && done.add(0)) {
      splits.add(tracker.trySplit(plan.get(0)));
    }
    SegmentPages.read(
        group,
        tracker,
        reader,
        page -> {
          for (StoredItem s : page.items()) {
            keys.add(SPEC.keySchema().keyOf(s.item()));
          }
          claimed[0]++;
          if (!during && plan.containsKey(claimed[0]) && done.add(claimed[0])) {
            splits.add(tracker.trySplit(plan.get(claimed[0])));
          }
        });
    return keys;
  }

  @Test
  void claimsAfterTheEndAreRefusedAndUnreadRangesAreNotDone() {
    SegmentRangeTracker t = new SegmentRangeTracker(SegmentRange.whole(3));
    assertThat(t.tryClaim(new PageClaim(Position.startOf(0), new Position(0, "a")))).isTrue();
    assertThatThrownBy(t::checkDone).hasMessageContaining("before the end");
    // Out of order.
    assertThatThrownBy(() -> t.tryClaim(new PageClaim(Position.startOf(2), Position.startOf(3))))
        .isInstanceOf(IllegalArgumentException.class);
    SplitResult<SegmentRange> s = t.trySplit(0.5);
    assertThat(s.getPrimary())
        .isEqualTo(new SegmentRange(Position.startOf(0), Position.startOf(2)));
    assertThat(s.getResidual())
        .isEqualTo(new SegmentRange(Position.startOf(2), Position.startOf(3)));
    assertThat(t.tryClaim(new PageClaim(new Position(0, "a"), Position.startOf(1)))).isTrue();
    assertThat(t.tryClaim(new PageClaim(Position.startOf(1), Position.startOf(2)))).isTrue();
    assertThat(t.tryClaim(new PageClaim(Position.startOf(2), Position.startOf(3)))).isFalse();
    t.checkDone();
    // Nothing is left to split off in the last segment but at a checkpoint.
    SegmentRangeTracker last = new SegmentRangeTracker(SegmentRange.whole(1));
    assertThat(last.tryClaim(new PageClaim(Position.startOf(0), new Position(0, "x")))).isTrue();
    assertThat(last.trySplit(0.5)).isNull();
    SplitResult<SegmentRange> c = last.trySplit(0);
    assertThat(c.getResidual().start()).isEqualTo(new Position(0, "x"));
    assertThat(last.getProgress().getWorkCompleted()).isEqualTo(0.5);
    assertThat(last.getProgress().getWorkRemaining()).isEqualTo(0);
  }

  @Test
  void theTwoPartsOfACutSegmentCountAsTheOneSegmentTheyWere() {
    List<ScanSegment> group =
        List.of(new ScanSegment(null, 0, 2, "first"), new ScanSegment(null, 1, 2, "second"));
    SegmentRangeTracker.Splitter halves =
        (segment, checkpoint, fraction) ->
            java.util.Optional.of(
                new dev.stowage.spi.SegmentSplit(
                    new ScanSegment(null, 0, 1, segment.bounds() + "<" + fraction),
                    new ScanSegment(null, 0, 1, segment.bounds() + ">" + fraction)));
    SegmentRangeTracker t = new SegmentRangeTracker(SegmentRange.whole(2), group, halves);
    assertThat(SegmentRangeTracker.size(SegmentRange.whole(2))).isEqualTo(2.0);
    assertThat(t.tryClaim(new PageClaim(Position.startOf(0), Position.startOf(1)))).isTrue();
    // The last segment, unread, cut at a quarter: the primary keeps a quarter of it.
    SplitResult<SegmentRange> s = t.trySplit(0.25);
    assertThat(s).isNotNull();
    assertThat(SegmentRangeTracker.size(s.getPrimary())).isEqualTo(1.25);
    assertThat(SegmentRangeTracker.size(s.getResidual())).isEqualTo(0.75);
    assertThat(t.getProgress().getWorkCompleted()).isEqualTo(1.0);
    assertThat(t.getProgress().getWorkRemaining()).isEqualTo(0.25);
    SegmentRange residual = roundTrip(s.getResidual());
    assertThat(residual).isEqualTo(s.getResidual());
    assertThat(residual.share(1)).isEqualTo(0.75);
    // The residual cut again, after a page of it: the parts still add up to its share.
    SegmentRangeTracker r =
        new SegmentRangeTracker(residual, List.of(group.get(1), group.get(1)), halves);
    assertThat(r.getProgress().getWorkRemaining()).isEqualTo(0.75);
    assertThat(r.tryClaim(new PageClaim(Position.startOf(1), new Position(1, "p")))).isTrue();
    SplitResult<SegmentRange> again = r.trySplit(0.5);
    assertThat(again).isNotNull();
    double primary = SegmentRangeTracker.size(again.getPrimary());
    double rest = SegmentRangeTracker.size(again.getResidual());
    // Half of the 0.75 counted read (a partly read segment counts half), half of the rest cut off.
    assertThat(rest).isEqualTo(0.1875);
    assertThat(again.getPrimary().share(1) + again.getResidual().share(1)).isEqualTo(0.75);
    assertThat(primary).isEqualTo(0.75 - 0.1875);
    assertThat(r.getProgress().getWorkRemaining()).isEqualTo((0.75 - 0.1875) / 2);
    // A checkpoint split of a cut primary keeps its share in both halves.
    SplitResult<SegmentRange> c = r.trySplit(0);
    assertThat(c.getResidual().share(1)).isEqualTo(again.getPrimary().share(1));
    assertThat(roundTrip(c.getResidual())).isEqualTo(c.getResidual());
  }

  private static SegmentRange roundTrip(SegmentRange r) {
    try {
      return CoderUtils.clone(SegmentRange.Coder.of(), r);
    } catch (org.apache.beam.sdk.coders.CoderException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Set<Key> fill(StorageDriver driver, String ns) {
    Set<Key> keys = new HashSet<>();
    try (Stowage s =
        Stowage.builder(
                new dev.stowage.spi.ForwardingDriver(driver) {
                  @Override
                  public void close() {}
                })
            .namespace(ns)
            .build()) {
      var table = s.ensureTable(SPEC);
      List<Item> items = new ArrayList<>();
      for (int i = 0; i < ITEMS; i++) {
        Item item = Item.builder().put("id", String.format("k%04d", i)).put("n", i).build();
        items.add(item);
        keys.add(SPEC.keySchema().keyOf(item));
      }
      for (int i = 0; i < items.size(); i += 25) {
        table.batchPut(items.subList(i, Math.min(items.size(), i + 25)));
      }
    }
    return keys;
  }

  private static List<Key> read(
      List<ScanSegment> group, SegmentRangeTracker tracker, SegmentPages.Reader reader) {
    return readSplitting(group, tracker, reader, -1, 0, new ArrayList<>());
  }

  /** Reads the tracker's range, splitting at {@code fraction} once {@code pages} were claimed. */
  private static List<Key> readSplitting(
      List<ScanSegment> group,
      SegmentRangeTracker tracker,
      SegmentPages.Reader reader,
      int pages,
      double fraction,
      List<SplitResult<SegmentRange>> split) {
    List<Key> keys = new ArrayList<>();
    if (pages == 0) {
      split.add(tracker.trySplit(fraction));
    }
    int[] claimed = {0};
    RestrictionTracker<SegmentRange, PageClaim> t = tracker;
    SegmentPages.read(
        group,
        t,
        reader,
        page -> {
          for (StoredItem s : page.items()) {
            keys.add(SPEC.keySchema().keyOf(s.item()));
          }
          if (++claimed[0] == pages) {
            split.add(tracker.trySplit(fraction));
          }
        });
    return keys;
  }
}
