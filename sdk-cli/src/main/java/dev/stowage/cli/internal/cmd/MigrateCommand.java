package dev.stowage.cli.internal.cmd;

import dev.stowage.TableSpec;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.Backends;
import dev.stowage.cli.internal.BeamMigration;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.ProgressBar;
import dev.stowage.cli.internal.Specs;
import dev.stowage.cli.internal.StoreConfig;
import dev.stowage.migrate.Migrator;
import dev.stowage.migrate.Verification;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.StorageDriver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage migrate}. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Copy a table between two stores (any backends or namespaces) in its stored form:"
            + " encrypted attributes are copied without keys, overflow blobs are copied, the"
            + " target's indexes are created and their values computed from each item. A table"
            + " other tools wrote is copied with --from-adopt (into a table Stowage lays out, or"
            + " into another adopted table with --to-adopt). Resumable with --checkpoint, which records the source"
            + " and target and is refused for any other pair; a table is never copied onto"
            + " itself. Verifies counts and per-item digests at the end. Exit code 1 if"
            + " verification fails.")
public final class MigrateCommand implements Callable<Integer> {
  // sdk-beam's defaults and limits (StowageIO), which this command does not depend on.
  private static final int DEFAULT_RUNNER_SEGMENTS = 64;
  private static final int DEFAULT_SUBSEGMENTS = 4;
  private static final int MAX_SUBSEGMENTS = 1_000;

  @ParentCommand Main main;

  @Option(names = "--from", required = true, paramLabel = "URI|NAME", description = "Source store.")
  String from;

  @Option(names = "--to", required = true, paramLabel = "URI|NAME", description = "Target store.")
  String to;

  @Option(names = "--from-blobs", paramLabel = "URI", description = "Source blob store.")
  String fromBlobs;

  @Option(names = "--to-blobs", paramLabel = "URI", description = "Target blob store.")
  String toBlobs;

  @Option(names = "--config", paramLabel = "FILE", description = "Config file with named stores.")
  Path config;

  @Option(names = "--spec", paramLabel = "FILE", description = "Table spec file (JSON).")
  Path specFile;

  @Option(names = "--pk", paramLabel = "NAME:TYPE", description = "Partition key.")
  String pk;

  @Option(names = "--sk", paramLabel = "NAME:TYPE", description = "Sort key.")
  String sk;

  @Option(names = "--spec-index", paramLabel = "NAME=P1,P2/S1,S2", description = "An index.")
  List<String> indexes = new ArrayList<>();

  @Option(names = "--encrypted", split = ",", description = "Encrypted attributes.")
  List<String> encrypted = new ArrayList<>();

  @Option(
      names = "--from-adopt",
      paramLabel = "NAME",
      description =
          "The source is the existing table, kind or Azure table NAME that other tools wrote,"
              + " read as it is in its native key layout (as the spec's \"adopt\" field).")
  String fromAdopt;

  @Option(
      names = "--to-spec",
      paramLabel = "FILE",
      description =
          "The target's own spec (JSON), e.g. with other indexes; same key schema and policies"
              + " as the source's. Default: the target store's spec in the config file, else the"
              + " source's spec without \"adopt\".")
  Path toSpecFile;

  @Option(
      names = "--to-adopt",
      paramLabel = "NAME",
      description =
          "Copy into the existing table, kind or Azure table NAME (adopted, in its native key"
              + " layout) instead of a table Stowage lays out.")
  String toAdopt;

  @Option(
      names = "--checkpoint",
      paramLabel = "FILE",
      description =
          "Checkpoint file: created if missing, resumed from if it was written for the same"
              + " source and target (backend, location, namespace, table), refused otherwise.")
  Path checkpoint;

  @Option(
      names = {"--parallelism", "--parallel"},
      defaultValue = "4",
      description = "Segments read and pages written concurrently (1 to 256).")
  int parallel;

  @Option(
      names = "--segments",
      description =
          "Segments the source is divided into (1 to 4096; default: the parallelism). A resumed"
              + " run reads the segments its checkpoint recorded.")
  Integer segments;

