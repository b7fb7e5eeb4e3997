package dev.stowage.cli.internal;

import dev.stowage.TableSpec;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import java.io.PrintStream;
import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code stowage migrate --runner}: runs the copy and its verification as sdk-beam's Apache Beam
 * pipeline. The command line does not depend on sdk-beam (Beam would weigh on every user of the
 * {@code stowage} jar): the pipeline is loaded from the class path when a runner is asked for, and
 * its absence is an error naming what to add. Workers open the stores from their URIs, as this
 * command does.
 */
public final class BeamMigration {
  static final String PIPELINE = "dev.stowage.beam.StowageMigrationPipeline";

  private BeamMigration() {}

  /** What to migrate; {@code targetSpec} and {@code targetTable} may be null. */
  public record Request(
      StoreConfig source,
      StoreConfig target,
      TableSpec spec,
      TableSpec targetSpec,
      String targetTable,
      String runner,
      List<String> runnerOptions,
      Integer segments,
      Integer subsegments,
      int pageSize,
      boolean verify) {}

  /**
   * Runs the pipeline and prints its counts.
   *
   * @return 0 if everything was copied and (when asked) verified, 1 otherwise
   * @throws CliException if sdk-beam or the runner is not on the class path, or the pipeline fails
   */
  public static int run(Request r, PrintStream out) {
    Method entry = entryPoint();
    Map<String, Object> request = new HashMap<>();
    request.put("sourceDriver", new DriverOpener(r.source().store().raw()));
    request.put("targetDriver", new DriverOpener(r.target().store().raw()));
    if (r.source().blobs() != null) {
      request.put("sourceBlobs", new BlobOpener(r.source().blobs().raw()));
    }
    if (r.target().blobs() != null) {
      request.put("targetBlobs", new BlobOpener(r.target().blobs().raw()));
    }
    request.put("sourceNamespace", r.source().store().namespace());
    request.put("targetNamespace", r.target().store().namespace());
    request.put("spec", r.spec());
    request.put("targetSpec", r.targetSpec());
    request.put("targetTable", r.targetTable());
    if (r.segments() != null) {
      request.put("segments", r.segments());
    }
    if (r.subsegments() != null) {
      request.put("subsegments", r.subsegments());
    }
    request.put("pageSize", r.pageSize());
    request.put("verify", r.verify());
    List<String> args = new java.util.ArrayList<>();
    args.add("--runner=" + r.runner());
    args.addAll(r.runnerOptions());
    request.put("args", args);
    Map<String, Long> result;
    try {
      @SuppressWarnings("unchecked")
      Map<String, Long> counts = (Map<String, Long>) entry.invoke(null, request);
      result = counts;
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) {
        throw new CliException(cause.getMessage());
      }
      throw new CliException(
          "the "
              + r.runner()
              + " pipeline failed: "
              + rootMessage(cause)
              + " (run it again to"
              + " complete the copy: writes are idempotent)");
    } catch (IllegalAccessException e) {
      throw new CliException("cannot call " + PIPELINE + ": " + e.getMessage());
    }
    out.println(
        "copied "
            + result.get("copiedItems")
            + " item(s), "
            + result.get("copiedBlobs")
            + " blob(s) on the "
            + r.runner()
            + " runner; "
            + result.get("misfits")
            + " not fitting the target");
    out.println("source read in " + result.get("sourceSegments") + " driver segment(s)");
    if (r.verify()) {
      out.println(
          "verification: source "
              + result.get("sourceItems")
              + ", target "
              + result.get("targetItems")
              + ", missing "
              + result.get("missingItems")
              + ", extra "
              + result.get("extraItems")
              + ", different "
              + result.get("differentItems")
              + ", index entries "
              + result.get("verifiedIndexEntries")
              + " (missing "
              + result.get("missingIndexEntries")
              + ", extra "
              + result.get("extraIndexEntries")
              + ") -> "
              + (result.get("ok") == 1L ? "OK" : "FAILED"));
    }
    return result.get("ok") == 1L ? 0 : 1;
  }

  private static Method entryPoint() {
    try {
      Class<?> pipeline = Class.forName(PIPELINE, true, BeamMigration.class.getClassLoader());
      return pipeline.getMethod("runFromCommandLine", Map.class);
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      throw new CliException(
          "--runner needs dev.stowage:sdk-beam, Apache Beam and the runner's artifact (for"
              + " direct: org.apache.beam:beam-runners-direct-java) on the class path, e.g. java"
              + " -cp stowage.jar:<those jars> dev.stowage.cli.Main migrate --runner direct …;"
              + " see docs/beam.md");
    } catch (NoSuchMethodException e) {
      throw new CliException(
          "the sdk-beam on the class path is of another version than this command line");
    }
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.toString() : c.getMessage();
  }

  /** Opens a driver from its URI on a worker. */
  record DriverOpener(String uri) implements Supplier<StorageDriver>, Serializable {
    @Override
    public StorageDriver get() {
      return Backends.driver(StoreLocation.parse(uri));
    }
  }

  /** Opens a blob store from its URI on a worker. */
  record BlobOpener(String uri) implements Supplier<BlobStore>, Serializable {
    @Override
    public BlobStore get() {
      return Backends.blobStore(StoreLocation.parse(uri));
    }
  }
}
