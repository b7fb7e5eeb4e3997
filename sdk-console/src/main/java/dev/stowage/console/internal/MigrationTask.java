package dev.stowage.console.internal;

import dev.stowage.migrate.Migrator;
import dev.stowage.migrate.Verification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A migration job: copies a table to another store with the library's {@link Migrator}, in its
 * stored form, recording every completed page in a checkpoint file of its own. A cancelled or
 * failed run is continued by a migrator built again over the same checkpoint, which skips what was
 * copied; once everything is copied the two sides are verified (counts and per-item digests) and
 * the checkpoint is deleted.
 */
final class MigrationTask implements Jobs.Task {
  private final Migrator.Builder builder;
  private final Path directory;
  private final Path checkpoint;
  private volatile Migrator migrator;
  private volatile Migrator.Progress progress;
  private volatile List<Migrator.Misfit> misfits = List.of();
  private volatile Verification verification;
  private volatile String phase = "copying";

  /**
   * Builds the first run's migrator, so that a migration that cannot be (the same table as source
   * and target, another key schema) is refused here, before anything is read or written.
   *
   * @param builder the migration, sides and options set; its checkpoint and progress listener are
   *     set here
   * @throws IllegalArgumentException if the migrator refuses the migration
   */
  MigrationTask(Migrator.Builder builder) {
    this.builder = builder;
    try {
      directory = Files.createTempDirectory("stowage-console-migration-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the checkpoint", e);
    }
    checkpoint = directory.resolve("migration.checkpoint");
    builder.checkpoint(checkpoint).onProgress(p -> progress = p);
    try {
      migrator = builder.build();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The migrator of the current run. */
  Migrator migrator() {
    return migrator;
  }

  @Override
  public boolean run() {
    phase = "copying";
    Migrator m = migrator;
    Migrator.Report r = m.run();
    progress = r.progress();
    List<Migrator.Misfit> all = new ArrayList<>(misfits);
    all.addAll(r.misfits());
    misfits = List.copyOf(all);
    if (!r.progress().done()) {
      phase = "cancelled";
      return false;
    }
    phase = "verifying";
    verification = m.verify();
    phase = "verified";
    close();
    return true;
  }

  @Override
  public void cancel() {
    migrator.cancel();
  }

  @Override
  public void prepareResume() {
    if (verification != null) {
      throw new IllegalArgumentException("the migration is done");
    }
    migrator = builder.build();
  }

  @Override
  public void describe(Map<String, Object> m) {
    Migrator.Progress p = progress;
    m.put("kind", "migrate");
    m.put("phase", phase);
    m.put("copied", p == null ? 0 : p.itemsCopied() + p.itemsSkipped());
    m.put("copiedThisRun", p == null ? 0 : p.itemsCopied());
    m.put("blobsCopied", p == null ? 0 : p.blobsCopied());
    m.put("elapsedMillis", p == null ? 0 : p.elapsed().toMillis());
    List<Object> segments = new ArrayList<>();
    if (p != null) {
      for (Migrator.SegmentProgress s : p.segments()) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("number", s.number());
        x.put("copied", s.itemsCopied() + s.itemsSkipped());
        x.put("done", s.done());
        segments.add(x);
      }
    }
    m.put("segments", segments);
    List<Migrator.Misfit> notCopied = misfits;
    m.put("misfits", notCopied.size());
    m.put(
        "misfitExamples",
        notCopied.stream().limit(5).map(f -> f.key() + ": " + f.reason()).toList());
    Verification v = verification;
    if (v == null) {
      m.put("verification", null);
    } else {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("ok", v.ok());
      x.put("sourceItems", v.sourceItems());
      x.put("targetItems", v.targetItems());
      x.put("missing", v.missing());
      x.put("extra", v.extra());
      x.put("different", v.different());
      m.put("verification", x);
    }
  }

  /** Deletes the checkpoint: the migration is done, or the console closes. */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(checkpoint);
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      // a temporary file left behind; nothing depends on it
    }
  }
}