  @Option(
      names = "--subsegments",
      paramLabel = "K",
      description =
          "With --runner: driver segments in each of the --segments parts (1 to 1000; default 4)."
              + " A runner splits a running part at their starts, and inside the last one on"
              + " stores whose segments are key ranges; more give it finer places to rebalance"
              + " work at. The driver plans segments × subsegments (at most 1000000) per scan.")
  Integer subsegments;

  @Option(
      names = "--page-size",
      defaultValue = "500",
      description = "Items per scanned page (1 to 10000), the checkpoint's unit.")
  int pageSize;

  @Option(names = "--no-verify", description = "Skip the verification pass.")
  boolean noVerify;

  @Option(
      names = "--runner",
      paramLabel = "direct|dataflow|flink|spark",
      description =
          "Run the copy and its verification (items and index entries) as an Apache Beam"
              + " pipeline on this runner. Needs dev.stowage:sdk-beam and the runner's artifact on"
              + " the class path (docs/beam.md). --segments divides the scans (default 64);"
              + " --checkpoint does not apply: a failed pipeline is run again.")
  String runner;

  @Option(
      names = "--runner-option",
      paramLabel = "--NAME=VALUE",
      description =
          "A Beam pipeline option for --runner, repeatable: e.g. --runner-option=--project=acme"
              + " --runner-option=--region=europe-west1.")
  List<String> runnerOptions = new ArrayList<>();

  @Override
  public Integer call() {
    checkRunnerOptions();
    StoreConfig source = StoreConfig.resolve(from, config, fromBlobs, null, this::spec);
    StoreConfig target = StoreConfig.resolve(to, config, toBlobs, null, this::targetSpec);
    TableSpec spec = adopting(source.requireSpec(), fromAdopt, "--from-adopt");
    String targetTable = target.store().authority();
    TableSpec targetSpec = target.spec();
    if (targetSpec != null) {
      targetSpec = adopting(targetSpec, toAdopt, "--to-adopt");
    } else if (toAdopt != null) {
      targetSpec =
          adopting(
              Specs.derive(spec, targetTable.isEmpty() ? spec.name() : targetTable, null),
              toAdopt,
              "--to-adopt");
    }
    if (runner != null) {
      if (checkpoint != null) {
        throw new CliException(
            "--checkpoint does not apply with --runner: a failed pipeline is run again (its"
                + " writes are idempotent)");
      }
      return BeamMigration.run(
          new BeamMigration.Request(
              source,
              target,
              spec,
              targetSpec,
              targetSpec != null || targetTable.isEmpty() ? null : targetTable,
              runner,
              runnerOptions,
              segments,
              subsegments,
              pageSize,
              !noVerify),
          main.out());
    }
    StorageDriver sd = Backends.driver(source.store());
    StorageDriver td = null;
    BlobStore sb = null;
    BlobStore tb = null;
    try {
      td = Backends.driver(target.store());
      sb = source.blobs() == null ? null : Backends.blobStore(source.blobs());
      tb = target.blobs() == null ? null : Backends.blobStore(target.blobs());
      ProgressBar bar = new ProgressBar(main.err(), "copying", 0, ProgressBar.terminal());
      Migrator.Builder mb =
          Migrator.builder(spec)
              .source(sd, sb, source.store().namespace())
              .target(td, tb, target.store().namespace())
              .targetTable(targetSpec != null || targetTable.isEmpty() ? null : targetTable)
              .parallelism(parallel)
              .segments(segments == null ? parallel : segments)
              .pageSize(pageSize)
              .checkpoint(checkpoint)
              .onProgress(
                  p ->
                      bar.update(
                          p.itemsCopied() + p.itemsSkipped(),
                          p.blobsCopied() > 0 ? p.blobsCopied() + " blobs" : ""));
      if (targetSpec != null) {
        mb.targetSpec(targetSpec);
      }
      Migrator m = mb.build();
      main.out()
          .println(
              "migrating "
                  + sd.name()
                  + ":"
                  + m.sourceLayout().ref()
                  + adopted(m.sourceLayout().adoptedName())
                  + " -> "
                  + td.name()
                  + ":"
                  + m.targetLayout().ref()
                  + adopted(m.targetLayout().adoptedName()));
      Migrator.Report r = m.run();
      Migrator.Progress p = r.progress();
      bar.finish(p.itemsCopied() + p.itemsSkipped(), "");
      main.out()
          .println(
              "copied "
                  + p.itemsCopied()
                  + " item(s)"
                  + (p.itemsSkipped() > 0
                      ? " (" + p.itemsSkipped() + " done by an earlier run)"
                      : "")
                  + ", "
                  + p.blobsCopied()
                  + " blob(s) ("
                  + ProgressBar.bytes(p.blobBytes())
                  + ") in "
                  + ProgressBar.format(p.elapsed()));
      if (p.missingBlobs() > 0) {
        main.out().println("warning: " + p.missingBlobs() + " item(s) point to missing blobs");
      }
      for (Migrator.Misfit f : r.misfits()) {
        main.out().println("not copied (does not fit the target): " + f.key() + ": " + f.reason());
      }
      boolean ok = r.misfits().isEmpty();
      if (!noVerify) {
        Verification v = m.verify();
        main.out()
            .println(
                "verification: source "
                    + v.sourceItems()
                    + ", target "
                    + v.targetItems()
                    + ", missing "
                    + v.missing()
                    + ", extra "
                    + v.extra()
                    + ", different "
                    + v.different()
                    + " -> "
                    + (v.ok() ? "OK" : "FAILED"));
        v.examples().forEach(k -> main.out().println("  differs: " + k));
        ok &= v.ok();
      }
      return ok ? 0 : 1;
    } finally {
      sd.close();
      if (td != null) {
        td.close();
      }
      if (sb != null) {
        sb.close();
      }
      if (tb != null) {
        tb.close();
      }
    }
  }

