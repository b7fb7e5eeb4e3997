package dev.stowage.beam;

import dev.stowage.TableSpec;
import dev.stowage.beam.internal.CompareFn;
import dev.stowage.beam.internal.DigestFn;
import dev.stowage.beam.internal.ItemCoder;
import dev.stowage.beam.internal.Metric;
import dev.stowage.beam.internal.MigrationSides;
import dev.stowage.beam.internal.ReadSegmentFn;
import dev.stowage.beam.internal.Runners;
import dev.stowage.beam.internal.SpecSnapshot;
import dev.stowage.beam.internal.TableAccess;
import dev.stowage.item.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Wait;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * Copies a table between two stores — any backends, namespaces or both — in its stored form, and
 * verifies the copy, as one Apache Beam pipeline: the scale-out form of {@link
 * dev.stowage.migrate.Migrator}, which it uses on every worker for the copy itself.
 *
 * <ol>
 *   <li>The source is read in {@link Options.Builder#segments segments} ({@link
 *       StowageIO#readStored}); each item is written to the target ({@link StowageIO#copyStored}):
 *       no keys needed, overflow blobs copied, the target's index values computed.
 *   <li>When every item is written, the target table and each of its indexes are read in segments
 *       and compared with the source items read in step 1, grouped by key: every item's digest
 *       (stored attributes with overflowed ones restored, as {@link
 *       dev.stowage.migrate.Migrator#verify()} compares them) and every index entry the target
 *       should have. Counts and mismatches come back in the {@link Result}.
 * </ol>
 *
 * <p>A pipeline that failed part-way is simply run again: writes are idempotent (the same stored
 * forms, blobs under the same keys), so a second run completes the copy and verifies it. The source
 * should not be written while the pipeline runs (use {@link dev.stowage.migrate.MirroredTable} for
 * a live cut-over): items written meanwhile may or may not be copied, and verification reports
 * them.
 *
 * <p>{@link #run(Options)} runs on the runner {@link Options#pipelineOptions()} names: the
 * DirectRunner in tests, Dataflow, Flink or Spark in production with the runner's artifact on the
 * class path (docs/beam.md).
 */
public final class StowageMigrationPipeline {
  private StowageMigrationPipeline() {}

  /**
   * Builds the pipeline and runs it to completion.
   *
   * @return the counts of the copy and of its verification
   * @throws org.apache.beam.sdk.Pipeline.PipelineExecutionException if a step fails (a store
   *     unreachable after its retries, a copy that cannot be faithful); run it again to resume
   * @throws IllegalArgumentException if the runner named in the options is not on the class path
   */
  public static Result run(Options options) {
    Pipeline p = Pipeline.create(options.pipelineOptions());
    expand(p, options);
    PipelineResult r = p.run();
    PipelineResult.State state = r.waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("the migration pipeline ended in state " + state);
    }
    return Result.of(r.metrics().queryMetrics(MetricsFilter.builder().build()));
  }

  /**
   * Runs a migration described with JDK and Stowage types only: the entry point of {@code stowage
   * migrate --runner}, which loads sdk-beam reflectively only when a runner is asked for, so the
   * command line does not depend on Beam. Applications use {@link #run(Options)}.
   *
   * <p>Keys: {@code sourceDriver}, {@code targetDriver} (serialisable {@code Supplier}s of {@link
   * dev.stowage.spi.StorageDriver}), {@code sourceBlobs}, {@code targetBlobs} (serialisable {@code
   * Supplier}s of {@link dev.stowage.overflow.BlobStore}, or absent), {@code sourceNamespace},
   * {@code targetNamespace} (strings), {@code spec} and optionally {@code targetSpec} ({@link
   * TableSpec}), {@code targetTable} (string), {@code segments}, {@code subsegments}, {@code
   * pageSize} (integers), {@code copy}, {@code verify} (booleans) and {@code args} (a list of Beam
   * options, the runner among them).
   *
   * @return the {@link Result}'s counts by component name, and {@code ok} (1 or 0)
   */
  @SuppressWarnings("unchecked")
  public static java.util.Map<String, Long> runFromCommandLine(
      java.util.Map<String, Object> request) {
    StoreSpec source =
        StoreSpec.of(
            opener(
                (java.util.function.Supplier<dev.stowage.spi.StorageDriver>)
                    request.get("sourceDriver")),
            opener(
                (java.util.function.Supplier<dev.stowage.overflow.BlobStore>)
                    request.get("sourceBlobs")),
            (String) request.get("sourceNamespace"));
    StoreSpec target =
        StoreSpec.of(
            opener(
                (java.util.function.Supplier<dev.stowage.spi.StorageDriver>)
                    request.get("targetDriver")),
            opener(
                (java.util.function.Supplier<dev.stowage.overflow.BlobStore>)
                    request.get("targetBlobs")),
            (String) request.get("targetNamespace"));
    Options.Builder b =
        Options.builder(source, target, (TableSpec) request.get("spec"))
            .segments((Integer) request.getOrDefault("segments", StowageIO.DEFAULT_SEGMENTS))
            .subsegments(
                (Integer) request.getOrDefault("subsegments", StowageIO.DEFAULT_SUBSEGMENTS))
            .pageSize((Integer) request.getOrDefault("pageSize", StowageIO.DEFAULT_PAGE_SIZE))
            .copy((Boolean) request.getOrDefault("copy", true))
            .verify((Boolean) request.getOrDefault("verify", true))
            .pipelineArgs(
                ((List<String>) request.getOrDefault("args", List.of())).toArray(String[]::new));
    if (request.get("targetSpec") != null) {
      b.targetSpec((TableSpec) request.get("targetSpec"));
    }
    if (request.get("targetTable") != null) {
      b.targetTable((String) request.get("targetTable"));
    }
    Result r = run(b.build());
    java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
    for (var c : Result.class.getRecordComponents()) {
      try {
        Object v = c.getAccessor().invoke(r);
        out.put(c.getName(), v instanceof Boolean bool ? (bool ? 1L : 0L) : (Long) v);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    out.put("ok", r.ok() ? 1L : 0L);
    return out;
  }

  private static <T> StoreSpec.Opener<T> opener(java.util.function.Supplier<T> supplier) {
    if (supplier == null) {
      return null;
    }
    if (!(supplier instanceof java.io.Serializable)) {
      throw new IllegalArgumentException("store openers must be serialisable");
    }
    java.util.function.Supplier<T> s = supplier;
    return s::get;
  }

  /**
   * Adds the migration's steps to {@code pipeline}, for callers that run it themselves; read the
   * counts with {@link Result#of(MetricQueryResults)}.
   *
   * @return one line per item not copied (does not fit the target) and per mismatch found by the
   *     verification
   */
  public static PCollection<String> expand(Pipeline pipeline, Options options) {
    StowageIO.CopyStored copy =
        StowageIO.copyStored(options.source, options.target, options.spec)
            .withBatchSize(options.pageSize);
    if (options.targetSpec != null) {
      copy = copy.withTargetSpec(options.targetSpec);
    }
    if (options.targetTable != null) {
      copy = copy.withTargetTable(options.targetTable);
    }
    MigrationSides sides = copy.sides();
    PBegin begin = PBegin.in(pipeline);
    TableAccess sourceTable = sides.side(false);
    PCollection<Item> items =
        StowageIO.segments(
                begin,
                "SourceSegments",
                sourceTable,
                null,
                options.segments,
                options.subsegments,
                Metric.SOURCE_SEGMENTS)
            .apply(
                "ReadSource",
                ParDo.of(new ReadSegmentFn(sourceTable, options.pageSize, Metric.SOURCE)))
            .setCoder(ItemCoder.of());
    PCollection<String> misfits =
        options.copy
            ? items.apply("CopyToTarget", copy)
            : pipeline.apply(
                "NoCopy", org.apache.beam.sdk.transforms.Create.empty(StringUtf8Coder.of()));
    if (!options.verify) {
      return misfits;
    }
    List<PCollection<KV<String, String>>> sides2 = new ArrayList<>();
    KvCoder<String, String> kv = KvCoder.of(StringUtf8Coder.of(), StringUtf8Coder.of());
    sides2.add(items.apply("DigestSource", ParDo.of(DigestFn.items(sides, true))).setCoder(kv));
    TableAccess targetTable = sides.side(true);
    PBegin afterCopy = PBegin.in(pipeline);
    sides2.add(
        targetSegments(afterCopy, misfits, "Target", targetTable, null, options)
            .apply("DigestTarget", ParDo.of(DigestFn.items(sides, false)))
            .setCoder(kv));
    for (String index : targetIndexes(options)) {
      sides2.add(
          targetSegments(afterCopy, misfits, "TargetIndex-" + index, targetTable, index, options)
              .apply("IndexEntries-" + index, ParDo.of(DigestFn.indexEntries(sides, index)))
              .setCoder(kv));
    }
    PCollection<String> mismatches =
        PCollectionList.of(sides2)
            .apply("BothSides", Flatten.pCollections())
            .apply("ByKey", GroupByKey.create())
            .apply("Compare", ParDo.of(new CompareFn()))
            .setCoder(StringUtf8Coder.of());
    return PCollectionList.of(misfits).and(mismatches).apply("Problems", Flatten.pCollections());
  }

  private static List<String> targetIndexes(Options options) {
    TableSpec t = options.targetSpec != null ? options.targetSpec : options.spec;
    return t.indexes().stream().map(i -> i.name()).toList();
  }

  /** The segments of the target's table or index, planned once every item is written. */
  private static PCollection<Item> targetSegments(
      PBegin begin,
      PCollection<String> copied,
      String name,
      TableAccess table,
      String index,
      Options options) {
    return begin
        .apply(
            name + "/Start",
            org.apache.beam.sdk.transforms.Create.of(index == null ? "" : index)
                .withCoder(StringUtf8Coder.of()))
        .apply(name + "/AfterCopy", Wait.on(copied))
        .setCoder(StringUtf8Coder.of())
        .apply(
            name + "/Plan",
            ParDo.of(
                new dev.stowage.beam.internal.PlanSegmentsFn(
                    table, options.segments, options.subsegments)))
        .setCoder(
            org.apache.beam.sdk.coders.ListCoder.of(dev.stowage.beam.internal.SegmentCoder.of()))
        .apply(name + "/Spread", org.apache.beam.sdk.transforms.Reshuffle.viaRandomKey())
        .apply(
            name + "/Read",
            ParDo.of(
                new ReadSegmentFn(
                    table, options.pageSize, index == null ? Metric.TARGET : Metric.TARGET_INDEX)))
        .setCoder(ItemCoder.of());
  }

  /**
   * What a migration pipeline is to do. Build with {@link #builder(StoreSpec, StoreSpec,
   * TableSpec)}; immutable.
   */
  public static final class Options {
    private final StoreSpec source;
    private final StoreSpec target;
    private final TableSpec spec;
    private final TableSpec targetSpec;
    private final String targetTable;
    private final int segments;
    private final int subsegments;
    private final int pageSize;
    private final boolean verify;
    private final boolean copy;
    private final PipelineOptions pipelineOptions;

    private Options(Builder b) {
      this.source = b.source;
      this.target = b.target;
      this.spec = b.spec;
      this.targetSpec = b.targetSpec;
      this.targetTable = b.targetTable;
      this.segments = b.segments;
      this.subsegments = b.subsegments;
      this.pageSize = b.pageSize;
      this.verify = b.verify;
      this.copy = b.copy;
      if (!copy && !verify) {
        throw new IllegalArgumentException(
            "a pipeline that neither copies nor verifies does nothing");
      }
      this.pipelineOptions = b.pipelineOptions;
      // Fails now, not on a worker, if a spec cannot travel with the pipeline.
      SpecSnapshot.of(spec);
      if (targetSpec != null) {
        SpecSnapshot.of(targetSpec);
      }
    }

    /** Starts options for copying the table {@code spec} describes from source to target. */
    public static Builder builder(StoreSpec source, StoreSpec target, TableSpec spec) {
      return new Builder(source, target, spec);
    }

    /** The Beam options the pipeline runs with (runner and its settings). */
    public PipelineOptions pipelineOptions() {
      return pipelineOptions;
    }

    /** Configures {@link Options}; not thread-safe. */
    public static final class Builder {
      private final StoreSpec source;
      private final StoreSpec target;
      private final TableSpec spec;
      private TableSpec targetSpec;
      private String targetTable;
      private int segments = StowageIO.DEFAULT_SEGMENTS;
      private int subsegments = StowageIO.DEFAULT_SUBSEGMENTS;
      private int pageSize = StowageIO.DEFAULT_PAGE_SIZE;
      private boolean verify = true;
      private boolean copy = true;
      private PipelineOptions pipelineOptions;

      private Builder(StoreSpec source, StoreSpec target, TableSpec spec) {
        this.source = Objects.requireNonNull(source, "source");
        this.target = Objects.requireNonNull(target, "target");
        this.spec = Objects.requireNonNull(spec, "spec");
      }

      /** The target's own spec; see {@link StowageIO.CopyStored#withTargetSpec}. */
      public Builder targetSpec(TableSpec spec) {
        this.targetSpec = Objects.requireNonNull(spec, "spec");
        return this;
      }

      /** Another table name on the target; see {@link StowageIO.CopyStored#withTargetTable}. */
      public Builder targetTable(String name) {
        this.targetTable = Objects.requireNonNull(name, "name");
        return this;
      }

      /**
       * Parts of each scan (source, target, each target index); default 64, each {@link
       * StowageIO#DEFAULT_SUBSEGMENTS} driver segments a runner can split it at.
       */
      public Builder segments(int n) {
        StowageIO.checkSegments(n);
        this.segments = n;
        return this;
      }

      /**
       * Driver segments in each part of each scan, 1 to 1,000; default {@link
       * StowageIO#DEFAULT_SUBSEGMENTS}. A runner splits a running part at their starts (and inside
       * the last one where the driver's segments are key ranges), so more subsegments give dynamic
       * work rebalancing finer places to cut, at the cost of more, smaller scans. The driver plans
       * {@code segments × subsegments} segments per scan (at most {@link
       * dev.stowage.spi.ScanSegment#MAX_TOTAL}).
       */
      public Builder subsegments(int n) {
        StowageIO.checkSubsegments(n);
        this.subsegments = n;
        return this;
      }

      /** Items per scanned page and per write batch; default 500. */
      public Builder pageSize(int n) {
        StowageIO.checkPageSize(n);
        this.pageSize = n;
        return this;
      }

      /** Whether to verify after copying; default true. */
      public Builder verify(boolean verify) {
        this.verify = verify;
        return this;
      }

      /**
       * Whether to copy; default true. Without copying, the pipeline only verifies an earlier copy
       * (the target table must exist).
       */
      public Builder copy(boolean copy) {
        this.copy = copy;
        return this;
      }

      /**
       * The Beam options from command-line arguments ({@code --runner=DataflowRunner}, {@code
       * --project=…}; see docs/beam.md), validated.
       *
       * @throws IllegalArgumentException for an unknown option, or a runner whose artifact is not
       *     on the class path (naming the artifact to add)
       */
      public Builder pipelineArgs(String... args) {
        this.pipelineOptions = Runners.options(java.util.List.of(args));
        return this;
      }

      /**
       * The Beam options (runner, parallelism, the runner's own settings); default: {@code
       * PipelineOptionsFactory.create()}, the DirectRunner when it is on the class path.
       */
      public Builder pipelineOptions(PipelineOptions options) {
        this.pipelineOptions = Objects.requireNonNull(options, "options");
        return this;
      }

      /** The options. */
      public Options build() {
        if (pipelineOptions == null) {
          pipelineOptions = PipelineOptionsFactory.create();
        }
        return new Options(this);
      }
    }
  }

  /**
   * The counts of a migration pipeline's run (committed metrics: bundles that failed and were
   * retried count once).
   *
   * @param sourceItems items read from the source; when verified, the source items the verification
   *     compared (the same number, also where a runner's counters of the read fall short after a
   *     retried task, as Spark's can)
   * @param sourceSegments driver segments the source scan was planned in ({@code segments ×
   *     subsegments})
   * @param copiedItems items written to the target
   * @param copiedBlobs overflow blobs copied
   * @param missingBlobs source items whose overflow blob was missing (copied as they are)
   * @param misfits items not copied because they do not fit the target
   * @param targetItems items read from the target by the verification (0 without it)
   * @param verifiedItems items whose digests match on both sides
   * @param missingItems source items absent from the target
   * @param extraItems target items absent from the source
   * @param differentItems items whose digests differ
   * @param verifiedIndexEntries index entries present on the target as expected
   * @param missingIndexEntries index entries the target lacks
   * @param extraIndexEntries index entries the target has that the source items do not give
   * @param verified true if the verification ran
   */
  public record Result(
      long sourceItems,
      long sourceSegments,
      long copiedItems,
      long copiedBlobs,
      long missingBlobs,
      long misfits,
      long targetItems,
      long verifiedItems,
      long missingItems,
      long extraItems,
      long differentItems,
      long verifiedIndexEntries,
      long missingIndexEntries,
      long extraIndexEntries,
      boolean verified) {

    /** True if every item was copied and, when verified, both sides hold the same items. */
    public boolean ok() {
      return misfits == 0
          && missingItems == 0
          && extraItems == 0
          && differentItems == 0
          && missingIndexEntries == 0
          && extraIndexEntries == 0
          && (!verified || verifiedItems == sourceItems);
    }

    /** The counts in a pipeline's metrics. */
    public static Result of(MetricQueryResults metrics) {
      long targetItems = counter(metrics, Metric.TARGET + "Items");
      long verifiedItems = counter(metrics, Metric.MATCHED);
      long different = counter(metrics, Metric.DIFFERENT);
      long missing = counter(metrics, Metric.MISSING);
      boolean verified = verifiedItems + different + missing > 0 || targetItems > 0;
      long compared = counter(metrics, Metric.COMPARED_SOURCE);
      return new Result(
          verified || compared > 0 ? compared : counter(metrics, Metric.SOURCE + "Items"),
          counter(metrics, Metric.SOURCE_SEGMENTS),
          counter(metrics, Metric.COPIED),
          counter(metrics, Metric.BLOBS),
          counter(metrics, Metric.MISSING_BLOBS),
          counter(metrics, Metric.MISFITS),
          targetItems,
          verifiedItems,
          missing,
          counter(metrics, Metric.EXTRA),
          different,
          counter(metrics, Metric.INDEX_MATCHED),
          counter(metrics, Metric.INDEX_MISSING),
          counter(metrics, Metric.INDEX_EXTRA),
          verified);
    }

    private static long counter(MetricQueryResults metrics, String name) {
      long sum = 0;
      for (MetricResult<Long> r : metrics.getCounters()) {
        if (r.getName().getNamespace().equals(Metric.NAMESPACE)
            && r.getName().getName().equals(name)) {
          Long v;
          try {
            v = r.getCommitted();
          } catch (UnsupportedOperationException e) {
            v = r.getAttempted();
          }
          sum += v == null ? 0 : v;
        }
      }
      return sum;
    }
  }
}
