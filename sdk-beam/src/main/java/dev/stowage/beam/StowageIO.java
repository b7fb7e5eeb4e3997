package dev.stowage.beam;

import dev.stowage.Stowage;
import dev.stowage.TableSpec;
import dev.stowage.beam.internal.CopyFn;
import dev.stowage.beam.internal.ItemCoder;
import dev.stowage.beam.internal.MigrationSides;
import dev.stowage.beam.internal.PlanSegmentsFn;
import dev.stowage.beam.internal.ReadItemsFn;
import dev.stowage.beam.internal.ReadSegmentFn;
import dev.stowage.beam.internal.SegmentCoder;
import dev.stowage.beam.internal.SpecSnapshot;
import dev.stowage.beam.internal.TableAccess;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * Apache Beam transforms for Stowage tables, built on the drivers' segmented scans ({@link
 * dev.stowage.spi.StorageDriver#segments}): a read plans its segments when the pipeline runs, and
 * each segment is one element, read page by page by whichever worker the runner gives it (the
 * segments are redistributed first, so a large table spreads over all workers).
 *
 * <ul>
 *   <li>{@link #readStored} — items in their stored form: compressed and encrypted attributes as
 *       stored envelopes, overflowed attributes as pointers, Stowage's index values; no keys
 *       needed. For copying and auditing.
 *   <li>{@link #readItems} — items as the application sees them, decoded with a {@link Stowage}'s
 *       keys (each page is read back through the table); for analytics. Typed records: map the
 *       items, or read them with {@link dev.stowage.typed.TypedTable} in a DoFn.
 *   <li>{@link #copyStored} — the sink: writes stored items read from a source table to a target
 *       table, in another backend or namespace, as {@link dev.stowage.migrate.Migrator} copies them
 *       (target index values computed, overflow blobs copied, items refitted to the target's
 *       limits). Idempotent, so a retried bundle neither duplicates nor loses an item.
 * </ul>
 *
 * <p>Elements are {@link Item}s with {@link #itemCoder()}, which keeps stored forms exactly.
 * Transforms are immutable; their {@code with…} methods return changed copies. Workers open their
 * stores from {@link StoreSpec}s (once per DoFn instance) and close them when torn down.
 */
public final class StowageIO {
  /** Default number of segments: enough to spread over a few dozen workers. */
  public static final int DEFAULT_SEGMENTS = 64;

  /** Default page size of the segment scans. */
  public static final int DEFAULT_PAGE_SIZE = 500;

  private StowageIO() {}

  /** The coder of the items these transforms emit and take. */
  public static Coder<Item> itemCoder() {
    return ItemCoder.of();
  }

  /** Reads every item of the table {@code spec} describes, in {@code store}, in stored form. */
  public static ReadStored readStored(StoreSpec store, TableSpec spec) {
    return new ReadStored(store, SpecSnapshot.of(spec), DEFAULT_SEGMENTS, DEFAULT_PAGE_SIZE);
  }

  /**
   * Reads every item of the table {@code spec} describes, decoded: {@code stowage} opens a {@link
   * Stowage} on a worker with the codecs (keys) the table's encrypted attributes need and the blob
   * store its overflowed items use.
   */
  public static ReadItems readItems(StoreSpec.Opener<Stowage> stowage, TableSpec spec) {
    return new ReadItems(stowage, SpecSnapshot.of(spec), DEFAULT_SEGMENTS, DEFAULT_PAGE_SIZE);
  }

  /**
   * Writes stored items of the table {@code spec} describes, read from {@code source} (with {@link
   * #readStored}), into {@code target}; the same table under the same spec unless {@link
   * CopyStored#withTargetSpec} or {@link CopyStored#withTargetTable} say otherwise. Outputs one
   * line per item that does not fit the target (key and reason).
   */
  public static CopyStored copyStored(StoreSpec source, StoreSpec target, TableSpec spec) {
    return new CopyStored(source, target, SpecSnapshot.of(spec), null, null, 500);
  }

  static PCollection<ScanSegment> segments(
      PBegin begin, String name, TableAccess table, String index, int segments) {
    return begin
        .apply(
            name + "/Start", Create.of(index == null ? "" : index).withCoder(StringUtf8Coder.of()))
        .apply(name + "/Plan", ParDo.of(new PlanSegmentsFn(table, segments)))
        .setCoder(SegmentCoder.of())
        // One segment per element, spread over the workers.
        .apply(name + "/Spread", Reshuffle.viaRandomKey());
  }

  static void checkSegments(int segments) {
    if (segments < 1 || segments > ScanSegment.MAX_TOTAL) {
      throw new IllegalArgumentException(
          "segments must be 1 to " + ScanSegment.MAX_TOTAL + ", not " + segments);
    }
  }

  static void checkPageSize(int pageSize) {
    if (pageSize < 1 || pageSize > 10_000) {
      throw new IllegalArgumentException("page size must be 1 to 10000, not " + pageSize);
    }
  }

  /** {@link StowageIO#readStored}. */
  public static final class ReadStored extends PTransform<PBegin, PCollection<Item>> {
    private static final long serialVersionUID = 1L;
    private final StoreSpec store;
    private final SpecSnapshot spec;
    private final int segments;
    private final int pageSize;

    ReadStored(StoreSpec store, SpecSnapshot spec, int segments, int pageSize) {
      this.store = Objects.requireNonNull(store, "store");
      this.spec = spec;
      this.segments = segments;
      this.pageSize = pageSize;
    }

    /**
     * How many segments the table is divided into (default {@link #DEFAULT_SEGMENTS}): the most
     * workers that read at once. More segments than items is fine (some are empty).
     */
    public ReadStored withSegments(int segments) {
      checkSegments(segments);
      return new ReadStored(store, spec, segments, pageSize);
    }

    /** Items per segment page (default {@link #DEFAULT_PAGE_SIZE}), 1 to 10,000. */
    public ReadStored withPageSize(int pageSize) {
      checkPageSize(pageSize);
      return new ReadStored(store, spec, segments, pageSize);
    }

    @Override
    public PCollection<Item> expand(PBegin begin) {
      TableAccess table = TableAccess.of(store, spec);
      return segments(begin, "Segments", table, null, segments)
          .apply("Read", ParDo.of(new ReadSegmentFn(table, pageSize, "read")))
          .setCoder(ItemCoder.of());
    }
  }

  /** {@link StowageIO#readItems}. */
  public static final class ReadItems extends PTransform<PBegin, PCollection<Item>> {
    private static final long serialVersionUID = 1L;
    private final StoreSpec.Opener<Stowage> stowage;
    private final SpecSnapshot spec;
    private final int segments;
    private final int pageSize;

    ReadItems(StoreSpec.Opener<Stowage> stowage, SpecSnapshot spec, int segments, int pageSize) {
      this.stowage = Objects.requireNonNull(stowage, "stowage");
      this.spec = spec;
      this.segments = segments;
      this.pageSize = pageSize;
    }

    /** How many segments (default {@link #DEFAULT_SEGMENTS}). */
    public ReadItems withSegments(int segments) {
      checkSegments(segments);
      return new ReadItems(stowage, spec, segments, pageSize);
    }

    /** Items per page (default {@link #DEFAULT_PAGE_SIZE}), 1 to 10,000. */
    public ReadItems withPageSize(int pageSize) {
      checkPageSize(pageSize);
      return new ReadItems(stowage, spec, segments, pageSize);
    }

    @Override
    public PCollection<Item> expand(PBegin begin) {
      return segments(begin, "Segments", TableAccess.ofStowage(stowage, spec), null, segments)
          .apply("ReadDecoded", ParDo.of(new ReadItemsFn(stowage, spec, pageSize)))
          .setCoder(ItemCoder.of());
    }
  }

  /** {@link StowageIO#copyStored}. */
  public static final class CopyStored extends PTransform<PCollection<Item>, PCollection<String>> {
    private static final long serialVersionUID = 1L;
    private final StoreSpec source;
    private final StoreSpec target;
    private final SpecSnapshot spec;
    private final SpecSnapshot targetSpec;
    private final String targetTable;
    private final int batchSize;

    CopyStored(
        StoreSpec source,
        StoreSpec target,
        SpecSnapshot spec,
        SpecSnapshot targetSpec,
        String targetTable,
        int batchSize) {
      this.source = Objects.requireNonNull(source, "source");
      this.target = Objects.requireNonNull(target, "target");
      this.spec = spec;
      this.targetSpec = targetSpec;
      this.targetTable = targetTable;
      this.batchSize = batchSize;
    }

    /**
     * The target's own spec (other indexes, or adopting an existing table), as {@link
     * dev.stowage.migrate.Migrator.Builder#targetSpec}: same key schema and attribute policies.
     */
    public CopyStored withTargetSpec(TableSpec spec) {
      return new CopyStored(
          source, target, this.spec, SpecSnapshot.of(spec), targetTable, batchSize);
    }

    /** Another table name on the target (not for tables with encrypted attributes). */
    public CopyStored withTargetTable(String name) {
      return new CopyStored(source, target, spec, targetSpec, name, batchSize);
    }

    /** Items written per {@code Migrator.copy} call (default 500); at most 10,000. */
    public CopyStored withBatchSize(int n) {
      checkPageSize(n);
      return new CopyStored(source, target, spec, targetSpec, targetTable, n);
    }

    MigrationSides sides() {
      return new MigrationSides(source, target, spec, targetSpec, targetTable, batchSize);
    }

    @Override
    public PCollection<String> expand(PCollection<Item> items) {
      MigrationSides sides = sides();
      // Creates the target table and its indexes once, before any worker writes.
      PCollection<String> ready =
          items
              .getPipeline()
              .apply("PrepareTarget/Start", Create.of("").withCoder(StringUtf8Coder.of()))
              .apply(
                  "PrepareTarget", ParDo.of(new dev.stowage.beam.internal.PrepareTargetFn(sides)));
      return items
          .apply("AfterTargetReady", org.apache.beam.sdk.transforms.Wait.on(ready))
          .setCoder(ItemCoder.of())
          .apply("Copy", ParDo.of(new CopyFn(sides, batchSize)))
          .setCoder(StringUtf8Coder.of());
    }
  }
}