  private static String adopted(String name) {
    return name == null ? "" : " (adopted '" + name + "')";
  }

  /** {@code spec} adopting {@code name} (if given); a spec adopting another name is refused. */
  private static TableSpec adopting(TableSpec spec, String name, String flag) {
    if (name == null || name.equals(spec.adoptedName().orElse(null))) {
      return spec;
    }
    if (spec.isAdopted()) {
      throw new CliException(
          flag
              + " "
              + name
              + " contradicts the spec, which adopts '"
              + spec.adoptedName().orElseThrow()
              + "': give one of them");
    }
    try {
      return Specs.derive(spec, spec.name(), name);
    } catch (IllegalArgumentException e) {
      throw new CliException(flag + ": " + e.getMessage());
    }
  }

  private TableSpec targetSpec(String tableFromUri) {
    if (toSpecFile == null) {
      return null;
    }
    return Specs.read(toSpecFile, tableFromUri.isEmpty() ? null : tableFromUri);
  }

  private TableSpec spec(String tableFromUri) {
    try {
      if (specFile != null) {
        return Specs.read(specFile, tableFromUri.isEmpty() ? null : tableFromUri);
      }
      if (pk == null) {
        return null;
      }
      if (tableFromUri.isEmpty()) {
        throw new CliException("the --from URI must name the table, e.g. memory://orders");
      }
      return Specs.build(tableFromUri, pk, sk, indexes, List.of(), encrypted, null, 0, null);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
  }

  /** Checks the pipeline's division options before anything is read or written. */
  private void checkRunnerOptions() {
    if (runner == null) {
      if (subsegments != null) {
        throw new CliException(
            "--subsegments applies with --runner only (the migrator reads each segment whole)");
      }
      return;
    }
    if (subsegments != null && (subsegments < 1 || subsegments > MAX_SUBSEGMENTS)) {
      throw new CliException(
          "--subsegments must be 1 to " + MAX_SUBSEGMENTS + ", not " + subsegments);
    }
    if (segments != null && segments < 1) {
      throw new CliException("--segments must be at least 1, not " + segments);
    }
    int parts = segments == null ? DEFAULT_RUNNER_SEGMENTS : segments;
    int each = subsegments == null ? DEFAULT_SUBSEGMENTS : subsegments;
    if ((long) parts * each > ScanSegment.MAX_TOTAL) {
      throw new CliException(
          "--segments "
              + parts
              + " times --subsegments "
              + each
              + " is "
              + (long) parts * each
              + " driver segments per scan; a driver plans at most "
              + ScanSegment.MAX_TOTAL);
    }
  }
}
