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
import dev.stowage.beam.internal.TypedCoder;
import dev.stowage.beam.internal.TypedCoder.FromItemFn;
import dev.stowage.item.Item;
import dev.stowage.spi.ScanSegment;
import dev.stowage.typed.TypedSchema;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.ListCoder;
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

  /**
   * Default number of driver segments per part of a read: where a runner can split a part while it
   * is read (besides page checkpoints).
   */
  public static final int DEFAULT_SUBSEGMENTS = 4;

  /** Default page size of the segment scans. */
  public static final int DEFAULT_PAGE_SIZE = 500;

  private StowageIO() {}

  /** The coder of the items these transforms emit and take. */
  public static Coder<Item> itemCoder() {
    return ItemCoder.of();
  }

  /** Reads every item of the table {@code spec} describes, in {@code store}, in stored form. */
  public static ReadStored readStored(StoreSpec store, TableSpec spec) {
    return new ReadStored(
        store, SpecSnapshot.of(spec), DEFAULT_SEGMENTS, DEFAULT_SUBSEGMENTS, DEFAULT_PAGE_SIZE);
  }

  /**
   * Reads every item of the table {@code spec} describes, decoded: {@code stowage} opens a {@link
   * Stowage} on a worker with the codecs (keys) the table's encrypted attributes need and the blob
   * store its overflowed items use.
   */
  public static ReadItems readItems(StoreSpec.Opener<Stowage> stowage, TableSpec spec) {
    return new ReadItems(
        stowage, SpecSnapshot.of(spec), DEFAULT_SEGMENTS, DEFAULT_SUBSEGMENTS, DEFAULT_PAGE_SIZE);
  }

  /**
   * Reads every item of the table {@code type}'s {@link TypedSchema} describes, decoded (as {@link
   * #readItems}) and mapped to instances of {@code type}: a typed read for analytics. {@code
   * stowage} opens a {@link Stowage} with the keys and blob store the table needs. Elements are
   * coded through their stored form ({@link ReadTyped#coder()}), so they need not be {@link
   * java.io.Serializable}.
   */
  public static <T> ReadTyped<T> readTyped(StoreSpec.Opener<Stowage> stowage, Class<T> type) {
    return readItems(stowage, TypedSchema.of(type).spec()).as(type);
  }

  /**
   * As {@link #readTyped(StoreSpec.Opener, Class)}, with the schema {@code schema} opens on each
   * worker (a schema with application converters or another table name, {@link
   * TypedSchema#builder}); it is also opened once here, for the table's spec.
   */
  public static <T> ReadTyped<T> readTyped(
      StoreSpec.Opener<Stowage> stowage, Class<T> type, StoreSpec.Opener<TypedSchema<T>> schema) {
    return readItems(stowage, schema.open().spec()).as(type, schema);
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

  static PCollection<List<ScanSegment>> segments(
      PBegin begin, String name, TableAccess table, String index, int segments, int subsegments) {
    return segments(begin, name, table, index, segments, subsegments, null);
  }

  /** As above, counting the driver segments planned in the counter {@code metric}. */
  static PCollection<List<ScanSegment>> segments(
      PBegin begin,
      String name,
      TableAccess table,
      String index,
      int segments,
      int subsegments,
      String metric) {
    return begin
        .apply(
            name + "/Start", Create.of(index == null ? "" : index).withCoder(StringUtf8Coder.of()))
        .apply(name + "/Plan", ParDo.of(new PlanSegmentsFn(table, segments, subsegments, metric)))
        .setCoder(ListCoder.of(SegmentCoder.of()))
        // One group of segments per element, spread over the workers.
        .apply(name + "/Spread", Reshuffle.viaRandomKey());
  }

  static void checkSubsegments(int subsegments) {
    if (subsegments < 1 || subsegments > 1_000) {
      throw new IllegalArgumentException("subsegments must be 1 to 1000, not " + subsegments);
    }
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
    private final int subsegments;
    private final int pageSize;

    ReadStored(StoreSpec store, SpecSnapshot spec, int segments, int subsegments, int pageSize) {
      this.store = Objects.requireNonNull(store, "store");
      this.spec = spec;
      this.segments = segments;
      this.subsegments = subsegments;
      this.pageSize = pageSize;
    }

    /**
     * How many parts the read starts as (default {@link #DEFAULT_SEGMENTS}): the elements the
     * runner distributes, each {@link #withSubsegments} driver segments. More segments than items
     * is fine (some are empty).
     */
    public ReadStored withSegments(int segments) {
      checkSegments(segments);
      return new ReadStored(store, spec, segments, subsegments, pageSize);
    }

    /**
     * Driver segments per part (default {@link #DEFAULT_SUBSEGMENTS}), 1 to 1,000: the finest
     * boundaries at which a runner can split a part that is being read, besides its page
     * checkpoints. The driver plans {@code segments × subsegments} segments (at most {@link
     * ScanSegment#MAX_TOTAL}).
     */
    public ReadStored withSubsegments(int subsegments) {
      checkSubsegments(subsegments);
      return new ReadStored(store, spec, segments, subsegments, pageSize);
    }

    /** Items per segment page (default {@link #DEFAULT_PAGE_SIZE}), 1 to 10,000. */
    public ReadStored withPageSize(int pageSize) {
      checkPageSize(pageSize);
      return new ReadStored(store, spec, segments, subsegments, pageSize);
    }

    @Override
    public PCollection<Item> expand(PBegin begin) {
      TableAccess table = TableAccess.of(store, spec);
      return segments(begin, "Segments", table, null, segments, subsegments)
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
    private final int subsegments;
    private final int pageSize;

    ReadItems(
        StoreSpec.Opener<Stowage> stowage,
        SpecSnapshot spec,
        int segments,
        int subsegments,
        int pageSize) {
      this.stowage = Objects.requireNonNull(stowage, "stowage");
      this.spec = spec;
      this.segments = segments;
      this.subsegments = subsegments;
      this.pageSize = pageSize;
    }

    /** How many parts (default {@link #DEFAULT_SEGMENTS}), as {@link ReadStored#withSegments}. */
    public ReadItems withSegments(int segments) {
      checkSegments(segments);
      return new ReadItems(stowage, spec, segments, subsegments, pageSize);
    }

    /**
     * Driver segments per part (default {@link #DEFAULT_SUBSEGMENTS}), as {@link
     * ReadStored#withSubsegments}.
     */
    public ReadItems withSubsegments(int subsegments) {
      checkSubsegments(subsegments);
      return new ReadItems(stowage, spec, segments, subsegments, pageSize);
    }

    /** Items per page (default {@link #DEFAULT_PAGE_SIZE}), 1 to 10,000. */
    public ReadItems withPageSize(int pageSize) {
      checkPageSize(pageSize);
      return new ReadItems(stowage, spec, segments, subsegments, pageSize);
    }

    /**
     * The items as instances of {@code type}, mapped by {@link TypedSchema#of} of that class on
     * each worker: a typed read for analytics. The table must be the one the schema describes.
     */
    public <T> ReadTyped<T> as(Class<T> type) {
      Objects.requireNonNull(type, "type");
      return as(type, () -> TypedSchema.of(type));
    }

    /**
     * The items as instances of {@code type}, mapped by the schema {@code schema} opens on each
     * worker (for schemas with application converters or another table name: {@link
     * TypedSchema#builder}).
     */
    public <T> ReadTyped<T> as(Class<T> type, StoreSpec.Opener<TypedSchema<T>> schema) {
      return new ReadTyped<>(this, TypedCoder.of(type, schema));
    }

    @Override
    public PCollection<Item> expand(PBegin begin) {
      return segments(
              begin, "Segments", TableAccess.ofStowage(stowage, spec), null, segments, subsegments)
          .apply("ReadDecoded", ParDo.of(new ReadItemsFn(stowage, spec, pageSize)))
          .setCoder(ItemCoder.of());
    }
  }

  /** {@link StowageIO#readTyped}: a {@link ReadItems} mapped to a class. */
  public static final class ReadTyped<T> extends PTransform<PBegin, PCollection<T>> {
    private static final long serialVersionUID = 1L;
    private final ReadItems items;
    private final TypedCoder<T> coder;

    ReadTyped(ReadItems items, TypedCoder<T> coder) {
      this.items = items;
      this.coder = coder;
    }

    /** How many parts (default {@link #DEFAULT_SEGMENTS}), as {@link ReadStored#withSegments}. */
    public ReadTyped<T> withSegments(int segments) {
      return new ReadTyped<>(items.withSegments(segments), coder);
    }

    /** Driver segments per part, as {@link ReadStored#withSubsegments}. */
    public ReadTyped<T> withSubsegments(int subsegments) {
      return new ReadTyped<>(items.withSubsegments(subsegments), coder);
    }

    /** Items per page (default {@link #DEFAULT_PAGE_SIZE}), 1 to 10,000. */
    public ReadTyped<T> withPageSize(int pageSize) {
      return new ReadTyped<>(items.withPageSize(pageSize), coder);
    }

    /**
     * The coder of the read's elements: an instance is encoded as the item its schema maps it to
     * (with {@link StowageIO#itemCoder()}) and decoded by mapping that item back, so it needs
     * neither {@link java.io.Serializable} nor a Beam schema, and every field the schema stores
     * survives exactly. Not deterministic, as {@link StowageIO#itemCoder()} is not: group by a key
     * taken from the instances, not by the instances.
     */
    public Coder<T> coder() {
      return coder;
    }

    @Override
    public PCollection<T> expand(PBegin begin) {
      return begin
          .apply("Items", items)
          .apply("ToTyped", ParDo.of(new FromItemFn<>(coder)))
          .setCoder(coder);
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
