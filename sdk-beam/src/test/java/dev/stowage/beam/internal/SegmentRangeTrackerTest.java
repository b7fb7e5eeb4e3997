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
